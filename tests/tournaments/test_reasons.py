"""The reasons of the rules engine and the scoring in the language of the interface: every
template has a Russian translation with the values kept, English stays byte-identical, and every
reason the engine and the scoring give for random bad input is one the table knows."""

from __future__ import annotations

import dataclasses
import random
import re
from collections.abc import Callable, Iterator

import pytest
from django.utils import translation

from games.rules import (
    Colour,
    DaveRules,
    Double,
    IllegalPlayError,
    LongNardy,
    MatchGame,
    Move,
    NotationError,
    Play,
    Position,
    Resign,
    RulesError,
    ShortNardy,
    Take,
    Turn,
    action_from_json,
    check_play,
    legal_plays,
    replay_game,
    replay_match,
    variant_named,
)
from games.rules.game import Ending, Outcome
from games.rules.matfile import (
    MatchFormatError,
    RecordError,
    check_match,
    match_record,
    read_match,
    write_match,
)
from games.rules.moves import physical_play
from games.rules.notation import parse_dice
from games.rules.selfplay import random_match, random_turns
from games.services import IllegalRecordError, RecordedGame, games_from_mat, games_validate
from tournaments import reasons
from tournaments.errors import IllegalGameRecord
from tournaments.matches.results import match_result_record
from tournaments.reasons import catalogue, reason_in_language, reason_is_known
from tournaments.scoring import (
    MatchPoints,
    MatchRules,
    MatchScoreResult,
    PlayedGame,
    as_fraction,
    match_points,
    match_score,
    score_from_typed,
)

SHORT, LONG = ShortNardy(), LongNardy()
#: Words that stay Latin in the Russian interface (as in tests/e2e).
LATIN_ALLOWED = {"FIBS", "Elo", "CSV", "mat", "REST", "API", "GNU", "Backgammon", "Jellyfish"}
LATIN_WORD = re.compile(r"[A-Za-z]+")


# --- Producing the reasons for real --------------------------------------------------------


def refusal(make: Callable[[], object]) -> str:
    """The text of the error ``make`` raises: the reason of a rule, or the message."""
    try:
        make()
    except (IllegalPlayError, RecordError, MatchFormatError, IllegalRecordError) as error:
        return error.reason
    except (RulesError, ValueError) as error:
        return str(error)
    raise AssertionError("no error")


def game_reason(make: Callable[[], object]) -> str:
    """The reason of the ``GameError`` that ``make`` raises (without where it happened)."""
    try:
        make()
    except RulesError as error:
        return error.reason  # type: ignore[attr-defined]
    raise AssertionError("no error")


def game_error(make: Callable[[], object]) -> str:
    try:
        make()
    except RulesError as error:
        return str(error)
    raise AssertionError("no error")


def legal_turns(variant, seed: int = 3) -> list[Turn]:
    """The turns of a random legal game (long enough for the dave sequences below)."""
    for attempt in range(50):
        turns = [turn for _, turn in random_turns(variant, random.Random(seed + attempt))]
        if len(turns) > 10:
            return turns
    raise AssertionError("no long game")


def finished_games(variant, length: int) -> list[MatchGame]:
    return random_match(variant, length, random.Random(11))


def position(variant, mover: dict[int, int], opponent: dict[int, int]) -> Position:
    return Position.from_points(variant, mover, opponent)


def position_id(bits: int) -> str:
    import base64  # noqa: PLC0415

    return base64.b64encode(bits.to_bytes(10, "little")).decode("ascii")[:14]


def mat(body: str, headers: str = "") -> str:
    return f"{headers} 3 point match\n\n Game 1\n a : 0                          b : 0\n{body}"


def read(body: str, headers: str = "") -> Callable[[], object]:
    return lambda: read_match(mat(body, headers))


def record_error(body: str) -> str:
    """A RecordError in full: where in the file, the entry, the reason."""
    try:
        read_match(mat(body))
    except RecordError as error:
        return str(error)
    raise AssertionError("no error")


