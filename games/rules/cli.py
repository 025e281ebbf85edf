"""The command line: ``python -m games.rules plays|check|best|eval|cube|rollout ...``.

``plays`` lists the legal plays of a position and a roll. Given ``--position`` it answers once,
for a person (or with ``--json``); without it, it reads JSON lines
``{"position_id": ..., "dice": [d1, d2]}`` from standard input and writes one JSON line per input
line, in order, an ``{"error": ...}`` line for a bad one.

``check FILE... [--json]`` replays .mat match files: exit 0 when every file is valid, 1 when one
is not, 2 when a file cannot be read or parsed at all. Text mode prints one line per invalid file,
``FILE: game G, move N, player P: '<play>': <reason>``, and warnings on standard error.

``best``, ``eval``, ``cube`` (the dave decision) and ``rollout --variant long``, the Long Nardy
engine's, are answered by
``games.engine.cli`` (``games/rules/__main__.py`` hands them over: the rules stay pure).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from games.rules.errors import RulesError
from games.rules.matfile import MatchFormatError, RecordError, check_match, read_match
from games.rules.moves import legal_plays
from games.rules.notation import parse_dice
from games.rules.position import Position
from games.rules.variants import LongNardy, ShortNardy, Variant


def _variant(args: argparse.Namespace) -> Variant:
    if args.variant == "long":
        return LongNardy(block_check=args.block_check)
    return ShortNardy(no_hit_and_hide=args.no_hit_and_hide)


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
        # RecursionError: a line of JSON nested deeper than the parser goes.
        except (RulesError, KeyError, TypeError, ValueError, RecursionError) as error:
            message = f"missing field {error}" if isinstance(error, KeyError) else str(error)
            answer = {"error": message}
        out.write(json.dumps(answer) + "\n")
        out.flush()


def check_file(path: str) -> tuple[int, dict[str, Any]]:
    """The exit status (0 valid, 1 invalid, 2 unreadable) and the JSON report of one file."""
    report: dict[str, Any] = {"file": path, "valid": False, "games": [], "warnings": []}
    try:
        with open(path, encoding="utf-8", errors="replace") as source:
            text = source.read()
        record = read_match(text)
    except (OSError, MatchFormatError) as error:
        reason = error.strerror or str(error) if isinstance(error, OSError) else str(error)
        report["error"] = {"game": 0, "move": 0, "player": None, "play": "", "reason": reason}
        return 2, report
    except RecordError as error:
        report["error"] = error.to_json()
        return 1, report
    result = check_match(record)
    report["valid"] = result.valid
    report["games"] = [game.to_json() for game in result.games]
    report["warnings"] = list(result.warnings)
    report["error"] = result.error.to_json() if result.error else None
    return (0 if result.valid else 1), report


def _check(paths: Sequence[str], as_json: bool, out: TextIO) -> int:
    status = 0
    reports = []
    for path in paths:
        code, report = check_file(path)
        status = max(status, code)
        reports.append(report)
        if as_json:
            continue
        for warning in report["warnings"]:
            print(f"{path}: warning: {warning}", file=sys.stderr)
        error = report["error"]
        if code == 1:
            out.write(
                f"{path}: game {error['game']}, move {error['move']}, player {error['player']}: "
                f"{error['play']!r}: {error['reason']}\n"
            )
        elif code == 2:
            out.write(f"{path}: cannot read: {error['reason']}\n")
    if as_json:
        out.write(json.dumps(reports) + "\n")
    return status


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
    plays.add_argument(
        "--no-hit-and-hide", action="store_true", help="Short Nardy house rule no-hit-and-hide"
    )
    check = commands.add_parser("check", help="check .mat match files against the rules")
    check.add_argument("files", nargs="+", metavar="FILE")
    check.add_argument("--json", action="store_true", help="print one JSON list, one object a file")
    args = parser.parse_args(argv)
    if args.command == "check":
        return _check(args.files, args.json, out)
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
