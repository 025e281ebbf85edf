"""Bad .mat input gives a clean error, never a crash or a hang.

Real match files of ../shared/corpora/bglab are mutated byte by byte and line by line (bit flips,
inserted and deleted bytes, duplicated, deleted and swapped lines, truncation, huge numbers, very
long lines, NUL bytes, invalid UTF-8, CR and CRLF line ends, digits of other scripts), and
hypothesis writes texts from the pieces of the .mat grammar mixed with junk. Each text goes to
``read_match``, ``check_match``, ``games.services.games_from_mat`` and, when it is a legal record,
through ``write_match`` and back. Only the documented errors may come out (``RulesError`` of the
engine; ``IllegalRecordError`` and ``MatchFormatError`` of ``games_from_mat``), and every call
must answer within ``CALL_SECONDS``. ``python -m games.rules check`` on mutated files exits 0, 1
or 2 with no traceback.

The mutations are drawn from ``FUZZ_SEED`` (printed with every failure, with the recipe of the
text), so a failure reproduces: ``FUZZ_SEED=... pytest tests/fuzz``.
"""

from __future__ import annotations

import json
import os
import random
import re
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import LongNardy, RulesError, ShortNardy, Variant
from games.rules.matfile import (
    MatchFormatError,
    MatchRecord,
    _score_line,
    check_match,
    read_match,
    replay_record,
    write_match,
)
from games.services import IllegalRecordError, games_from_mat
from tests.support.corpus import corpus_or_skip, match_files
from tests.support.fuzzing import deadline, shown

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SEED = int(os.environ.get("FUZZ_SEED", "20250611"))
#: No single call may take longer (the slowest real file takes some 0.05 s for all three).
#: How many mutated texts of the corpus; each is read, checked and validated.
MUTANTS = int(os.environ.get("FUZZ_MUTANTS", "500"))
MAT_ERRORS = (IllegalRecordError, MatchFormatError)


# --- The guard: clean errors only, and in time ----------------------------------------------


def clean_call(
    function: Callable[..., Any], *args: Any, allowed: tuple[type[BaseException], ...], recipe: str
) -> Any:
    """``function(*args)``'s value, or the allowed error it raised; anything else (another
    exception, no answer in time) fails the test, naming the seed, the recipe and the input."""
    started = time.perf_counter()
    try:
        with deadline():
            return function(*args)
    except allowed as error:
        return error
    except Exception as error:  # noqa: BLE001 - every other exception is the finding
        elapsed = time.perf_counter() - started
        pytest.fail(
            f"{function.__name__} raised {type(error).__name__} after {elapsed:.2f} s "
            f"(FUZZ_SEED={SEED}; {recipe}):\n{traceback.format_exc()}\ninput: {shown(args)}",
            pytrace=False,
        )


def replayed(record: MatchRecord) -> list[tuple[Any, ...]]:
    """What a record means (the written form marks every hit, a dialect may not): who rolled
    first, every position and the outcome of each game."""
    return [
        (game.first, replay.positions, replay.outcome)
        for game, replay in zip(record.games, replay_record(record), strict=True)
    ]


def games_from_mat_under(text: str, variant: Variant, length: int | None, crawford: bool) -> Any:
    return games_from_mat(text, variant=variant, length=length, crawford=crawford)


def exercise(text: str, recipe: str) -> str:
    """Every reader of a .mat text on ``text``; the outcome as a short word for the tally."""
    record = clean_call(read_match, text, allowed=(RulesError,), recipe=recipe)
    variant: Variant = ShortNardy()
    length, crawford = 7, True
    if isinstance(record, MatchRecord):
        variant, length, crawford = record.variant, record.length, record.crawford
        check = clean_call(check_match, record, allowed=(RulesError,), recipe=recipe)
        if not isinstance(check, Exception) and check.valid and record.games:
            written = clean_call(write_match, record, allowed=(), recipe=recipe)
            again = clean_call(read_match, written, allowed=(), recipe=f"{recipe}, written back")
            assert replayed(again) == replayed(record), (
                f"FUZZ_SEED={SEED}; {recipe}: write_match and read_match disagree"
            )
    validated = clean_call(
        games_from_mat_under, text, variant, length, crawford, allowed=MAT_ERRORS, recipe=recipe
    )
    if isinstance(validated, Exception):
        return type(validated).__name__
    return "valid" if isinstance(record, MatchRecord) else "valid?"