def match_over_error() -> str:
    games = finished_games(SHORT, 1) + finished_games(SHORT, 1)
    record = read_match(write_match(match_record(SHORT, ("a", "b"), games, length=None)))
    error = check_match(dataclasses.replace(record, length=1)).error
    assert error is not None
    return error.reason


def typed(rules: MatchRules, one: object, two: object) -> Callable[[], object]:
    return lambda: score_from_typed(rules, one, two)  # type: ignore[arg-type]


def scored(rules: MatchRules, *games: PlayedGame) -> Callable[[], object]:
    return lambda: match_score(rules, list(games))


won, drawn = PlayedGame.won, PlayedGame.drawn
TO_3 = MatchRules(variant="short", length=3)
DRAWS = MatchRules(variant="long", length=3, federation_draw=True)


def examples() -> Iterator[str]:
    """At least one reason for every template of the table, made by the code that gives it."""
    t = legal_turns(SHORT)
    initial = Position.initial(SHORT)
    # moves: check_play
    on_bar = position(SHORT, {25: 1, 13: 14}, {24: 15})
    yield refusal(lambda: check_play(on_bar, (3, 1), "13/10 13/12"))
    yield refusal(lambda: check_play(initial, (3, 1), "bar/22"))
    yield refusal(lambda: check_play(initial, (3, 1), "23/20 23/22"))
    yield refusal(lambda: check_play(initial, (5, 2), "24/19"))
    yield refusal(lambda: check_play(Position.initial(LONG), (6, 5), "24/18 24/19"))
    yield refusal(lambda: check_play(position(SHORT, {6: 13, 8: 2}, {24: 15}), (6, 5), "6/off"))
    yield refusal(lambda: check_play(position(SHORT, {6: 14, 8: 1}, {24: 15}), (6, 5), "6/off"))
    yield refusal(lambda: check_play(position(SHORT, {5: 2, 3: 13}, {24: 15}), (6, 1), "3/off"))
    hiding = ShortNardy(no_hit_and_hide=True)
    blot = position(hiding, {13: 1, 8: 1, 6: 13}, {15: 1, 24: 14})
    yield refusal(lambda: check_play(blot, (3, 2), "13/10*/8"))
    yield refusal(lambda: check_play(Position.initial(LONG), (6, 5), "24/18"))
    one_die = position(SHORT, {24: 1}, {12: 2, 3: 13})
    yield refusal(lambda: check_play(one_die, (6, 5), "24/19"))
    yield "the dice 3-1 cannot play nothing"  # check_play refuses the empty play for dice unused
    yield refusal(lambda: check_play(initial, (3, 1), "24/18"))
    yield refusal(lambda: check_play(initial, (3, 1), Play((Move(3, 5),))))
    block = position(LONG, {24: 9, 19: 1, 18: 1, 17: 1, 16: 1, 15: 1, 14: 1}, {24: 15})
    yield refusal(lambda: check_play(block, (6, 5), "19/13 24/19"))
    yield refusal(lambda: check_play(initial, (3, 1), "8/5* 6/5"))
    blots = position(SHORT, {13: 5, 8: 3, 6: 5, 24: 2}, {15: 1, 18: 1, 2: 13})
    yield refusal(lambda: check_play(blots, (3, 1), "13/10 8/7*"))
    # game: replay_game, replay_match, action_from_json
    yield game_reason(lambda: replay_game(SHORT, [t[0], Double(), t[1]]))
    yield game_reason(lambda: replay_game(SHORT, [Turn.of("33", "8/5(2) 6/3(2)")]))
    yield game_reason(lambda: replay_game(SHORT, [t[0], Double(), Double()]))
    no_dave = ShortNardy(dave=DaveRules(enabled=False))
    yield game_reason(lambda: replay_game(no_dave, [t[0], Double()]))
    yield game_reason(lambda: replay_game(SHORT, [t[0], Double()], crawford=True))
    yield game_reason(lambda: replay_game(SHORT, [Double()]))
    federation = LongNardy(federation_draw=True)
    last = position(federation, {1: 1}, {24: 15})
    last_turn = [Turn.of("21", "1/off"), Double()]
    yield game_reason(lambda: replay_game(federation, last_turn, start=last))
    white_refused = [t[0], Double(), Take(), t[1], Double(), Take(), t[2], t[3], Double()]
    yield game_reason(lambda: replay_game(SHORT, white_refused))
    yield game_reason(lambda: replay_game(SHORT, [t[0], Double(), Take(), t[1], t[2], Double()]))
    capped = ShortNardy(dave=DaveRules(max_stake=2))
    yield game_reason(lambda: replay_game(capped, [t[0], Double(), Take(), t[1], Double()]))
    yield game_reason(lambda: replay_game(SHORT, [t[0], Take()]))
    yield game_reason(lambda: replay_game(SHORT, [t[0], Resign(Colour.WHITE, 3)]))
    yield game_reason(lambda: replay_game(SHORT, [t[0], Resign(Colour.WHITE, 1), t[1]]))
    two_games = finished_games(SHORT, 1) + finished_games(SHORT, 1)
    yield game_reason(lambda: replay_match(SHORT, two_games, length=1))
    yield refusal(lambda: action_from_json(5))
    yield refusal(lambda: action_from_json({"dice": 5}))
    yield refusal(lambda: action_from_json({"resign": "red"}))
    yield refusal(lambda: action_from_json({"pass": True}))
    # matfile: read_match (MatchFormatError, RecordError), check_match
    yield refusal(lambda: read_match("hello"))
    yield refusal(lambda: read_match(" Game 1\n"))
    yield refusal(read("", '; [Crawford "maybe"]\n'))
    yield refusal(read("", '; [CubeLimit "many"]\n'))
    yield refusal(read("", '; [DaveProgression "fast"]\n'))
    yield refusal(read("", '; [Variation "Long Nardy"]\n; [BlockCheck "never"]\n'))
    yield refusal(read("", '; [Variation "Chess"]\n'))
    yield refusal(lambda: read_match(" 3 point match\n Game 1\n garbage\n"))
    yield refusal(read("  1) 31: 8/5 6/5   31: 8/5 6/5   31: 8/5 6/5\n"))
    yield refusal(read("  1) hello\n"))
    yield refusal(read("  1) 31: 8/5 6/5\n      Wins 1 point\n  2) 42: 8/4 6/4\n"))
    yield refusal(read("  1) 31: 8/5 6/5                Takes\n"))
    yield refusal(read("  1) 31: 8/5 6/5\n      Losses 1 point\n      Losses 1 point\n"))
    yield refusal(read("  1) Doubles\n"))
    yield refusal(read("  1) 31: 8/5 6/5\n      Losses 1 point\n  2)          42: 8/4 6/4\n"))
    yield refusal(read("  1) 31: 8/5 6/5                Doubles => 2\n  2) 42: 8/4 6/4\n"))
    yield refusal(read("  1) 31: 8/5 6/5\n  2) 42: 8/4 6/4\n"))
    yield refusal(read("  1) 71: 8/1\n"))
    yield refusal(read("  1) Doubles => 2\n"))
    yield refusal(read("  1) 31: 8/5 6/5                Doubles => 4\n"))
    yield refusal(read("  1) 31: ????\n"))
    yield match_over_error()
    # notation
    yield refusal(lambda: Play.parse(5))  # type: ignore[arg-type]
    yield refusal(lambda: Play.parse("8/x"))
    yield refusal(lambda: Play.parse("8/9"))
    yield refusal(lambda: Play.parse("8/5(5)"))
    yield refusal(lambda: Play.parse("8/5 8/5 8/5 8/5 8/5"))
    yield refusal(lambda: Play.parse("30/25"))
    yield refusal(lambda: parse_dice("7"))
    # position
    yield refusal(lambda: position(LONG, {30: 1}, {24: 15}))
    yield refusal(lambda: Position.from_position_id("abc", LONG))
    yield refusal(lambda: Position.from_position_id("!!!!!!!!!!!!!!", LONG))
    yield refusal(lambda: Position.from_position_id("//////////////", LONG))
    yield refusal(lambda: Position.from_position_id(position_id(0xFF | 0xFF << 9), LONG))
    yield refusal(lambda: Position.from_position_id(position_id(1 << 75), LONG))
    as_json = Position.initial(SHORT).to_json()
    yield refusal(lambda: Position.from_json(as_json, variant=LONG))
    yield refusal(lambda: Position.from_json({}))
    yield refusal(lambda: Position.from_json({**as_json, "white": [1, 2]}))
    yield refusal(lambda: Position.from_json({**as_json, "white": [-1] * 24}))
    yield refusal(lambda: Position(LONG, (0,) * 25, (0,) * 26))
    yield refusal(lambda: Position(LONG, (0,) * 26, (0,) * 26))
    yield refusal(lambda: position(LONG, {25: 1, 24: 14}, {24: 15}))
    yield refusal(lambda: position(SHORT, {6: 15}, {19: 15}))
    # variants
    yield refusal(lambda: DaveRules(progression="fast"))  # type: ignore[arg-type]
    yield refusal(lambda: DaveRules(max_stake=0))
    yield refusal(lambda: LongNardy(block_check="never"))  # type: ignore[arg-type]
    yield refusal(lambda: variant_named("chess"))
    # games.services
    no_white = [RecordedGame(3, ())]
    yield refusal(lambda: games_validate(variant=SHORT, games=no_white, length=1, crawford=True))
    recorded = [RecordedGame(game.white, game.actions) for game in two_games]
    yield refusal(lambda: games_validate(variant=SHORT, games=recorded, length=1, crawford=True))
    long_file = '; [Variation "Long Nardy"]\n\n3 point match\n\n Game 1\n a : 0    b : 0\n'
    yield refusal(lambda: games_from_mat(long_file, variant=SHORT, length=3, crawford=True))
    # scoring: as_fraction, MatchRules, match_score
    yield refusal(lambda: as_fraction("many"))
    yield refusal(lambda: MatchRules())
    yield refusal(lambda: MatchRules(length=0))
    yield refusal(lambda: MatchRules(games=0))
    yield refusal(lambda: MatchRules(length=3, draw_counts="all"))  # type: ignore[arg-type]
    yield refusal(scored(MatchRules(games=1), won(1), won(1)))
    yield refusal(scored(TO_3, won(1, value=2), won(1), won(2)))
    yield refusal(scored(TO_3, PlayedGame(3, won(1).outcome)))
    yield refusal(scored(TO_3, PlayedGame(1, Outcome(None, Ending.UNFINISHED, 0, 1))))
    yield refusal(scored(TO_3, PlayedGame(1, Outcome(None, Ending.BEAR_OFF, 1, 1))))
    yield refusal(scored(TO_3, drawn()))
    yield refusal(scored(TO_3, won(1, value=3)))
    yield refusal(scored(MatchRules(variant="short", length=3, koks=True), won(1, value=4)))
    yield refusal(scored(TO_3, won(1, value=2, ending=Ending.DROP)))
    yield refusal(scored(TO_3, won(1, stake=0)))
    yield refusal(scored(MatchRules(length=3, dave=False), won(1, stake=2)))
    yield refusal(scored(TO_3, won(1, value=2), won(1, stake=2)))
    yield refusal(scored(MatchRules(length=9, max_stake=2), won(1, stake=4)))
    yield refusal(scored(MatchRules(length=9), won(1, stake=3)))
    # _check_game: an arithmetic dave reaches every stake up to its cap, so this is never said
    yield "game 1 has stake 3, which the arithmetic dave skips"
    # scoring: score_from_typed
    yield refusal(typed(TO_3, -1, 3))
    yield refusal(typed(DRAWS, "1.3", 3))
    yield refusal(typed(TO_3, "2.5", 3))
    yield refusal(typed(DRAWS, "3.5", 1))
    yield refusal(typed(TO_3, 2, 1))
    yield refusal(typed(DRAWS, 3, 3))
    yield refusal(typed(TO_3, 4, 3))
    yield refusal(typed(MatchRules(length=3, federation_draw=True, max_stake=1), 8, 3))
    yield refusal(typed(MatchRules(length=3, dave=False), 6, 1))
    yield refusal(typed(MatchRules(games=4), 1, 1))
    yield refusal(typed(MatchRules(games=2, dave=False), 5, 0))
    yield refusal(typed(MatchRules(games=1), 1, 1))
    yield refusal(typed(MatchRules(games=1, federation_draw=True), 2, 1))
    yield refusal(typed(MatchRules(games=1, dave=False), 1, 1))
    yield refusal(typed(MatchRules(games=1, dave=False, federation_draw=True), 1, 1))
    yield refusal(lambda: MatchPoints(win=0, draw=1))
    unfinished = MatchScoreResult(as_fraction(1), as_fraction(0), None, 1, None, False)
    yield refusal(lambda: match_points(unfinished, MatchPoints()))
    # tournaments.matches.live.recording
    yield from recording_reasons()
    yield from accepted_move_reasons()
    # reasons that wrap a reason
    yield game_error(lambda: read_match(" 3 point match\n Game 1\n garbage\n"))
    yield record_error("  1) 31: 8/5 6/5                Takes\n")
    yield game_error(lambda: replay_match(SHORT, two_games, length=1))
    yield game_error(lambda: replay_game(SHORT, [Turn.of("31", "24/18")]))
    yield game_error(lambda: replay_game(SHORT, [t[0], Take()]))
    yield refusal(scored(MatchRules(length=1), won(1), won(1)))


