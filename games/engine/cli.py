"""The engine's answers to JSON lines, for ``python -m games.rules best``, ``... eval`` and
``... cube`` and ``... rollout``.

``best`` reads ``{"position_id": ..., "dice": [d1, d2]}`` (the side on roll to play) and answers
``{"position_id": <after the play, the opponent on roll>, "play": "24/18 13/9", "equity": ...}``;
``eval`` reads ``{"position_id": ...}`` and answers the probabilities of the side on roll and its
cubeless equity: ``{"win": ..., "win_mars": ..., "lose_mars": ..., "equity": ...}`` (a finished
game exactly: the side that has borne off all its checkers has won).

``rollout`` reads
``{"position_id": ..., "games": ..., "seed": ..., "plies": ...}`` ("plies" optional, ``--plies``
by default; "dice" optional, the roll the side on roll plays first) and answers the same
probabilities and equity measured by a rollout (``games.engine.rollout``), with the standard
error of the equity and the games played: ``{"position_id", "win", "win_mars", "lose_mars",
"equity", "stderr", "games"}``.

``cube`` reads ``{"position_id", "match_length", "score": [own, other], "stake", "crawford",
"dave_owner"}`` (``own``: the side on roll's score; ``dave_owner``: "centered" or null, both hold
the dave, as at stake 1; "own", the side on roll; "other", its opponent), and optionally
``"plies"`` (the rolls looked ahead, 0, 1 or 2, else the command's ``--plies``, 1 by default: one
at least, and two in a pure bear-off where the decision is close, as the analysis judges dave:
``games.engine.cube.judge``), ``"progression"`` ("geometric", the default, or "arithmetic") and
``"max_stake"`` (the most stake, default none). It answers the dave decision of the side on roll
before its roll (``games.engine.cube``): ``{"action": "no-double" | "double-take" | "double-drop" |
"too-good", "equities": {"no_double", "double_take", "double_drop": gnubg's normalised equity (EMG)
at the stake, "no_double_mwc", "double_take_mwc", "double_drop_mwc": the match-winning chances},
"no_offer": null}``; when the side may not offer (it does not hold the dave, the Crawford game, the
most stake), ``no_offer`` says why, the action is "no-double" and the double's equities are null.

Each line is answered at once and flushed; a bad line gets ``{"error": ...}``.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from games.engine.cube import (
    CubeDecision,
    CubeError,
    MatchState,
    Owner,
    judge,
)
from games.engine.rollout import rollout
from games.engine.search import PLIES, Engine, engine
from games.rules.errors import RulesError
from games.rules.notation import parse_dice
from games.rules.position import CHECKERS, OFF, Position
from games.rules.variants import DaveRules, LongNardy

#: Equities and probabilities are given to this many decimals.
DECIMALS = 6


def best_json(request: Any, plies: int, found: Engine | None = None) -> dict[str, Any]:
    """The answer of ``best`` for one request."""
    position = _position(request)
    if CHECKERS in (position.mover[OFF], position.opponent[OFF]):
        raise RulesError("the game is over: a side has borne off all its checkers")
    if "dice" not in request:
        raise KeyError("dice")
    ranked = (found or engine()).best(position, parse_dice(request["dice"]), plies)
    return {
        "position_id": ranked.play.position.position_id(),
        "play": str(ranked.play),
        "equity": round(ranked.equity, DECIMALS),
    }


def eval_json(request: Any, plies: int, found: Engine | None = None) -> dict[str, Any]:
    """The answer of ``eval`` for one request."""
    probabilities = (found or engine()).evaluate(_position(request), plies)
    return {
        "win": round(probabilities.win, DECIMALS),
        "win_mars": round(probabilities.win_mars, DECIMALS),
        "lose_mars": round(probabilities.lose_mars, DECIMALS),
        "equity": round(probabilities.equity, DECIMALS),
    }


def cube_json(request: Any, plies: int, found: Engine | None = None) -> dict[str, Any]:
    """The answer of ``cube`` for one request."""
    position = _position(request)
    if CHECKERS in (position.mover[OFF], position.opponent[OFF]):
        raise RulesError("the game is over: a side has borne off all its checkers")
    state = _match_state(request)
    plies = request.get("plies", plies)
    if type(plies) is not int or plies not in PLIES:
        raise CubeError(f"plies is one of {list(PLIES)}, not {plies!r}")
    decision = judge(found or engine(), position, state, plies)
    return {
        "action": decision.action,
        "equities": _equities(decision),
        "no_offer": decision.refusal,
    }


def _equities(decision: CubeDecision) -> dict[str, float | None]:
    found: dict[str, float | None] = {}
    for name, mwc in (
        ("no_double", decision.no_double_mwc),
        ("double_take", decision.double_take_mwc),
        ("double_drop", decision.double_drop_mwc),
    ):
        found[name] = None if mwc is None else round(decision.emg(mwc), DECIMALS)
        found[f"{name}_mwc"] = None if mwc is None else round(mwc, DECIMALS)
    return found


#: What ``dave_owner`` may say, as ``games.engine.cube.MatchState`` names it.
DAVE_OWNERS: dict[str | None, Owner] = {
    None: "centered",
    "centered": "centered",
    "own": "own",
    "other": "other",
}


def _match_state(request: dict[str, Any]) -> MatchState:
    """The match of a ``cube`` request; ``CubeError`` says what is wrong with it."""

    def integer(name: str, value: Any) -> int:
        if type(value) is not int:
            raise CubeError(f"{name} is a whole number, not {value!r}")
        return value

    length = integer("match_length", request["match_length"])
    score = request["score"]
    if not isinstance(score, list) or len(score) != 2:
        raise CubeError(f"score is [own, other], not {score!r}")
    own, other = (integer("score", points) for points in score)
    crawford = request["crawford"]
    if type(crawford) is not bool:
        raise CubeError(f"crawford is true or false, not {crawford!r}")
    owner = request["dave_owner"]
    if not (owner is None or isinstance(owner, str)) or owner not in DAVE_OWNERS:
        raise CubeError(f"dave_owner is 'centered' (or null), 'own' or 'other', not {owner!r}")
    max_stake = request.get("max_stake")
    dave = DaveRules(
        progression=request.get("progression", "geometric"),
        max_stake=None if max_stake is None else integer("max_stake", max_stake),
    )
    return MatchState(
        length,
        (own, other),
        stake=integer("stake", request["stake"]),
        crawford=crawford,
        owner=DAVE_OWNERS[owner],
        dave=dave,
    )


def rollout_json(
    request: Any, plies: int, workers: int | None = None, found: Engine | None = None
) -> dict[str, Any]:
    """The answer of ``rollout`` for one request."""
    position = _position(request)
    games, seed = _whole(request, "games", 1), _whole(request, "seed", 0)
    depth = _whole(request, "plies", 0) if "plies" in request else plies
    dice = parse_dice(request["dice"]) if "dice" in request else None
    measured = rollout(
        position, games=games, seed=seed, plies=depth, dice=dice, workers=workers, found=found
    )
    return {
        "position_id": request["position_id"],
        **{
            name: round(float(getattr(measured, name)), DECIMALS)
            for name in ("win", "win_mars", "lose_mars", "equity", "stderr")
        },
        "games": measured.games,
    }


def _whole(request: dict[str, Any], name: str, least: int) -> int:
    value = request[name]
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise RulesError(f"{name} is a whole number, {least} or more, not {value!r}")
    return value


def _position(request: Any) -> Position:
    if not isinstance(request, dict):
        raise RulesError("each line is a JSON object with position_id")
    identifier = request["position_id"]
    if not isinstance(identifier, str):
        raise RulesError("position_id is a string")
    return Position.from_position_id(identifier, LongNardy())


def answer_lines(answer: Callable[[Any], dict[str, Any]], source: TextIO, out: TextIO) -> None:
    """Answer each JSON line of ``source`` on ``out`` as soon as it is read."""
    for line in source:
        if not line.strip():
            continue
        try:
            reply = answer(json.loads(line))
        # RecursionError: a line of JSON nested deeper than the parser goes.
        except (RulesError, KeyError, TypeError, ValueError, RecursionError) as error:
            message = f"missing field {error}" if isinstance(error, KeyError) else str(error)
            reply = {"error": message}
        out.write(json.dumps(reply) + "\n")
        out.flush()


def main(argv: Sequence[str] | None = None, source: TextIO | None = None,
         out: TextIO | None = None) -> int:  # fmt: skip
    """``python -m games.rules best|eval|cube|rollout --variant long [--plies 0|1|2]``."""
    parser = argparse.ArgumentParser(prog="python -m games.rules", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    for name, text, plies in (
        ("best", "the engine's best play of JSON lines {position_id, dice}", 1),
        ("eval", "the engine's probabilities of JSON lines {position_id}", 0),
        ("cube", "the dave decision of JSON lines {position_id, match_length, score, ...}", 1),
        ("rollout", "rollouts of JSON lines {position_id, games, seed, plies}", 0),
    ):
        command = commands.add_parser(name, help=text)
        command.add_argument(
            "--variant",
            choices=("long",),
            required=True,
            help="the engine knows Long Nardy (gnubg analyses Short Nardy)",
        )
        command.add_argument("--plies", type=int, choices=PLIES, default=plies)
        if name == "rollout":
            command.add_argument(
                "--workers", type=int, default=None, help="processes (default: every core)"
            )
    args = parser.parse_args(argv)
    if args.command == "rollout":
        answer_lines(
            lambda request: rollout_json(request, args.plies, args.workers),
            source or sys.stdin,
            out or sys.stdout,
        )
        return 0
    answer = {"best": best_json, "eval": eval_json, "cube": cube_json}[args.command]
    answer_lines(
        lambda request: answer(request, args.plies), source or sys.stdin, out or sys.stdout
    )
    return 0