# --- The corpus --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def corpus() -> list[Path]:
    return match_files(corpus_or_skip())


# --- Mutations of a file's bytes ---------------------------------------------------------------

Mutation = Callable[[random.Random, bytes, list[bytes]], tuple[bytes, str]]

LONG = 100_000
#: Lines that were slow to read before the readers were fixed, and more of their kind.
LONG_LINES = [
    b"; [" + b" " * LONG + b"x",  # a header never closed: cubic before
    b"; [" + b" " * LONG + b'"',
    b" " * LONG + b"a",  # a score line of spaces: cubic before
    b":1 " * (LONG // 3) + b"a",
    b"a : 1 " * (LONG // 6) + b"a",
    b"  1) " + b"64: " * (LONG // 4),
    b"  1) 31: " + b"8/5 " * (LONG // 4),
    b"1) " * (LONG // 3),
    b"9" * LONG + b" point match",
    b" Game " + b"9" * LONG,
    b"x" * LONG,
]
HUGE_NUMBERS = [b"99999999999", b"9" * 5000, b"0" * 400 + b"7", b"18446744073709551617"]
#: Digits of other scripts: Arabic-Indic, Devanagari, fullwidth (all read by int()), and
#: superscript and circled ones (digits to str.isdigit, not to int()).
OTHER_DIGITS = ["٠١٢٣٤٥٦٧٨٩", "०१२३४५६७८९", "０１２３４５６７８９", "⁰¹²³⁴⁵⁶⁷⁸⁹", "⓪①②③④⑤⑥⑦⑧⑨"]
BAD_UTF8 = [b"\xff", b"\xc3(", b"\xe2\x82", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80\x80"]
HEADERS = [
    b'; [CubeLimit "\xc2\xb2"]',  # a superscript two
    b'; [CubeLimit "' + b"9" * 5000 + b'"]',
    b'; [CubeLimit "-1"]',
    b'; [Variation "Long Nardy"]',
    b'; [Variation "Hypergammon"]',
    b'; [Dave "maybe"]',
    b'; [Koks "On"]',
    b'; [DaveProgression "Arithmetic"]',
    b'; [BlockCheck "Turn"]',
    b'; [Player 1 "<script>alert(1)</script>"]',
    b'; [Crawford "Off"]',
]


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def bit_flip(rng: random.Random, data: bytes, _: list[bytes]) -> tuple[bytes, str]:
    buffer = bytearray(data)
    flips = [(rng.randrange(len(buffer)), rng.randrange(8)) for _ in range(rng.randint(1, 8))]
    for at, bit in flips:
        buffer[at] ^= 1 << bit
    return bytes(buffer), f"bits flipped at {flips}"


def byte_insert(rng: random.Random, data: bytes, _: list[bytes]) -> tuple[bytes, str]:
    at = rng.randrange(len(data) + 1)
    junk = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))
    return data[:at] + junk + data[at:], f"{junk!r} inserted at {at}"


def byte_delete(rng: random.Random, data: bytes, _: list[bytes]) -> tuple[bytes, str]:
    at = rng.randrange(len(data))
    size = rng.randint(1, 16)
    return data[:at] + data[at + size :], f"{size} bytes deleted at {at}"


def line_duplicate(rng: random.Random, data: bytes, _: list[bytes]) -> tuple[bytes, str]:
    lines = _lines(data)
    at = rng.randrange(len(lines))
    times = rng.choice([1, 2, 50])
    lines[at:at] = [lines[at]] * times
    return b"\n".join(lines), f"line {at + 1} repeated {times} more times"


def line_delete(rng: random.Random, data: bytes, _: list[bytes]) -> tuple[bytes, str]:
    lines = _lines(data)
    at = rng.randrange(len(lines))
    del lines[at]
    return b"\n".join(lines), f"line {at + 1} deleted"


def line_swap(rng: random.Random, data: bytes, _: list[bytes]) -> tuple[bytes, str]:
    lines = _lines(data)
    a, b = rng.randrange(len(lines)), rng.randrange(len(lines))
    lines[a], lines[b] = lines[b], lines[a]
    return b"\n".join(lines), f"lines {a + 1} and {b + 1} swapped"


def truncate(rng: random.Random, data: bytes, _: list[bytes]) -> tuple[bytes, str]:
    at = rng.randrange(len(data))
    return data[:at], f"cut after {at} bytes"


def huge_number(rng: random.Random, data: bytes, _: list[bytes]) -> tuple[bytes, str]:
    number = rng.choice(HUGE_NUMBERS)
    if rng.random() < 0.3:
        # The match length: "7 point match" -> "99999999999 point match".
        lines = [
            number + b" point match" if line.strip().endswith(b"point match") else line
            for line in _lines(data)
        ]
        return b"\n".join(lines), f"match length {number[:20]!r}… ({len(number)} digits)"
    digits = [i for i, byte in enumerate(data) if 48 <= byte <= 57] or [0]
    at = rng.choice(digits)
    return data[:at] + number + data[at + 1 :], f"digit at {at} made {len(number)} digits long"


def long_line(rng: random.Random, data: bytes, _: list[bytes]) -> tuple[bytes, str]:
    lines = _lines(data)
    kind = rng.randrange(len(LONG_LINES))
    # Where each reader looks: the header, the score line after a "Game" line, or anywhere.
    games = [i + 1 for i, line in enumerate(lines) if line.strip().startswith(b"Game")]
    at = rng.choice([rng.randrange(min(len(lines), 5) + 1), rng.choice(games or [0])])
    if rng.random() < 0.3:
        at = rng.randrange(len(lines) + 1)
    lines.insert(at, LONG_LINES[kind])
    return b"\n".join(lines), f"long line #{kind} inserted before line {at + 1}"


def nul_bytes(rng: random.Random, data: bytes, _: list[bytes]) -> tuple[bytes, str]:
    at = rng.randrange(len(data) + 1)
    size = rng.choice([1, 3, 1000])
    return data[:at] + b"\x00" * size + data[at:], f"{size} NUL bytes at {at}"


def invalid_utf8(rng: random.Random, data: bytes, _: list[bytes]) -> tuple[bytes, str]:
    buffer = data
    places = []
    for _ in range(rng.randint(1, 5)):
        at, junk = rng.randrange(len(buffer) + 1), rng.choice(BAD_UTF8)
        buffer = buffer[:at] + junk + buffer[at:]
        places.append((at, junk))
    return buffer, f"invalid UTF-8 {places}"


def line_ends(rng: random.Random, data: bytes, _: list[bytes]) -> tuple[bytes, str]:
    end = rng.choice([b"\r\n", b"\r", b"\n\r", b"\x0b", b"\x85", "\u2028".encode()])
    if rng.random() < 0.5:
        return data.replace(b"\n", end), f"every line end made {end!r}"
    lines = _lines(data)
    chosen = sorted(rng.sample(range(len(lines)), min(5, len(lines))))
    out = b"".join(line + (end if i in chosen else b"\n") for i, line in enumerate(lines))
    return out, f"line ends {chosen} made {end!r}"


def unicode_digits(rng: random.Random, data: bytes, _: list[bytes]) -> tuple[bytes, str]:
    digits = rng.choice(OTHER_DIGITS)
    table = str.maketrans("0123456789", digits)
    lines = data.decode("utf-8", errors="replace").split("\n")
    chosen = rng.sample(range(len(lines)), min(rng.choice([1, 3, len(lines)]), len(lines)))
    for at in chosen:
        lines[at] = lines[at].translate(table)
    return "\n".join(lines).encode(), f"digits of lines {sorted(chosen)[:10]} made {digits}"


def splice(rng: random.Random, data: bytes, others: list[bytes]) -> tuple[bytes, str]:
    lines = _lines(data)
    other = _lines(rng.choice(others))
    at, start = rng.randrange(len(lines)), rng.randrange(len(other))
    size = rng.randint(1, 10)
    lines[at : at + size] = other[start : start + size]
    return b"\n".join(lines), f"lines {at + 1}.. replaced by lines {start + 1}.. of another file"


def header(rng: random.Random, data: bytes, _: list[bytes]) -> tuple[bytes, str]:
    line = rng.choice(HEADERS)
    return line + b"\n" + data, f"header {line[:40]!r} added"


MUTATIONS: dict[str, Mutation] = {
    "bit flip": bit_flip,
    "byte insert": byte_insert,
    "byte delete": byte_delete,
    "line duplicated": line_duplicate,
    "line deleted": line_delete,
    "lines swapped": line_swap,
    "truncated": truncate,
    "huge number": huge_number,
    "very long line": long_line,
    "NUL bytes": nul_bytes,
    "invalid UTF-8": invalid_utf8,
    "CR/CRLF line ends": line_ends,
    "unicode digits": unicode_digits,
    "lines of another file": splice,
    "odd header": header,
}


def mutants(corpus: list[Path], count: int, seed: int) -> Iterator[tuple[str, str, bytes]]:
    """``count`` (kind, recipe, bytes): each kind in turn, on files drawn by ``seed``; now and
    then a mutant is mutated again."""
    rng = random.Random(seed)
    files = rng.sample(corpus, min(len(corpus), 60))
    contents = [path.read_bytes() for path in files]
    kinds = list(MUTATIONS)
    for index in range(count):
        kind = kinds[index % len(kinds)]
        number = rng.randrange(len(files))
        data, recipe = MUTATIONS[kind](rng, contents[number], contents)
        recipe = f"mutant {index}: {files[number].name}, {recipe}"
        if rng.random() < 0.15:
            again = rng.choice(kinds)
            data, more = MUTATIONS[again](rng, data or b"\n", contents)
            kind, recipe = f"{kind} + {again}", f"{recipe}, then {more}"
        yield kind, recipe, data


# --- The tests ---------------------------------------------------------------------------------


def test_mutated_corpus_files_give_clean_errors_in_time(corpus):
    tally: dict[str, dict[str, int]] = {}
    started = time.perf_counter()
    for kind, recipe, data in mutants(corpus, MUTANTS, SEED):
        outcome = exercise(data.decode("utf-8", errors="replace"), recipe)
        counts = tally.setdefault(kind.split(" + ")[0], {})
        counts[outcome] = counts.get(outcome, 0) + 1
    elapsed = time.perf_counter() - started
    # The tally is printed (pytest -s, or -rA) for the report of what was tried.
    print(f"\n{MUTANTS} mutants, FUZZ_SEED={SEED}, {elapsed:.1f} s")
    for kind, counts in sorted(tally.items()):
        print(f"  {kind:24} {dict(sorted(counts.items()))}")
    assert set(tally) == set(MUTATIONS)


# The grammar of a .mat file, piece by piece, and junk between the pieces.
_digits = st.text(st.sampled_from("0123456789"), min_size=1, max_size=3) | st.sampled_from(
    ["0", "1", "7", "99999999999", "٣", "²", "①", "9" * 4400]
)
_name = st.text(max_size=12) | st.sampled_from(["Anna", "Борис", "a : 1  b", "<b>", ""])
_point = st.sampled_from(["bar", "off", "25", "0", "24", "13", "6", "1", "26", "99", "٢٤", "x"])
_step = st.tuples(st.just("/"), _point, st.sampled_from(["", "*"])).map("".join)
_move = st.tuples(_point, st.lists(_step, min_size=1, max_size=3).map("".join)).map("".join)
_repeat = st.sampled_from(["", "(2)", "(4)", "(5)", "(0)", "(x"])
_play = st.lists(
    (_move | st.text(max_size=5)).flatmap(lambda m: _repeat.map(m.__add__)), max_size=5
)
_dice = st.text(st.sampled_from("0123456789²٣"), min_size=2, max_size=2)
_entry = st.one_of(
    st.tuples(_dice, st.just(": "), _play.map(" ".join)).map("".join),
    st.sampled_from(["????", "Cannot Move", "Takes", "Drops", "Doubles => 2", "Doubles => 4"]),
    _digits.map(lambda n: f"Doubles => {n}"),
    st.tuples(
        st.sampled_from(["Wins", "Losses"]), _digits, st.sampled_from(["", " and the match"])
    ).map(lambda t: f"{t[0]} {t[1]} points{t[2]}"),
    st.text(max_size=20),
)
_numbered = st.tuples(_digits, _entry, _entry, st.integers(0, 40)).map(
    lambda t: f"{t[0]:>3}) {t[1]:<{t[3]}} {t[2]}"
)
_header = st.tuples(
    st.sampled_from(
        [
            "Player 1",
            "Player 2",
            "Variation",
            "CubeLimit",
            "Crawford",
            "Dave",
            "Koks",
            "DaveProgression",
            "BlockCheck",
            "NoHitAndHide",
            "FederationDraw",
            "Event",
            " x ",
        ]
    ),
    st.sampled_from(
        [
            "Long Nardy",
            "Short Nardy",
            "Backgammon",
            "On",
            "Off",
            "1024",
            "²",
            "Geometric",
            "Arithmetic",
            "Step",
            "Turn",
            "",
            "maybe",
        ]
    )
    | st.text(max_size=10),
).map(lambda kv: f'; [{kv[0]} "{kv[1]}"]')
_score = st.tuples(_name, _digits, st.integers(1, 40), _name, _digits).map(
    lambda t: f" {t[0]} : {t[1]}{' ' * t[2]}{t[3]} : {t[4]}"
)
_line = st.one_of(
    _header,
    _digits.map(lambda n: f" {n} point match"),
    _digits.map(lambda n: f" Game {n}"),
    _score,
    _numbered,
    _entry.map(lambda e: f"     {e}"),
    st.text(max_size=30),
    st.just(""),
)


@st.composite
def mat_texts(draw: st.DrawFn) -> str:
    """Headers, a length line, games (a Game line, a score line, numbered lines), all pieces
    optional and junk anywhere; lines end in LF, CRLF or CR."""
    lines = draw(st.lists(_header | st.text(max_size=20), max_size=6))
    if draw(st.booleans()):
        lines.append(draw(_digits.map(lambda n: f" {n} point match")))
    for _ in range(draw(st.integers(0, 3))):
        lines.append(draw(_digits.map(lambda n: f" Game {n}") | st.just(" Game 1")))
        lines.append(draw(_score | _line))
        lines += draw(st.lists(_numbered | _line, max_size=12))
    return draw(st.sampled_from(["\n", "\r\n", "\r"])).join(lines)


@settings(
    max_examples=400,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(text=mat_texts())
def test_texts_made_of_mat_pieces_and_junk_give_clean_errors_in_time(text):
    exercise(text, recipe="hypothesis (the falsifying example is printed below)")


# --- Regressions: the exact inputs that crashed or hung before the fixes ------------------------

REGRESSIONS = {
    # A header line never closed: ";\s*\[\s*key\s*" backtracked cubically (10,000 spaces: 6 min).
    "long unclosed header": "; [" + " " * 100_000 + "x\n 1 point match\n Game 1\n",
    "long header with a quote": "; [" + " " * 100_000 + '"\n 1 point match\n Game 1\n',
    # A long line where the score line goes: the two lazy names of the score pattern.
    "long blank score line": "1 point match\n Game 1\n" + " " * 100_000 + "a\n",
    "long score line of colons": "1 point match\n Game 1\n" + ":1 " * 30_000 + "a\n",
    "long score line of scores": "1 point match\n Game 1\n" + "a : 1 " * 20_000 + "a\n",
    # Numbers of more than 4,300 digits: int() raised ValueError.
    "5000-digit match length": "9" * 5000 + " point match\n Game 1\n",
    "5000-digit score": "1 point match\n Game 1\n a : " + "9" * 5000 + "  b : 0\n",
    "5000-digit points": (
        "1 point match\n Game 1\n a : 0                              b : 0\n"
        "  1) 31: 8/5 6/5   Wins " + "9" * 5000 + " points\n"
    ),
    "5000-digit move number": (
        "1 point match\n Game 1\n a : 0                              b : 0\n "
        + "9" * 5000
        + ") 31: 8/5 6/5\n"
    ),
    "5000-digit stake": (
        "1 point match\n Game 1\n a : 0                              b : 0\n"
        "  1) 31: 8/5 6/5    Doubles => " + "9" * 5000 + "\n"
    ),
    "5000-digit CubeLimit": '; [CubeLimit "' + "9" * 5000 + '"]\n 1 point match\n Game 1\n',
    # "²" is a digit to str.isdigit, not to int().
    "superscript CubeLimit": '; [CubeLimit "²"]\n 1 point match\n Game 1\n a : 0    b : 0\n',
}


@pytest.mark.parametrize("text", REGRESSIONS.values(), ids=REGRESSIONS.keys())
def test_regression_inputs_give_a_clean_error_quickly(text):
    started = time.perf_counter()
    outcome = exercise(text, recipe="regression")
    assert time.perf_counter() - started < 1.0
    assert outcome in ("MatchFormatError", "IllegalRecordError", "valid")


def test_huge_numbers_are_named_in_the_error():
    with pytest.raises(MatchFormatError, match="line 1: the match length has too many digits"):
        read_match(REGRESSIONS["5000-digit match length"])
    with pytest.raises(MatchFormatError, match="CubeLimit is a number, not '²'"):
        read_match(REGRESSIONS["superscript CubeLimit"])
    record = read_match("99999999999 point match\n Game 1\n a : 0     b : 0\n")
    assert record.length == 99_999_999_999


def test_the_score_line_reader_reads_what_the_pattern_read():
    """The score line is now split by hand: the same names, scores and right column as the one
    regular expression it replaces, on the layouts of the corpus and on odd ones."""
    pattern = re.compile(
        r"\s*(?P<name1>.*?)\s*:\s*(?P<score1>\d+)\s+(?P<name2>.*?)\s*:\s*(?P<score2>\d+)\s*"
    )
    lines = [
        " BoardLord : 0                          Llabba : 0",
        " Board Lord : 0                         : 0",
        " : 0  : 0",
        "a:1 b:2",
        "a : 1  b",
        " a:b : 3   c:d : 4 ",
        " x: 3 y : 0   b : 0",
        "a : 1 : 2 : 3",
        " ::: 1 :2",
        "a : 1\tb : 2\t",
        " Ашот : 12     Bob Lee : 7",
        "name : ٣   other : ٤",
        "no colon",
        ": 1",
        "a : 1b : 2",
    ]
    for line in lines:
        found = pattern.fullmatch(line)
        ours = _score_line(line)
        if found is None:
            assert ours is None, line
            continue
        right = found.start("name2") if found["name2"] else found.end("score1") + 1
        expected = (
            (found["name1"], found["name2"]),
            (found["score1"], found["score2"]),
            right,
        )
        assert ours == expected, line


# --- The check command -------------------------------------------------------------------------


def test_the_check_command_on_mutated_files_exits_0_1_or_2_without_a_traceback(corpus, tmp_path):
    files = []
    for kind, recipe, data in mutants(corpus, 30, SEED + 1):
        path = tmp_path / f"{len(files):02d}.mat"
        path.write_bytes(data)
        files.append((path, f"{kind}: {recipe}"))
    raw = tmp_path / "raw-bytes.mat"  # the command decodes with errors="replace" itself
    raw.write_bytes(b"\xff\xfe\x00 7 point match\r\n Game 1\r\n \x80 : 0   b : 0\r\n")
    files.append((raw, "raw invalid UTF-8"))
    files.append((tmp_path / "missing.mat", "a file that does not exist"))
    files.append((tmp_path, "a directory"))
    environment = {**os.environ, "LC_ALL": "C", "PYTHONIOENCODING": ""}
    command = [sys.executable, "-m", "games.rules", "check"]
    paths = [str(path) for path, _ in files]
    for extra in ([], ["--json"]):
        done = subprocess.run(
            [*command, *paths, *extra],
            capture_output=True,
            text=True,
            errors="replace",
            cwd=PROJECT_ROOT,
            env=environment,
            timeout=60,
            check=False,
        )
        assert done.returncode in (0, 1, 2), done.stderr[-3000:]
        assert "Traceback" not in done.stderr, done.stderr[-3000:]
        if extra:
            reports = json.loads(done.stdout)
            assert [report["file"] for report in reports] == paths
        else:
            assert done.returncode == 2  # the missing file and the directory
    # One file at a time for a few, so each exit status is its own.
    for path, recipe in files[:3] + files[-3:]:
        done = subprocess.run(
            [*command, str(path)],
            capture_output=True,
            text=True,
            errors="replace",
            cwd=PROJECT_ROOT,
            env=environment,
            timeout=30,
            check=False,
        )
        assert done.returncode in (0, 1, 2), f"{recipe}: {done.stderr[-2000:]}"
        assert "Traceback" not in done.stderr, f"{recipe}: {done.stderr[-2000:]}"


def test_a_long_nardy_file_under_short_nardy_rules_is_a_format_error(corpus):
    text = corpus[0].read_text(encoding="utf-8").replace("Backgammon", "Long Nardy")
    with pytest.raises(MatchFormatError, match="the file is a Long Nardy match"):
        games_from_mat(text, variant=ShortNardy(), length=7, crawford=True)
    assert isinstance(read_match(text).variant, LongNardy)
