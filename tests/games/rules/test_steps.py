"""The step graph of a roll (games/rules/steps.py): entering a play checker by checker.

Every path from node 0 to a complete node must be a legal order of single steps of a legal play,
and every legal order of every legal play must be such a path. Positions are built in each side's
own numbering (``Position.from_points``; unnamed checkers are borne off).
"""

from __future__ import annotations

import itertools
import random

import pytest

from games.rules import (
    LongNardy,
    Move,
    Play,
    Position,
    ShortNardy,
    Variant,
    check_play,
    legal_plays,
    most_dice_playable,
    parse_dice,
)
from games.rules.moves import _OPPONENT_PATH, _block_modes, _dice_list, _new_turn
from games.rules.position import BAR, OFF
from games.rules.selfplay import random_turns
from games.rules.steps import StepNode, play_steps, steps_json

LONG = LongNardy()
SHORT = ShortNardy()
HIDE = ShortNardy(no_hit_and_hide=True)
ROLLS = [(high, low) for high in range(1, 7) for low in range(1, high + 1)]
Label = tuple[int, int, bool]


def after_step(variant: Variant, boards: tuple, label: Label) -> tuple:
    """The checkers (mover's, opponent's) after one step, checked against the board: the source
    holds a checker, the target is not held, and the hit mark says whether a blot stood there."""
    source, target, hit = label
    mover, opponent = list(boards[0]), list(boards[1])
    assert source > target and mover[source] > 0, label
    assert not mover[BAR] or source == BAR, f"{label}: a checker on the bar enters first"
    mover[source] -= 1
    mover[target] += 1
    if target != OFF:
        there = variant.opponent_point(target)
        assert opponent[there] <= (1 if variant.hitting else 0), f"{label}: point held"
        assert hit == (opponent[there] == 1), label
        if hit:
            opponent[there] = 0
            opponent[BAR] += 1
    else:
        assert not hit
    return tuple(mover), tuple(opponent)


def check_graph(position: Position, dice: tuple[int, int]) -> list[StepNode]:
    """The graph of ``dice``, checked as a whole; returns it for more checks."""
    nodes = play_steps(position, dice)
    plays = legal_plays(position, dice)
    variant = position.variant
    depth_needed = most_dice_playable(position, dice)
    # Boards and depth of every node, found from node 0: every path to a node must agree.
    boards: list[tuple | None] = [None] * len(nodes)
    depth: list[int] = [0] * len(nodes)
    boards[0] = (position.mover, position.opponent)
    for number, node in enumerate(nodes):
        assert boards[number] is not None, f"node {number} cannot be reached"
        # No dead end: a node either completes a play or leads on.
        assert node.steps or node.play is not None, f"dead end at node {number}"
        if node.play is not None:
            assert not node.steps
            assert depth[number] == depth_needed
            mover, opponent = boards[number]
            assert plays[node.play].position == Position(
                variant, opponent, mover, position.turn.other
            )
        for source, target, hit, child in node.steps:
            assert child > number
            reached = after_step(variant, boards[number], (source, target, hit))
            assert boards[child] in (None, reached), "two paths to one node disagree"
            boards[child] = reached
            assert depth[child] in (0, depth[number] + 1)
            depth[child] = depth[number] + 1
    complete = {
        Position(variant, boards[n][1], boards[n][0], position.turn.other)
        for n, node in enumerate(nodes)
        if node.play is not None
    }
    assert complete == {legal.position for legal in plays}
    assert_one_die_each(nodes, dice)
    return nodes


def assert_one_die_each(nodes: list[StepNode], dice: tuple[int, int]) -> None:
    """Each step is one die: a double's steps one by one, two dice's paths whole (two steps)."""
    if dice[0] == dice[1]:
        for node in nodes:
            for source, target, _, _ in node.steps:
                distance = source - target
                assert distance == dice[0] or (target == OFF and distance < dice[0])
        return
    for path in label_paths(nodes):
        distances = [source - target for source, target, _ in path]
        assert any(
            all(
                d == die or (target == OFF and d < die)
                for d, die, (_, target, _) in zip(distances, order, path, strict=False)
            )
            for order in itertools.permutations(dice)
        ), path


def label_paths(nodes: list[StepNode], start: int = 0) -> dict[tuple[Label, ...], set[int]]:
    """Every path from ``start`` to a complete node, as its steps, with the plays it names."""
    found: dict[tuple[Label, ...], set[int]] = {}

    def walk(number: int, path: tuple[Label, ...]) -> None:
        node = nodes[number]
        if node.play is not None:
            found.setdefault(path, set()).add(node.play)
        for source, target, hit, child in node.steps:
            walk(child, (*path, (source, target, hit)))

    walk(start, ())
    return found


