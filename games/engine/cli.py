"""The engine's answers to JSON lines, for ``python -m games.rules best`` and ``... eval``.

``best`` reads ``{"position_id": ..., "dice": [d1, d2]}`` (the side on roll to play) and answers
``{"position_id": <after the play, the opponent on roll>, "play": "24/18 13/9", "equity": ...}``;
``eval`` reads ``{"position_id": ...}`` and answers the probabilities of the side on roll and its
cubeless equity: ``{"win": ..., "win_mars": ..., "lose_mars": ..., "equity": ...}`` (a finished
game exactly: the side that has borne off all its checkers has won). Each line is
answered at once and flushed; a bad line gets ``{"error": ...}``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any, TextIO

from games.engine.search import Engine, engine
from games.rules.errors import RulesError
from games.rules.notation import parse_dice
from games.rules.position import CHECKERS, OFF, Position
from games.rules.variants import LongNardy

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