def recording_reasons() -> Iterator[str]:
    from tournaments.matches.live.recording import First, Recording, Roll, entry_from_json  # noqa: PLC0415

    recording = Recording(MatchRules(variant="short", length=3))
    recording.add(Roll((3, 1)))
    yield game_reason(lambda: recording.add(First(2)))
    yield game_reason(lambda: recording.add(Roll((5, 2))))
    yield game_reason(lambda: recording.add(Turn.of("64", "24/18 13/9")))
    yield game_reason(lambda: recording.add(Double()))
    yield refusal(lambda: entry_from_json({"first": 3}))
    yield refusal(lambda: entry_from_json({"flag": "white"}))


def accepted_move_reasons() -> Iterator[str]:
    """A play the opponent accepted as made (seed 001), refused where it cannot stand."""
    accepting = LongNardy(accepted_moves=True)
    start = Position.initial(accepting)
    yield refusal(lambda: action_from_json({"dice": "61", "play": "24/18", "accepted": 1}))
    yield game_reason(lambda: replay_game(LONG, [Turn.of("61", "24/18", accepted=True)]))
    yield refusal(lambda: physical_play(start, "61", "bar/18"))
    yield refusal(lambda: physical_play(start, "61", "13/7"))
    yield refusal(lambda: physical_play(Position.initial(SHORT), "61", "bar/19"))
    yield refusal(lambda: physical_play(start, "61", "24/16"))