def path_count(nodes: list[StepNode]) -> int:
    counts = [0] * len(nodes)
    for number in range(len(nodes) - 1, -1, -1):
        node = nodes[number]
        counts[number] = (node.play is not None) + sum(counts[edge[3]] for edge in node.steps)
    return counts[0]


def every_order(position: Position, dice: tuple[int, int]) -> set[tuple[Label, ...]]:
    """Every legal order of single steps, by a plain walk of the engine's turn state with no
    shared nodes: the reference for the graph's sharing and pruning."""
    plays = {legal.position for legal in legal_plays(position, dice)}
    deepest = most_dice_playable(position, dice)
    turn = _new_turn(position, dice)
    step_blocks, end_blocks = _block_modes(position.variant)
    ends: list[tuple[tuple[Label, ...], tuple[int, ...]]] = []

    def walk(left: tuple[int, ...], path: tuple[Label, ...]) -> None:
        if len(path) == deepest:
            if not (end_blocks and turn.block_anywhere()) and turn.result() in plays:
                ends.append((path, left))
            return
        for i, die in enumerate(left):
            if i and die == left[i - 1]:
                continue
            rest = left[:i] + left[i + 1 :]
            for source in turn.sources():
                if turn.problem(source, die):
                    continue
                step = turn.move(source, die)
                if not (step_blocks and turn.block_after(step)):
                    walk(rest, (*path, step))
                    while turn.switch():
                        walk(rest, (*path, step))
                turn.undo(step)

    walk(_dice_list(dice), ())
    if deepest == 1 and dice[0] != dice[1]:
        # The higher die, when it alone can be played.
        with_high = [path for path, left in ends if left == (min(dice),)]
        return set(with_high or [path for path, _ in ends])
    return {path for path, _ in ends}


def positions_of(variant: Variant, seed: int, games: int, every: int) -> list[Position]:
    """Positions of random self-play, from the opening to the bear-off."""
    rng = random.Random(seed)
    found: list[Position] = []
    for _ in range(games):
        found.extend(position for position, _ in random_turns(variant, rng))
    return found[::every]


def crowded_positions(variant: Variant, seed: int, count: int) -> list[Position]:
    """Made-up positions where the rules of the walk bite, as self-play seldom makes them."""
    rng = random.Random(seed)
    found: list[Position] = []
    while len(found) < count:
        make = _blocking if variant.name == "long" else _hitting
        mover, opponent = make(variant, rng)
        mover[OFF], opponent[OFF] = 15 - sum(mover), 15 - sum(opponent)
        position = Position(variant, tuple(mover), tuple(opponent))
        if not _new_turn(position, (1, 2)).block_anywhere():  # a start breaking no rule
            found.append(position)
    return found


def _blocking(variant: Variant, rng: random.Random) -> tuple[list[int], list[int]]:
    """Long Nardy: the mover holds five points in a row along the opponent's path, with checkers
    a few pips behind to close a sixth; the opponent stands mostly on its head, behind any
    block, so six in a row are forbidden."""
    mover, opponent = [0] * 26, [0] * 26
    start = rng.randrange(24)
    run = [_OPPONENT_PATH[(start + i) % 24] for i in range(5)]
    behind = sorted({p + d for p in run for d in range(1, 7) if p + d <= 24} - set(run))
    for point in run:
        mover[point] += 1
    for point in rng.sample(behind, min(3, len(behind))):
        mover[point] += rng.randint(1, 2)
    mover[24] += rng.randint(0, 3)
    spare = [point for point in range(1, 25) if not mover[point]]
    for _ in range(rng.randint(0, 3)):
        opponent[variant.opponent_point(rng.choice(spare))] += 1
    head = 12 if not mover[12] else rng.choice(spare)
    opponent[variant.opponent_point(head)] += 15 - sum(opponent)
    return mover, opponent


def _hitting(variant: Variant, rng: random.Random) -> tuple[list[int], list[int]]:
    """Short Nardy: the mover on few points (hitters covered and going on), sometimes on the
    bar, among many blots."""
    mover, opponent = [0] * 26, [0] * 26
    points = rng.sample(range(1, 26), 7)
    for _ in range(rng.randint(9, 15)):
        mover[rng.choice(points)] += 1
    mover[BAR] = min(mover[BAR], 2)
    for point in rng.sample(range(1, 25), 8):
        if not mover[point]:
            opponent[variant.opponent_point(point)] += 1
    spare = [point for point in range(1, 25) if not mover[point]]
    for _ in range(rng.randint(3, 15 - sum(opponent))):
        opponent[variant.opponent_point(rng.choice(spare))] += 1
    return mover, opponent


