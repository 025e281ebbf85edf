"""The board replay viewer: the frames of games.viewer, the partial and the script showing them."""

import json
import random
import re
from pathlib import Path

import pytest
from django.template.loader import render_to_string
from django.utils.html import json_script

from games.rules import (
    Double,
    Drop,
    LongNardy,
    Play,
    Resign,
    ShortNardy,
    Take,
    Turn,
    Variant,
    check_play,
    legal_plays,
    replay_game,
    replay_match,
)
from games.rules.game import GameState
from games.rules.matfile import read_match
from games.rules.position import Colour
from games.rules.selfplay import random_match, random_turns
from games.viewer import BoardReplay, Verdict, board_layout, display_board, match_frames
from tests.support.corpus import corpus_or_skip

PROJECT_ROOT = Path(__file__).resolve().parents[2]
BOARD_JS = PROJECT_ROOT / "static" / "nardy" / "board.js"
CORPUS_MATCH = "leochili75 - Llabba 7pt Backgammon Studio 2023_05_07 18_12_00.txt"
NAMES = ("Ann", "Bob")
VARIANTS = [pytest.param(ShortNardy(), id="short"), pytest.param(LongNardy(), id="long")]


def self_play_replay(variant: Variant, length: int = 3, seed: int = 7) -> tuple[list, BoardReplay]:
    games = random_match(variant, length, random.Random(seed))
    replay = match_frames(
        variant,
        [(game.white, game.actions) for game in games],
        names=NAMES,
        length=length,
        crawford=True,
    )
    return games, replay


def one_game(variant: Variant, actions: list) -> BoardReplay:
    return match_frames(variant, [(1, actions)], names=NAMES, length=None, crawford=False)


def opening_turns(variant: Variant, count: int, seed: int = 3) -> list[Turn]:
    """The first ``count`` turns of a self-play game that lasts longer than that."""
    turns = [turn for _, turn in random_turns(variant, random.Random(seed))]
    assert len(turns) > count
    return turns[:count]


# --- Frames ------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_one_frame_for_the_start_each_action_and_the_end(variant):
    games, replay = self_play_replay(variant)
    frames = replay["frames"]
    assert len(frames) == sum(len(game.actions) + 2 for game in games)
    for number, game in enumerate(games, start=1):
        steps = [frame for frame in frames if frame["game"] == number]
        assert [frame["step"] for frame in steps] == list(range(len(game.actions) + 2))
        assert steps[0]["kind"] == "start"
        assert steps[-1]["kind"] == "end"
        assert {frame["kind"] for frame in steps[1:-1]} == {"turn"}
        assert all(frame["white_player"] == game.white for frame in steps)
    assert replay["variant"] == variant.name


def test_the_first_frame_of_short_nardy_is_the_backgammon_start():
    _, replay = self_play_replay(ShortNardy())
    first = replay["frames"][0]
    expected = [0] * 24
    # White on its own 24, 13, 8, 6; Black on its 24, 13, 8, 6 = White's 1, 12, 17, 19.
    for point, count in ((24, 2), (13, 5), (8, 3), (6, 5)):
        expected[point - 1] = count
        expected[25 - point - 1] = -count
    assert first["board"]["points"] == expected
    assert first["board"]["bar"] == {"white": 0, "black": 0}
    assert first["board"]["off"] == {"white": 0, "black": 0}
    assert first["turn"] == "white"
    assert first["dice"] is None and first["play"] is None