EXAMPLES = list(examples())


def values_of(reason: str) -> list[str]:
    """The values a reason carries (kept as they are in every language), inner reasons too."""
    looked_up = reasons._lookup(reason)
    assert looked_up is not None, reason
    values = []
    for name, value in looked_up[1].groupdict().items():
        if name in reasons._NESTED:
            values += values_of(value)
        elif name not in reasons._WORDS and value:
            values.append(value)
    return values


def entries_of(reason: str) -> list[object]:
    """The templates a reason matches: its own, and those of the reasons it wraps."""
    entry, found = reasons._lookup(reason)  # type: ignore[misc]
    inner = [found[name] for name in reasons._NESTED if name in found.groupdict()]
    return [entry, *(more for text in inner for more in entries_of(text))]


def latin_words(text: str, values: list[str]) -> set[str]:
    for value in sorted(values, key=len, reverse=True):
        text = text.replace(value, " ")
    return set(LATIN_WORD.findall(text)) - LATIN_ALLOWED


# --- The table --------------------------------------------------------------------------------


@pytest.mark.parametrize("reason", EXAMPLES)
def test_a_reason_is_russian_with_its_values_kept_and_english_as_it_was(reason):
    assert reason_is_known(reason), reason
    with translation.override("ru"):
        russian = reason_in_language(reason)
    with translation.override("en"):
        english = reason_in_language(reason)

    assert english == reason
    assert russian != reason
    assert latin_words(russian, values_of(reason)) == set(), russian
    for value in values_of(reason):
        assert value in russian, (value, russian)


