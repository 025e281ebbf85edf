"""The reasons of the rules engine and the scoring in the language of the interface: every code
has a Russian sentence with the values kept, English stays byte-identical, and every reason the
engine and the scoring give for random bad input carries a code the catalogue knows."""

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
    Opens,
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
from games.rules.errors import TEMPLATES, Reason
from games.rules.game import Ending, Outcome
from games.rules.matfile import (
    MATCH_OVER,
    RecordError,
    check_match,
    match_record,
    read_match,
    write_match,
)
from games.rules.moves import CANNOT_PLAY_NOTHING, NOT_HOME, physical_play
from games.rules.notation import parse_dice
from games.rules.selfplay import random_match, random_turns
from games.services import IllegalRecordError, RecordedGame, games_from_mat, games_validate
from tests.support.words import SYSTEM_NAMES
from tournaments.errors import IllegalGameRecord
from tournaments.matches.results import match_result_record
from tournaments.reasons import reason_in_language
from tournaments.reasons.catalogue import CATALOGUE
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
from tournaments.scoring.match import AT_GAME, STAKE_SKIPPED

SHORT, LONG = ShortNardy(), LongNardy()
#: Words that stay Latin in a Russian reason: the interface's, and a match file's header.
LATIN_ALLOWED = SYSTEM_NAMES | {"CubeLimit"}
LATIN_WORD = re.compile(r"[A-Za-z]+")


# --- Producing the reasons for real --------------------------------------------------------


def refusal(make: Callable[[], object]) -> str:
    """The reason of the error ``make`` raises (without where it happened)."""
    try:
        make()
    except (RulesError, IllegalRecordError) as error:
        return error.reason
    raise AssertionError("no error")


def game_error(make: Callable[[], object]) -> str:
    """The whole reason of the error ``make`` raises, where it happened included."""
    try:
        make()
    except RulesError as error:
        return error.said
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
        return error.said
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
    yield CANNOT_PLAY_NOTHING(dice="3-1")  # check_play refuses the empty play for dice unused
    yield refusal(lambda: check_play(initial, (3, 1), "24/18"))
    yield refusal(lambda: check_play(initial, (3, 1), Play((Move(3, 5),))))
    block = position(LONG, {24: 9, 19: 1, 18: 1, 17: 1, 16: 1, 15: 1, 14: 1}, {24: 15})
    yield refusal(lambda: check_play(block, (6, 5), "19/13 24/19"))
    yield refusal(lambda: check_play(initial, (3, 1), "8/5* 6/5"))
    blots = position(SHORT, {13: 5, 8: 3, 6: 5, 24: 2}, {15: 1, 18: 1, 2: 13})
    yield refusal(lambda: check_play(blots, (3, 1), "13/10 8/7*"))
    # game: replay_game, replay_match, action_from_json
    yield refusal(lambda: replay_game(SHORT, [t[0], Double(), t[1]]))
    yield refusal(lambda: replay_game(SHORT, [Turn.of("33", "8/5(2) 6/3(2)")]))
    yield refusal(lambda: replay_game(SHORT, [t[0], Double(), Double()]))
    no_dave = ShortNardy(dave=DaveRules(enabled=False))
    yield refusal(lambda: replay_game(no_dave, [t[0], Double()]))
    yield refusal(lambda: replay_game(SHORT, [t[0], Double()], crawford=True))
    yield refusal(lambda: replay_game(SHORT, [Double()]))
    federation = LongNardy(federation_draw=True)
    last = position(federation, {1: 1}, {24: 15})
    last_turn = [Turn.of("21", "1/off"), Double()]
    yield refusal(lambda: replay_game(federation, last_turn, start=last))
    white_refused = [t[0], Double(), Take(), t[1], Double(), Take(), t[2], t[3], Double()]
    yield refusal(lambda: replay_game(SHORT, white_refused))
    yield refusal(lambda: replay_game(SHORT, [t[0], Double(), Take(), t[1], t[2], Double()]))
    capped = ShortNardy(dave=DaveRules(max_stake=2))
    yield refusal(lambda: replay_game(capped, [t[0], Double(), Take(), t[1], Double()]))
    yield refusal(lambda: replay_game(SHORT, [t[0], Take()]))
    yield refusal(lambda: replay_game(SHORT, [t[0], Resign(Colour.WHITE, 3)]))
    yield refusal(lambda: replay_game(SHORT, [t[0], Resign(Colour.WHITE, 1), t[1]]))
    two_games = finished_games(SHORT, 1) + finished_games(SHORT, 1)
    yield refusal(lambda: replay_match(SHORT, two_games, length=1))
    yield refusal(lambda: action_from_json(5))
    yield refusal(lambda: action_from_json({"dice": 5}))
    yield refusal(lambda: action_from_json({"resign": "red"}))
    yield refusal(lambda: action_from_json({"pass": True}))
    # the opening throw (art. 26.3)
    yield refusal(lambda: action_from_json({"opens": "red"}))
    yield refusal(lambda: replay_game(LongNardy(), [Opens(Colour.BLACK)]))
    opening = LongNardy(opening_roll=True)
    yield refusal(lambda: replay_game(opening, [Opens(Colour.BLACK), Opens(Colour.WHITE)]))
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
    huge = "9" * 5000  # more digits than int() reads
    yield refusal(lambda: read_match(f" {huge} point match\n\n Game 1\n"))
    yield refusal(lambda: read_match(mat("").replace("b : 0", f"b : {huge}")))
    yield refusal(lambda: read_match(mat(f"  {huge}) 31: 8/5 6/5\n")))
    yield refusal(read(f"  1) 31: 8/5 6/5                Doubles => {huge}\n"))
    yield refusal(read(f"  1) 31: 8/5 6/5\n      Wins {huge} point\n"))
    yield refusal(read("", f'; [CubeLimit "{huge}"]\n'))
    yield refusal(read("", '; [Accepted "one.two"]\n'))
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
    yield STAKE_SKIPPED["arithmetic"](game=1, stake=3)
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
    yield game_error(lambda: replay_game(SHORT, [t[0], Turn.of("31", "24/18")]))
    yield from recording_errors()
    yield refusal(scored(MatchRules(length=1), won(1), won(1)))