def check_all(position: Position, dice: tuple[int, int]) -> bool:
    """``check_graph``, and the paths against every legal order when they are few enough to
    list; whether they were."""
    nodes = check_graph(position, dice)
    if path_count(nodes) > 1000:
        return False
    assert set(label_paths(nodes)) == every_order(position, dice), (position, dice)
    return True


TURN_BLOCKS = LongNardy(block_check="turn")
VARIANTS = {
    "long": LONG,
    "long-turn-blocks": TURN_BLOCKS,
    "long-federation-draw": LongNardy(federation_draw=True),
    "short": SHORT,
    "short-no-hit-and-hide": HIDE,
    "short-koks": ShortNardy(koks=True),
}


@pytest.mark.parametrize("variant", VARIANTS.values(), ids=VARIANTS.keys())
def test_self_play_positions_reach_every_legal_play_in_every_legal_order(variant):
    compared = 0
    for position in positions_of(variant, seed=7, games=1, every=10):
        for dice in ROLLS:
            compared += check_all(position, dice)
    assert compared > 80


@pytest.mark.parametrize("name", ["long", "long-turn-blocks", "short", "short-no-hit-and-hide"])
def test_crowded_positions_reach_every_legal_play_in_every_legal_order(name):
    compared = 0
    for position in crowded_positions(VARIANTS[name], seed=3, count=10):
        for dice in ROLLS:
            compared += check_all(position, dice)
    assert compared > 150


def test_each_path_is_a_play_that_check_play_accepts():
    for variant in (LONG, SHORT, HIDE):
        for position in positions_of(variant, seed=5, games=1, every=15):
            for dice in ROLLS:
                for path, named in label_paths(play_steps(position, dice)).items():
                    (play,) = named
                    moves = tuple(Move(*label) for label in path)
                    checked = check_play(position, dice, Play(moves))
                    assert checked.position == legal_plays(position, dice)[play].position
                    break  # one path per roll keeps this quick


def test_steps_json_is_what_the_page_reads():
    nodes = play_steps(Position.initial(LONG), "65")
    assert steps_json(nodes) == [
        {"steps": [[24, 18, False, 1], [24, 19, False, 2]], "play": None},
        {"steps": [[18, 13, False, 3]], "play": None},
        {"steps": [[19, 13, False, 3]], "play": None},
        {"steps": [], "play": 0},
    ]


# --- Long Nardy ---------------------------------------------------------------------------------


def test_long_opening_6_6_moves_two_head_checkers_and_stops():
    nodes = check_graph(Position.initial(LONG), (6, 6))
    assert label_paths(nodes) == {((24, 18, False), (24, 18, False)): {0}}
    assert len(nodes) == 3


def test_long_opening_3_3_reaches_both_splits_in_every_order():
    position = Position.initial(LONG)
    plays = [str(legal.play) for legal in legal_plays(position, "33")]
    nodes = check_graph(position, (3, 3))
    paths = label_paths(nodes)
    a, b, c, d = (24, 21, False), (21, 18, False), (18, 15, False), (15, 12, False)
    both_to_18 = {(a, b, a, b), (a, a, b, b)}
    one_to_15 = {(a, b, c, a), (a, b, a, c), (a, a, b, c)}
    assert set(paths) == both_to_18 | one_to_15
    assert {plays[paths[path].pop()] for path in both_to_18} == {"24/18(2)"}
    assert {plays[paths[path].pop()] for path in one_to_15} == {"24/21 24/15"}
    assert not any(d in path for path in paths)  # the opponent's head on 12


def test_long_seed_examples_lose_the_dice_that_cannot_be_played():
    opened = legal_plays(Position.initial(LONG), "22")[0].position  # White 24/16
    nodes = check_graph(opened, (5, 5))
    assert set(label_paths(nodes)) == {((24, 19, False), (19, 14, False), (14, 9, False))}
    opened = legal_plays(Position.initial(LONG), "55")[0].position  # White 24/4
    nodes = check_graph(opened, (4, 4))
    assert set(label_paths(nodes)) == {((24, 20, False),)}


def test_a_checker_moved_by_both_dice_may_stop_on_either_open_point():
    open_board = Position.initial(LONG)
    paths = label_paths(check_graph(open_board, (6, 5)))
    assert set(paths) == {((24, 18, False), (18, 13, False)), ((24, 19, False), (19, 13, False))}
    # A Black checker on its 7, White's 19: only through 18.
    blocked = Position.from_points(LONG, {24: 15}, {24: 14, 7: 1})
    paths = label_paths(check_graph(blocked, (6, 5)))
    assert set(paths) == {((24, 18, False), (18, 13, False))}