def test_every_template_of_the_table_has_an_example():
    matched = {id(entry) for reason in EXAMPLES for entry in entries_of(reason)}
    missing = [entry.pattern.pattern for entry in catalogue.REASONS if id(entry) not in matched]
    assert missing == []
    assert len(catalogue.REASONS) > 100


def test_plural_templates_agree_with_the_number_in_russian():
    with translation.override("ru"):
        one = reason_in_language("the match to 1 points was already over")
        few = reason_in_language("the match to 3 points was already over")
        many = reason_in_language("the match to 5 points was already over")
        checker = reason_in_language("cannot bear off: 1 checker is outside the home")
        checkers = reason_in_language("cannot bear off: 2 checkers are outside the home")
    assert len({one, few, many}) >= 2
    assert checker != checkers


def test_an_unknown_reason_comes_back_unchanged():
    for text in ("something else went wrong", "", "game 2 is lost somewhere", "line x: y"):
        with translation.override("ru"):
            assert reason_in_language(text) == text
        assert not reason_is_known(text)


def test_a_known_wrapper_translates_around_an_unknown_reason():
    with translation.override("ru"):
        translated = reason_in_language("game 2: something else went wrong")
    assert translated.endswith(": something else went wrong")
    assert translated != "game 2: something else went wrong"
    assert not reason_is_known("game 2: something else went wrong")