def recording_reasons() -> Iterator[str]:
    from tournaments.matches.live.recording import (  # noqa: PLC0415
        First,
        OpeningThrow,
        Recording,
        Roll,
        entry_from_json,
    )

    recording = Recording(MatchRules(variant="short", length=3))
    recording.add(Roll((3, 1)))
    yield refusal(lambda: recording.add(First(2)))
    yield refusal(lambda: recording.add(Roll((5, 2))))
    yield refusal(lambda: recording.add(Turn.of("64", "24/18 13/9")))
    yield refusal(lambda: recording.add(Double()))
    to_1 = Recording(MatchRules(variant="short", length=1))
    to_1.add(Roll((3, 1)))
    to_1.add(Turn.of("31", "8/5 6/5"))
    yield refusal(lambda: to_1.add(Double()))  # a dave that cannot change the match
    yield refusal(lambda: entry_from_json({"first": 3}))
    yield refusal(lambda: entry_from_json({"opening": {"white": 0, "black": 3}}))
    opening = Recording(MatchRules(variant="long", length=1, opening_roll=True))
    yield refusal(lambda: opening.add(OpeningThrow(4, 4)))
    yield refusal(lambda: entry_from_json({"flag": "white"}))


def recording_errors() -> Iterator[str]:
    """An entry refused with where it was (game and turn)."""
    from tournaments.matches.live.recording import Recording, Roll  # noqa: PLC0415

    recording = Recording(MatchRules(variant="short", length=3))
    recording.add(Roll((3, 1)))
    yield game_error(lambda: recording.add(Roll((5, 2))))


def accepted_move_reasons() -> Iterator[str]:
    """A play the opponent accepted as made (seed 001), refused where it cannot stand."""
    accepting = LongNardy(accepted_moves=True)
    start = Position.initial(accepting)
    yield refusal(lambda: action_from_json({"dice": "61", "play": "24/18", "accepted": 1}))
    yield refusal(lambda: replay_game(LONG, [Turn.of("61", "24/18", accepted=True)]))
    yield refusal(lambda: physical_play(start, "61", "bar/18"))
    yield refusal(lambda: physical_play(start, "61", "13/7"))
    yield refusal(lambda: physical_play(Position.initial(SHORT), "61", "bar/19"))
    yield refusal(lambda: physical_play(start, "61", "24/16"))
    on_bar = position(SHORT, {25: 1, 13: 14}, {24: 15})
    yield refusal(lambda: physical_play(on_bar, "61", "bar/10"))
    yield refusal(lambda: physical_play(position(SHORT, {20: 1, 6: 14}, {24: 15}), "21", "20/off"))


EXAMPLES = list(examples())