def test_only_one_checker_leaves_the_head_after_the_first_turn():
    position = Position.from_points(LONG, {24: 14, 13: 1}, {24: 14, 2: 1})
    nodes = check_graph(position, (3, 3))
    for path in label_paths(nodes):
        assert sum(source == 24 for source, _, _ in path) <= 1


def test_all_dice_are_used_when_possible_and_the_higher_when_only_one():
    # 24/20/16 and 13/9: a step that would leave a die unplayable is not offered.
    position = Position.from_points(LONG, {24: 14, 13: 1}, {24: 14, 17: 1})
    nodes = check_graph(position, (4, 4))
    assert all(len(path) == 3 for path in label_paths(nodes))
    # One head checker may move and the second die is stopped either way: the 6, never the 1.
    position = Position.from_points(LONG, {24: 14, 1: 1}, {24: 14, 5: 1})
    nodes = check_graph(position, (6, 1))
    assert set(label_paths(nodes)) == {((24, 18, False),)}


def test_nothing_to_play_completes_at_the_start():
    position = Position.from_points(LONG, {24: 14, 1: 1}, {24: 13, 6: 1, 5: 1})
    assert play_steps(position, (6, 6)) == [StepNode((), 0)]
    assert legal_plays(position, (6, 6))[0].play == Play()


STEPPING = Position.from_points(LONG, {24: 9, 22: 1, 17: 1, 16: 1, 15: 1, 14: 1, 13: 1}, {24: 15})


def test_step_mode_offers_only_orders_that_never_leave_a_six_block():
    # 20/15 fills 18-16, 14-13 to a block; 13/7 first breaks the run, so only that order.
    position = Position.from_points(
        LONG, {24: 8, 20: 1, 18: 1, 17: 1, 16: 1, 14: 1, 13: 1}, {24: 15}
    )
    paths = label_paths(check_graph(position, (6, 5)))
    assert ((13, 7, False), (20, 15, False)) in paths
    assert ((20, 15, False), (13, 7, False)) not in paths
    # 22/16 24/22 stops on 18 beside 17..13 in every order: never in step mode.
    passing = sorted([(22, 20, False), (20, 18, False), (18, 16, False), (24, 22, False)])
    assert not any(sorted(path) == passing for path in label_paths(check_graph(STEPPING, (2, 2))))


def test_turn_mode_lets_a_checker_pass_through_a_block():
    mover = {p: n for p, n in enumerate(STEPPING.mover) if n and 0 < p < 25}
    position = Position.from_points(LongNardy(block_check="turn"), mover, {24: 15})
    paths = label_paths(check_graph(position, (2, 2)))
    passing = ((22, 20, False), (20, 18, False), (18, 16, False), (24, 22, False))
    assert passing in paths
    # Ending on 18 (22/18 24/20) leaves the block: never complete.
    assert ((22, 20, False), (20, 18, False), (24, 22, False), (22, 20, False)) not in paths


# --- Short Nardy --------------------------------------------------------------------------------


def test_short_opening_6_5_runs_through_18_only():
    # The opponent's 6 is the mover's 19.
    nodes = check_graph(Position.initial(SHORT), (6, 5))
    assert ((24, 18, False), (18, 13, False)) in label_paths(nodes)
    assert not any((24, 19, False) in path for path in label_paths(nodes))


def test_a_checker_on_the_bar_enters_before_anything_else():
    position = Position.from_points(SHORT, {25: 1, 13: 5, 6: 9}, {6: 5, 8: 3, 13: 5, 24: 2})
    nodes = check_graph(position, (6, 4))  # the 6 cannot enter: the opponent holds 19
    assert {source for source, _, _, _ in nodes[0].steps} == {BAR}
    paths = label_paths(nodes)
    assert ((25, 21, False), (13, 7, False)) in paths
    assert ((25, 21, False), (21, 15, False)) in paths  # the entered checker goes on
    assert all(path[0][0] == BAR for path in paths)
    # Two on the bar: both steps enter.
    position = Position.from_points(SHORT, {25: 2, 13: 4, 6: 9}, {6: 5, 8: 3, 13: 5, 24: 2})
    for path in label_paths(check_graph(position, (4, 3))):
        assert [source for source, _, _ in path] == [BAR, BAR]


