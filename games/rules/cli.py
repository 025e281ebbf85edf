"""The command line: ``python -m games.rules plays ...``.

``plays`` lists the legal plays of a position and a roll. Given ``--position`` it answers once,
for a person (or with ``--json``); without it, it reads JSON lines
``{"position_id": ..., "dice": [d1, d2]}`` from standard input and writes one JSON line per input
line, in order, an ``{"error": ...}`` line for a bad one.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from games.rules.errors import RulesError
from games.rules.moves import legal_plays
from games.rules.notation import parse_dice
from games.rules.position import Position
from games.rules.variants import LongNardy, ShortNardy, Variant


def _variant(args: argparse.Namespace) -> Variant:
    if args.variant == "long":
        return LongNardy(block_check=args.block_check)
    return ShortNardy()


def plays_json(variant: Variant, position_id: str, dice: Any) -> dict[str, Any]:
    """The answer for one position and roll; the empty play is left out (``[]`` = no play)."""
    position = Position.from_position_id(position_id, variant)
    return {
        "plays": [
            {"play": str(legal.play), "position_id": legal.position.position_id()}
            for legal in legal_plays(position, parse_dice(dice))
            if legal.play
        ]
    }


def _batch(variant: Variant, source: TextIO, out: TextIO) -> None:
    for line in source:
        if not line.strip():
            continue
        try:
            request = json.loads(line)
            if not isinstance(request, dict):
                raise RulesError("each line is a JSON object with position_id and dice")
            answer = plays_json(variant, request["position_id"], request["dice"])
        except (RulesError, KeyError, TypeError, ValueError) as error:
            message = f"missing field {error}" if isinstance(error, KeyError) else str(error)
            answer = {"error": message}
        out.write(json.dumps(answer) + "\n")
        out.flush()


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    out = out or sys.stdout
    parser = argparse.ArgumentParser(prog="python -m games.rules", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    plays = commands.add_parser("plays", help="list the legal plays of a position and a roll")
    plays.add_argument("--variant", choices=("long", "short"), required=True)
    plays.add_argument("--position", metavar="ID", help="gnubg Position ID, the mover on roll")
    plays.add_argument("--dice", nargs=2, type=int, metavar=("D1", "D2"))
    plays.add_argument("--json", action="store_true", help="print JSON instead of text")
    plays.add_argument(
        "--block-check", choices=("step", "turn"), default="step", help="Long Nardy six-block mode"
    )
    args = parser.parse_args(argv)
    variant = _variant(args)
    if args.position is None:
        _batch(variant, sys.stdin, out)
        return 0
    if args.dice is None:
        parser.error("--dice D1 D2 is required with --position")
    try:
        answer = plays_json(variant, args.position, args.dice)
    except RulesError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.json:
        out.write(json.dumps(answer) + "\n")
    elif not answer["plays"]:
        out.write("no legal play: the turn passes\n")
    else:
        width = max(len(entry["play"]) for entry in answer["plays"])
        for entry in answer["plays"]:
            out.write(f"{entry['play']:<{width}}  {entry['position_id']}\n")
    return 0