def test_the_first_frame_of_long_nardy_has_both_heads_full():
    _, replay = self_play_replay(LongNardy())
    points = replay["frames"][0]["board"]["points"]
    # White's head is its 24; Black's head (its 24) is White's 12.
    assert points[24 - 1] == 15
    assert points[12 - 1] == -15
    assert sum(1 for count in points if count) == 2


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_frame_has_fifteen_checkers_a_side(variant):
    _, replay = self_play_replay(variant, length=5, seed=21)
    for frame in replay["frames"]:
        board = frame["board"]
        white = sum(c for c in board["points"] if c > 0) + board["bar"]["white"]
        black = -sum(c for c in board["points"] if c < 0) + board["bar"]["black"]
        assert white + board["off"]["white"] == 15, frame
        assert black + board["off"]["black"] == 15, frame
        if variant.name == "long":
            assert board["bar"] == {"white": 0, "black": 0}


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_score_advances_as_the_engine_says(variant):
    games, replay = self_play_replay(variant, length=5, seed=5)
    result = replay_match(variant, games, length=5, crawford=True)
    ends = [frame for frame in replay["frames"] if frame["kind"] == "end"]
    starts = [frame for frame in replay["frames"] if frame["kind"] == "start"]
    score = [0, 0]
    for number, (start, end, outcome) in enumerate(
        zip(starts, ends, result.outcomes, strict=True), start=1
    ):
        assert start["score_before"] == end["score_before"] == score
        winner = end["result"]["winner_player"]
        assert end["result"]["points"] == outcome.points
        assert end["result"]["winner"] == outcome.winner.value
        score[winner - 1] += outcome.points
        assert end["score_after"] == score
        assert start["crawford"] == (number == result.crawford_game)
    assert tuple(ends[-1]["score_after"]) == result.score


def test_turn_frames_show_the_play_in_the_movers_numbering_on_whites_board():
    white = Turn.of("31", "8/5 6/5")
    black = Turn.of("42", "8/4 6/4")
    frames = one_game(ShortNardy(), [white, black])["frames"]
    after_white, after_black = frames[1], frames[2]
    assert after_white["dice"] == [3, 1]
    assert after_white["play"] == "8/5 6/5"
    assert after_white["side"] == "white" and after_white["turn"] == "black"
    assert after_white["numbering"] == "white"
    assert after_white["moved"] == [5, 6, 8]
    points = after_white["board"]["points"]
    assert (points[5 - 1], points[6 - 1], points[8 - 1]) == (2, 4, 2)
    # Black's 4, 6 and 8 are White's 21, 19 and 17.
    assert after_black["numbering"] == "black"
    assert after_black["moved"] == [17, 19, 21]
    points = after_black["board"]["points"]
    assert (points[21 - 1], points[19 - 1], points[17 - 1]) == (-2, -4, -2)


def test_long_nardy_black_runs_the_same_way_round_from_whites_12():
    frames = one_game(LongNardy(), [Turn.of("64", "24/14"), Turn.of("53", "24/16")])["frames"]
    points = frames[2]["board"]["points"]
    assert points[14 - 1] == 1 and points[24 - 1] == 14
    # Black's 16 is White's 4; its head, its 24, is White's 12.
    assert points[4 - 1] == -1 and points[12 - 1] == -14
    assert frames[2]["moved"] == [4, 12]


def test_dave_offers_and_takes_change_the_stake_and_its_owner():
    turns = opening_turns(ShortNardy(), 3)
    actions = [turns[0], turns[1], Double(), Take(), turns[2], Double(), Take()]
    actions.append(Resign(Colour.WHITE, 1))
    frames = one_game(ShortNardy(), actions)["frames"]
    kinds = [frame["kind"] for frame in frames]
    assert kinds == [
        "start", "turn", "turn", "double", "take", "turn", "double", "take", "resign", "end",
    ]  # fmt: skip
    first_offer, first_take = frames[3], frames[4]
    assert (first_offer["side"], first_offer["stake"], first_offer["offered"]) == ("white", 1, 2)
    assert first_offer["owner"] is None
    assert (first_take["side"], first_take["stake"], first_take["offered"]) == ("black", 2, None)
    assert first_take["owner"] == "black"
    assert frames[5]["stake"] == 2
    second_offer, second_take = frames[6], frames[7]
    assert (second_offer["side"], second_offer["offered"]) == ("black", 4)
    assert (second_take["stake"], second_take["owner"]) == (4, "white")
    assert "White doubles to 2" in first_offer["description"]
    end = frames[-1]
    assert end["result"] == {
        "winner": "black",
        "winner_player": 2,
        "ending": "resign",
        "value": 1,
        "points": 4,
    }
    assert end["score_after"] == [0, 4]