# --- Every reason the engine and the scoring give is known -----------------------------------

VARIANTS = (
    ShortNardy(),
    ShortNardy(no_hit_and_hide=True),
    ShortNardy(koks=True),
    LongNardy(),
    LongNardy(block_check="turn"),
)


def wrong_plays(position: Position, dice: tuple[int, int], rng: random.Random) -> Iterator[str]:
    """Plays that are mostly illegal: random moves, and legal plays made wrong."""
    bar = 25 if position.variant.hitting else 24
    for _ in range(3):
        moves = []
        for _ in range(rng.randint(0, 4)):
            source = rng.randint(1, bar)
            target = rng.randint(0, source - 1)
            moves.append(Move(source, target, rng.random() < 0.2))
        yield str(Play(tuple(moves)))
    legal = rng.choice(legal_plays(position, dice)).play.moves
    if legal:
        index = rng.randrange(len(legal))
        move = legal[index]
        shifted = max(0, move.target + rng.choice((-2, -1, 1, 2)))
        before, after = legal[:index], legal[index + 1 :]
        if shifted < move.source:
            yield str(Play((*before, Move(move.source, shifted, move.hit), *after)))
        yield str(Play(before + after))
        yield str(Play((*before, move._replace(hit=not move.hit), *after)))


def test_every_reason_given_for_an_illegal_play_is_known():
    rng = random.Random(20261122)
    given: set[str] = set()
    unknown: set[str] = set()
    for variant in VARIANTS:
        for _ in range(3):
            for position, _turn in random_turns(variant, rng, max_turns=120):
                dice = (rng.randint(1, 6), rng.randint(1, 6))
                for play in wrong_plays(position, dice, rng):
                    try:
                        check_play(position, dice, play)
                    except (IllegalPlayError, NotationError) as error:
                        reason = getattr(error, "reason", str(error))
                        given.add(reason)
                        if not reason_is_known(reason):
                            unknown.add(reason)
    assert unknown == set()
    templates = {id(reasons._lookup(reason)[0]) for reason in given}  # type: ignore[index]
    assert len(given) > 500 and len(templates) >= 10


