"""The single steps that make the legal plays of a roll, as a graph for entering a play by taps.

A scorer enters a play checker by checker, one die per step, in any order the rules allow. The
page may offer only steps that still lead to a legal play, so it gets the graph of every legal
way: node 0 is the start, each edge one step, and a node where a legal play is complete names it.
The graph is built on the move generator's own turn state (``_Turn``), so every rule of a single
step, of a whole turn and of dice usage is the engine's; this module only walks and prunes.

Nodes are keyed by the partial state (the turn's key, its hitters under no-hit-and-hide, and the
dice left), so orders that reach the same state share one node: a double in a busy position
makes a few hundred nodes, not one per order.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.rules.moves import (
    _HITTER_SHIFT,
    Dice,
    _block_modes,
    _can_play_alone,
    _dice_list,
    _HidingTurn,
    _new_turn,
    legal_plays,
)
from games.rules.notation import parse_dice
from games.rules.position import Position

Edge = tuple[int, int, bool, int]  # source, target, hit, index of the child node


@dataclass(frozen=True, slots=True)
class StepNode:
    """A state part-way through entering a play.

    ``steps`` are the single steps that may be made next, in the mover's own numbering (25 = bar,
    0 = off), each with the node it leads to. Two steps may share (source, target) and lead to
    different nodes: a checker borne off from one point by either die, or, under no-hit-and-hide,
    the hitter or a plain checker going on from a point holding both. ``play`` is set where a play
    is complete: its index in the list ``legal_plays(position, dice)`` returns.
    """

    steps: tuple[Edge, ...]
    play: int | None


def play_steps(position: Position, dice: Dice | str) -> list[StepNode]:
    """Node 0 is the start (nothing entered yet); every path from it to a node with ``play`` set
    is a legal order of single steps making that play, and every legal order is such a path.

    Children have higher indices than their parents. Every step leads on to some complete play;
    when nothing can be played, node 0 has no steps and names the empty play.
    """
    dice = parse_dice(dice)
    plays = legal_plays(position, dice)
    if not plays:  # a start that breaks the six-block rule: no play, not even the empty one
        return [StepNode((), None)]
    # The rules of the whole turn (as many dice as possible, the six-block at its end in "turn"
    # mode) are the engine's: a path is complete when it uses as many dice as the legal plays do
    # (one step code per die) and reaches the position of one of them.
    index = {legal.position: number for number, legal in enumerate(plays)}
    deepest = len(plays[0][0])
    everything = _dice_list(dice)
    # Except that a checker borne off by the lower die may reach the position the higher die
    # reaches: when only one die is played it must be the higher one, if that one can be.
    low_refused = deepest == 1 and dice[0] != dice[1] and _can_play_alone(position, dice, max(dice))
    turn = _new_turn(position, dice)
    hide = isinstance(turn, _HidingTurn)
    step_blocks = _block_modes(position.variant)[0]
    # Nodes in the order they are finished (children first), and each state's node, or None for
    # a state that leads to no legal play.
    finished: list[StepNode] = []
    made: dict[tuple[int, tuple[int, ...]], int | None] = {}

    def visit(left: tuple[int, ...]) -> int | None:
        state = (turn.key + (turn.hitters << _HITTER_SHIFT) if hide else turn.key, left)
        if state in made:
            return made[state]
        play = None
        edges: list[Edge] = []
        if len(everything) - len(left) == deepest:
            if not (low_refused and left[0] == max(dice)):
                play = index.get(turn.result())
        else:
            for i, die in enumerate(left):
                if i and die == left[i - 1]:
                    continue
                rest = left[:i] + left[i + 1 :]
                for source in turn.sources():
                    if turn.problem(source, die):
                        continue
                    step = turn.move(source, die)
                    if not (step_blocks and turn.block_after(step)):
                        # Under no-hit-and-hide ``switch`` gives the other checker's step: the
                        # same step on the board, another state behind it.
                        while True:
                            child = visit(rest)  # noqa: F821 (deleted when done: _FREED)
                            if child is not None:
                                edges.append((*step, child))
                            if not (hide and turn.switch()):
                                break
                    turn.undo(step)
        node = None
        if play is not None or edges:
            node = len(finished)
            finished.append(StepNode(tuple(edges), play))
        made[state] = node
        return node

    root = visit(everything)
    del visit  # it refers to itself: freed now, not by the garbage collector (moves._FREED)
    if root is None:  # only where legal_plays and this walk disagree
        return [StepNode((), None)]
    # Numbered again breadth first: the start is 0, and as every step goes one die deeper, every
    # child comes after its parents.
    number = {root: 0}
    order = [root]
    for old in order:
        for step in finished[old].steps:
            if step[3] not in number:
                number[step[3]] = len(order)
                order.append(step[3])
    return [
        StepNode(
            tuple([(s, t, hit, number[child]) for s, t, hit, child in finished[old].steps]),
            finished[old].play,
        )
        for old in order
    ]


def steps_json(nodes: Sequence[StepNode]) -> list[dict[str, Any]]:
    """[{"steps": [[24, 18, false, 1], ...], "play": null}, ...] for the page's script."""
    return [{"steps": [list(step) for step in node.steps], "play": node.play} for node in nodes]