def test_a_dropped_dave_ends_the_game_at_the_old_stake():
    turns = opening_turns(LongNardy(), 2)
    frames = one_game(LongNardy(), [*turns, Double(), Drop()])["frames"]
    drop, end = frames[-2], frames[-1]
    assert (drop["kind"], drop["side"], drop["stake"]) == ("drop", "black", 1)
    assert drop["offered"] is None
    assert end["result"]["winner"] == "white"
    assert (end["result"]["ending"], end["result"]["points"]) == ("drop", 1)


def test_an_unfinished_record_ends_without_a_winner():
    frames = one_game(ShortNardy(), opening_turns(ShortNardy(), 4))["frames"]
    assert frames[-1]["result"]["winner"] is None
    assert frames[-1]["result"]["ending"] == "unfinished"
    assert frames[-1]["score_after"] == [0, 0]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_layout_gives_rows_and_blacks_numbers_in_whites_numbering(variant):
    layout = board_layout(variant)
    assert layout["top"] == list(range(13, 25))
    assert layout["bottom"] == list(range(12, 0, -1))
    assert layout["homes"]["white"] == [1, 2, 3, 4, 5, 6]
    if variant.name == "short":
        assert layout["black_numbers"] == [25 - point for point in range(1, 25)]
        assert layout["homes"]["black"] == [19, 20, 21, 22, 23, 24]
        assert layout["bar"] is True
    else:
        assert layout["black_numbers"][:12] == list(range(13, 25))
        assert layout["black_numbers"][12:] == list(range(1, 13))
        assert layout["homes"]["black"] == [13, 14, 15, 16, 17, 18]
        assert layout["bar"] is False


def test_a_verdict_marks_the_kth_checker_play_of_its_game():
    """(game, k) is the k-th turn of the game, not its k-th action: a dave offer between turns
    does not count."""
    games, _ = self_play_replay(ShortNardy())
    assert len(games) >= 2
    actions = [(game.white, game.actions) for game in games]
    turn_steps = [i + 1 for i, a in enumerate(games[1].actions) if isinstance(a, Turn)]
    verdicts = {(2, 3): Verdict(0.1234567, "blunder", "not a play at all")}
    replay = match_frames(
        ShortNardy(), actions, names=NAMES, length=3, crawford=True, verdicts=verdicts
    )
    marked = [frame for frame in replay["frames"] if "analysis" in frame]
    assert [(frame["game"], frame["step"]) for frame in marked] == [(2, turn_steps[2])]
    assert marked[0]["analysis"] == {
        "loss": 0.1235, "mark": "blunder", "best": "not a play at all", "board": None, "moved": []
    }  # fmt: skip


def test_a_verdicts_best_play_is_shown_on_the_board_it_leads_to():
    """White opens 31 with 24/23 13/10 where 8/5 6/5 is best; Black's 64 is then judged too."""
    variant = ShortNardy()
    opening = [Turn.of((3, 1), "24/23 13/10"), Turn.of((6, 4), "24/18 13/9")]
    verdicts = {(1, 1): Verdict(0.2, "blunder", "8/5 6/5"), (1, 2): Verdict(0.05, "error", "24/14")}
    frames = match_frames(
        variant, [(1, opening)], names=NAMES, length=None, crawford=False, verdicts=verdicts
    )["frames"]
    start = GameState.new(variant).position
    best = check_play(start, (3, 1), "8/5 6/5")
    first = frames[1]["analysis"]
    assert first["board"] == display_board(best.position)
    assert first["moved"] == [5, 6, 8]
    assert first["best"] == "8/5 6/5" and first["mark"] == "blunder"
    after_first = check_play(start, (3, 1), "24/23 13/10").position
    second = frames[2]["analysis"]
    assert second["board"] == display_board(check_play(after_first, (6, 4), "24/14").position)
    assert frames[2]["side"] == "black" and second["mark"] == "error"