def test_a_hit_on_the_way_is_one_order_of_two():
    # A blot on the mover's 7 (the opponent's 18).
    position = Position.from_points(SHORT, {13: 1, 6: 14}, {18: 1, 1: 14})
    paths = label_paths(check_graph(position, (6, 5)))
    assert ((13, 7, True), (7, 2, False)) in paths  # 13/7*/2
    assert ((13, 8, False), (8, 2, False)) in paths  # 13/8/2, passing the blot
    plays = legal_plays(position, (6, 5))
    hit_play = plays[paths[((13, 7, True), (7, 2, False))].pop()]
    assert hit_play.position.mover[BAR] == 1  # the opponent, now on roll, is on the bar


def test_no_hit_and_hide_refuses_the_hitter_going_on_to_its_own_checkers():
    # As above with own checkers on 2: the hitter may not stop there, the other order may.
    mover, opponent = {13: 1, 6: 12, 2: 2}, {18: 1, 1: 14}
    hide = label_paths(check_graph(Position.from_points(HIDE, mover, opponent), (6, 5)))
    plain = label_paths(check_graph(Position.from_points(SHORT, mover, opponent), (6, 5)))
    assert ((13, 7, True), (7, 2, False)) in plain
    assert ((13, 7, True), (7, 2, False)) not in hide
    assert ((13, 8, False), (8, 2, False)) in hide
    # 6/1 with the 5 after the hit is another checker: still legal.
    assert ((13, 7, True), (6, 1, False)) in hide


def test_no_hit_and_hide_lets_a_hitter_cover_and_either_checker_go_on():
    # 22/20* hits a blot on 20; the other 22 covers it; then 20/18 may be the plain checker,
    # which may go on to its own checkers on 16, while the hitter stays on 20.
    mover, opponent = {22: 2, 16: 2, 6: 11}, {5: 1, 1: 14}
    hide = label_paths(check_graph(Position.from_points(HIDE, mover, opponent), (2, 2)))
    plain = label_paths(check_graph(Position.from_points(SHORT, mover, opponent), (2, 2)))
    hit, cover, on, join = (22, 20, True), (22, 20, False), (20, 18, False), (18, 16, False)
    assert (hit, cover, on, join) in hide
    # Before the cover the hitter stands alone on 20: it is the one to go on, and may not join.
    assert (hit, on, join, cover) in plain
    assert (hit, on, join, cover) not in hide


def test_no_hit_and_hide_refuses_two_hitters_joining():
    # Blots on the mover's 22 and 18: the 24 checker hits on 22, the 20 checker on 18.
    mover, opponent = {24: 1, 20: 1, 6: 13}, {3: 1, 7: 1, 2: 13}
    paths = label_paths(check_graph(Position.from_points(HIDE, mover, opponent), (2, 2)))
    # 24/22*/20/18*/16 made by relay: the 20 checker hits and goes on, the first hitter follows.
    assert ((24, 22, True), (20, 18, True), (22, 20, False), (18, 16, False)) in paths
    assert not any(path[:2] == ((24, 22, True), (22, 20, False)) for path in paths)
    assert not any(path[-1] == (20, 18, False) for path in paths)


def test_bearing_off_with_a_higher_die_only_from_the_highest_point():
    position = Position.from_points(SHORT, {5: 1, 2: 1}, {12: 15})
    nodes = check_graph(position, (6, 1))
    assert {edge[:2] for edge in nodes[0].steps} == {(5, 0), (5, 4), (2, 1)}
    paths = label_paths(nodes)
    assert ((5, 4, False), (4, 0, False)) in paths  # then 4 is the highest point
    assert not any((2, 0, False) in path for path in paths)


def test_the_last_checker_is_borne_off_by_the_higher_die():
    # Either die bears it off and the game is over: one die is played, so it is the 6.
    nodes = check_graph(Position.from_points(SHORT, {1: 1}, {12: 15}), (6, 5))
    assert len(nodes) == 2 and nodes[0].steps == ((1, 0, False, 1),)


def test_bearing_off_from_one_point_by_either_die_keeps_both_steps():
    nodes = check_graph(Position.from_points(SHORT, {2: 2}, {12: 15}), (6, 5))
    first = [edge for edge in nodes[0].steps if edge[:2] == (2, 0)]
    assert len(first) == 2 and first[0][3] != first[1][3]  # a die left of 5 or of 6


def test_nothing_to_play_on_the_bar_completes_at_the_start():
    position = Position.from_points(SHORT, {25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
    assert play_steps(position, "64") == [StepNode((), 0)]


def test_dice_may_be_given_as_text():
    position = Position.initial(SHORT)
    assert play_steps(position, "31") == play_steps(position, parse_dice("31"))