RULES = (
    MatchRules(variant="short", length=3),
    MatchRules(variant="short", length=5, koks=True, max_stake=4),
    MatchRules(variant="long", length=3, federation_draw=True),
    MatchRules(variant="long", length=5, federation_draw=True, draw_counts="one", dave=False),
    MatchRules(variant="short", games=4),
    MatchRules(variant="long", games=3, federation_draw=True, progression="arithmetic"),
    MatchRules(variant="short", games=2, dave=False),
)
SCORES = (-1, 0, "0.5", 1, "1.3", "1.5", 2, "2.5", 3, "3.5", 4, 5, 6, 7, 9, 12, "x", "1/3")


def test_every_reason_a_typed_score_is_refused_for_is_known():
    given = set()
    for rules in RULES:
        for one in SCORES:
            for two in SCORES:
                try:
                    score_from_typed(rules, one, two)  # type: ignore[arg-type]
                except ValueError as error:
                    given.add(str(error))
    assert {reason for reason in given if not reason_is_known(reason)} == set()
    assert len(given) > 50


def test_every_reason_a_list_of_game_outcomes_is_refused_for_is_known():
    outcomes = [
        PlayedGame.won(player, value, stake, ending)  # type: ignore[arg-type]
        for player in (1, 2)
        for value in (0, 1, 2, 3, 4)
        for stake in (0, 1, 2, 3, 4, 8)
        for ending in (Ending.BEAR_OFF, Ending.DROP, Ending.RESIGN)
    ]
    outcomes += [PlayedGame.drawn(), PlayedGame(3, Outcome(Colour.WHITE, Ending.BEAR_OFF, 1, 1))]
    outcomes += [PlayedGame(1, Outcome(None, Ending.UNFINISHED, 0, 1))]
    rng = random.Random(5)
    given = set()
    for rules in RULES:
        for _ in range(300):
            games = [rng.choice(outcomes) for _ in range(rng.randint(1, 6))]
            try:
                match_score(rules, games)
            except ValueError as error:
                given.add(str(error))
    assert {reason for reason in given if not reason_is_known(reason)} == set()
    assert len(given) > 20


# --- Through the results service ---------------------------------------------------------------


@pytest.mark.django_db
def test_an_illegal_mat_file_is_refused_in_russian(club):
    games = random_match(SHORT, 3, random.Random(5))
    text = write_match(match_record(SHORT, ("Anna", "Boris"), games, length=3))
    illegal = re.sub(r"(\n\s*1\) \d\d: )\S+( \S+)*?(?= {2,}|\n)", r"\g<1>24/1", text, count=1)
    assert illegal != text

    refused = {}
    for language in ("en", "ru"):
        with translation.override(language), pytest.raises(IllegalGameRecord) as error:
            match_result_record(match=club.match, by=club.anna, mat=illegal)
        refused[language] = error.value

    english = str(refused["en"].details["reason"])
    russian = str(refused["ru"].details["reason"])
    assert english.startswith("the dice ") and english.endswith(" cannot play 24/1")
    assert refused["en"].message == f"Game 1, move 1, player 1 '24/1': {english}"
    assert refused["ru"].message == f"Партия 1, ход 1, игрок 1 '24/1': {russian}"
    assert russian != english
    assert latin_words(russian, values_of(english)) == set()
    assert {key: value for key, value in refused["ru"].details.items() if key != "reason"} == {
        key: value for key, value in refused["en"].details.items() if key != "reason"
    }


@pytest.mark.django_db
def test_a_typed_score_and_a_match_file_are_refused_in_russian(club):
    from tournaments.errors import InvalidInput  # noqa: PLC0415

    with translation.override("ru"):
        with pytest.raises(InvalidInput) as typed_score:
            match_result_record(match=club.match, by=club.anna, score=(2, 1))
        with pytest.raises(InvalidInput) as not_a_file:
            match_result_record(match=club.match, by=club.anna, mat="hello")
    assert typed_score.value.message.startswith("Такого счёта быть не может: 2–1: ")
    assert latin_words(typed_score.value.message, []) == set()
    assert latin_words(not_a_file.value.message, ["' Game 1'"]) == set()