def test_a_verdicts_best_play_hits_without_a_hit_mark():
    variant = ShortNardy()
    opening = [Turn.of((6, 2), "24/18 13/11"), Turn.of((6, 1), "13/7 8/7")]
    after_first = replay_game(variant, opening[:1]).positions[-1]
    hit = next(p for p in legal_plays(after_first, (6, 1)) if any(m.hit for m in p.play.moves))
    written = str(hit.play).replace("*", "")
    frames = match_frames(
        variant, [(1, opening)], names=NAMES, length=None, crawford=False,
        verdicts={(1, 2): Verdict(0.3, "blunder", written)},
    )["frames"]  # fmt: skip
    assert frames[2]["analysis"]["board"] == display_board(hit.position)
    assert "*" in frames[2]["analysis"]["best"]


def test_the_replay_is_plain_json():
    _, replay = self_play_replay(LongNardy())
    assert json.loads(json.dumps(replay)) == replay


# --- A real match ------------------------------------------------------------------------------


def corpus_match() -> Path:
    """A 7-point match with takes, drops and a koks, from ../shared/corpora/bglab."""
    return corpus_or_skip() / "Llabba" / "raw" / CORPUS_MATCH


def test_a_corpus_match_ends_on_the_score_of_its_file():
    record = read_match(corpus_match().read_text(encoding="utf-8"))
    replay = match_frames(
        record.variant,
        [(game.first, game.actions) for game in record.games],
        names=record.players,
        length=record.length,
        crawford=record.crawford,
    )
    frames = replay["frames"]
    starts = [frame for frame in frames if frame["kind"] == "start"]
    assert [tuple(frame["score_before"]) for frame in starts] == [
        game.score for game in record.games
    ]
    last_game, last = record.games[-1], frames[-1]
    claim = last_game.claim
    expected = list(last_game.score)
    expected[claim.player - 1] += claim.points
    assert last["score_after"] == expected == [2, 10]
    assert last["result"]["value"] == 3  # the file's last game is a koks (Backgammon rules)
    assert {frame["stake"] for frame in frames} == {1, 2, 4}
    assert replay["names"] == list(record.players)
    for frame, action in zip(frames[1:], record.games[0].actions, strict=False):
        if isinstance(action, Turn):
            assert Play.parse(frame["play"]) == action.play


# --- The page ----------------------------------------------------------------------------------


def test_the_script_is_local_and_uses_the_test_hooks():
    script = BOARD_JS.read_text(encoding="utf-8")
    assert "button[data-step]" in script
    for hook in ('"first"', '"prev"', '"next"', '"last"', '[data-role="counter"]'):
        assert hook in script
    for hook in ('[data-role="play"]', '[data-role="board"]', '"checker "', "ArrowLeft"):
        assert hook in script
    assert not re.search(r"https?://(?!www\.w3\.org/2000/svg)", script), "no remote resources"


def render_viewer(replay: BoardReplay | None) -> str:
    board_frames = None if replay is None else json_script(replay, "board-frames")
    return render_to_string("games/_board_viewer.html", {"board_frames": board_frames})


def embedded_frames(html: str) -> object:
    match = re.search(r'<script id="board-frames" type="application/json">(.*?)</script>', html)
    assert match, "the frames are embedded with json_script"
    return json.loads(match.group(1))


def test_the_partial_renders_the_viewer_and_its_frames():
    _, replay = self_play_replay(ShortNardy())
    html = render_viewer(replay)
    assert '<div class="board-viewer" data-frames="board-frames"' in html
    for step in ("first", "prev", "next", "last"):
        assert re.search(rf'<button type="button" data-step="{step}" aria-label="[^"]+"', html)
    assert 'data-role="counter"' in html and 'data-role="play"' in html
    assert re.search(r'<svg [^>]*data-role="board" role="img"', html)
    assert 'aria-live="polite"' in html
    assert "<noscript>" in html
    assert re.search(r'<script src="[^"]*nardy/board\.js" defer></script>', html)
    assert embedded_frames(html) == replay


def test_the_partial_without_recorded_moves_says_so():
    html = render_viewer(None)
    assert "board-viewer" not in html.replace("board-viewer-empty", "")
    assert "No moves were recorded" in html