def values_of(reason: str) -> list[str]:
    """The values a reason carries (kept as they are in every language), inner reasons' too."""
    assert isinstance(reason, Reason), reason
    values = []
    for value in reason.values.values():
        if isinstance(value, Reason):
            values += values_of(value)
        elif str(value):
            values.append(str(value))
    return values


def codes_of(reason: str) -> list[str]:
    """The codes of a reason: its own, and those of the reasons it names."""
    assert isinstance(reason, Reason), reason
    inner = [value for value in reason.values.values() if isinstance(value, Reason)]
    return [reason.code, *(code for value in inner for code in codes_of(value))]


def known(reason: str) -> bool:
    """Whether a reason and every reason it names carry a code of the catalogue."""
    if not isinstance(reason, Reason) or reason.code not in CATALOGUE:
        return False
    return all(known(value) for value in reason.values.values() if isinstance(value, Reason))


def latin_words(text: str, values: list[str]) -> set[str]:
    for value in sorted(values, key=len, reverse=True):
        text = text.replace(value, " ")
    return set(LATIN_WORD.findall(text)) - LATIN_ALLOWED


# --- The table --------------------------------------------------------------------------------


@pytest.mark.parametrize("reason", EXAMPLES)
def test_a_reason_is_russian_with_its_values_kept_and_english_as_it_was(reason):
    assert isinstance(reason, Reason), reason
    with translation.override("ru"):
        russian = reason_in_language(reason)
    with translation.override("en"):
        english = reason_in_language(reason)

    assert english == reason
    assert russian != reason
    assert latin_words(russian, values_of(reason)) == set(), russian
    for value in values_of(reason):
        assert value in russian, (value, russian)


def test_every_code_has_an_example():
    given = {code for reason in EXAMPLES for code in codes_of(reason)}
    assert sorted(set(TEMPLATES) - given) == []
    assert len(TEMPLATES) > 100


NAMED = re.compile(r"%\((\w+)\)s")


def sentences(code: str) -> dict[str, str]:
    """A code's sentence in the active language and its English, for each number its count
    takes (1, 2, 5), every other value a marker (``<point>``)."""
    template = TEMPLATES[code]
    markers = {name: f"<{name}>" for name in NAMED.findall(template.english + template.plural)}
    counts = (1, 2, 5) if template.count else (None,)
    said = {}
    for count in counts:
        values = markers if count is None else {**markers, template.count: count}
        said[str(CATALOGUE[code] % values)] = template(**values)
    return said


def test_every_code_has_its_english_sentence_in_the_catalogue():
    assert sorted(set(TEMPLATES) ^ set(CATALOGUE)) == []
    with translation.override("en"):
        for code in TEMPLATES:
            for sentence, english in sentences(code).items():
                assert sentence == english, code


def test_every_code_has_a_russian_sentence_with_its_values():
    untranslated, values_lost = [], []
    with translation.override("ru"):
        for code, template in TEMPLATES.items():
            for russian, english in sentences(code).items():
                if russian == english:
                    untranslated.append(code)
                markers = [f"<{name}>" for name in NAMED.findall(template.english)]
                if any(
                    marker not in russian for marker in markers if marker != f"<{template.count}>"
                ):
                    values_lost.append(code)
    assert untranslated == []
    assert values_lost == []


def test_plural_sentences_agree_with_the_number_in_russian():
    with translation.override("ru"):
        one, few, many = (reason_in_language(MATCH_OVER(length=n)) for n in (1, 3, 5))
        checker, checkers = (reason_in_language(NOT_HOME(n=n)) for n in (1, 2))
    assert len({one, few, many}) >= 2
    assert checker != checkers


def test_a_text_that_is_no_reason_comes_back_unchanged():
    for text in ("something else went wrong", "", "game 2: point 5 is held by the opponent"):
        with translation.override("ru"):
            assert reason_in_language(text) == text


def test_a_reason_translates_around_a_text_it_names():
    wrapped = AT_GAME(game=2, reason="something else went wrong")
    with translation.override("ru"):
        translated = reason_in_language(wrapped)
    assert translated.endswith(": something else went wrong")
    assert translated != wrapped


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
                        given.add(error.reason)
                        if not known(error.reason):
                            unknown.add(error.reason)
    assert unknown == set()
    codes = {code for reason in given for code in codes_of(reason)}
    assert len(given) > 500 and len(codes) >= 10


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
                except RulesError as error:
                    given.add(error.said)
    assert {reason for reason in given if not known(reason)} == set()
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
            except RulesError as error:
                given.add(error.said)
    assert {reason for reason in given if not known(reason)} == set()
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
    assert latin_words(russian, []) == set()
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
