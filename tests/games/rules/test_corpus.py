"""The 1,777 real backgammon matches of ../shared/corpora/bglab: every play in them is legal.

Each file is read, replayed and written back; then single plays of real files are made illegal in
the ways players get wrong, and each must be rejected at the right game, line and column.
"""

import dataclasses
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from games.rules import (
    GameError,
    GameReplay,
    Play,
    Position,
    Turn,
    action_from_json,
    action_to_json,
    actions_as_made,
    legal_plays,
    most_dice_playable,
    replay_game,
)
from games.rules.matfile import MatchRecord, check_match, read_match, replay_record, write_match
from games.rules.position import BAR
from games.services import games_from_mat


@pytest.fixture(scope="session")
def records(corpus_files: list[Path]) -> dict[Path, MatchRecord]:
    return {path: read_match(path.read_text(encoding="utf-8")) for path in corpus_files}


def games_of(record: MatchRecord, replays: list[GameReplay]) -> list[tuple[object, ...]]:
    """Each game's first player, score line, claim, positions and outcome."""
    return [
        (game.first, game.score, game.claim, replay.positions, replay.outcome)
        for game, replay in zip(record.games, replays, strict=True)
    ]


@pytest.fixture(scope="session")
def replayed(records: dict[Path, MatchRecord]) -> dict[Path, list[GameReplay]]:
    """Every file's games replayed once, for the tests that compare against the replay."""
    return {path: replay_record(record) for path, record in records.items()}


def test_every_file_of_the_corpus_is_valid(records):
    assert len(records) == 1777
    invalid = {}
    plays = games = 0
    for path, record in records.items():
        result = check_match(record)
        games += len(record.games)
        plays += sum(isinstance(action, Turn) for g in record.games for action in g.actions)
        if not result.valid:
            invalid[path.name] = str(result.error)
        assert len(result.games) == len(record.games) or not result.valid
    assert invalid == {}
    assert games == 5008
    assert plays > 211_000


def test_read_write_read_gives_the_same_games_for_every_file(records, replayed):
    """Written and read back, every game has the same first player, score line, claim, and
    positions and outcome in its replay (a play may be written another way: 13/3 for 13/7 7/3)."""
    differ = []
    for path, record in records.items():
        again = read_match(write_match(record))
        same_match = (again.players, again.variant, again.length, again.crawford) == (
            record.players,
            record.variant,
            record.length,
            record.crawford,
        )
        same_games = games_of(again, replay_record(again)) == games_of(record, replayed[path])
        if not same_match or again.headers != record.headers or not same_games:
            differ.append(path.name)
    assert differ == []


def test_games_stored_as_json_replay_to_the_files_positions_for_every_file(records, replayed):
    """What the result service stores, each play as the engine made it (``actions_as_made``)
    as JSON, replays read back to every position of the file's own replay. Stored as written,
    some would not: a file may write a checker's steps joined or leave a hit unmarked."""
    differ = []
    for path, record in records.items():
        for game, replay in zip(record.games, replayed[path], strict=True):
            stored = [action_to_json(a) for a in actions_as_made(game.actions, replay.made)]
            again = replay_game(record.variant, [action_from_json(a) for a in stored])
            if again.positions != replay.positions or again.outcome != replay.outcome:
                differ.append(path.name)
    assert differ == []


def test_a_file_whose_written_plays_hide_a_hit_is_stored_as_played(records):
    """match1238642: a 64 written "13/7 7/3" hits on 7 unmarked; written joined as "13/3" it
    would be read as the path that hits nothing, and a later play would be illegal."""
    path = next(p for p in records if p.name == "match1238642.txt")
    record = records[path]
    validated = games_from_mat(
        path.read_text(encoding="utf-8"),
        variant=record.variant,
        length=record.length,
        crawford=record.crawford,
    )
    as_written = [action_from_json(action_to_json(a)) for a in record.games[0].actions]
    with pytest.raises(GameError, match="no checker on the bar"):
        replay_game(record.variant, as_written)
    for game, replay in zip(validated, replay_record(record), strict=True):
        stored = [action_from_json(action_to_json(a)) for a in game.actions]
        assert replay_game(record.variant, stored).positions == replay.positions


# --- Mutations: a real play made illegal --------------------------------------------------


@dataclasses.dataclass(frozen=True)
class Found:
    path: Path
    game: int  # 0-based
    action: int  # index in the game's actions
    play: str  # the illegal play to write instead


def turns(
    records: dict[Path, MatchRecord],
) -> Iterator[tuple[Path, int, int, Position, Turn]]:
    """Every recorded turn of the corpus with the position before it, in file order."""
    for path, record in records.items():
        replays = replay_record(record)
        for number, (game, replay) in enumerate(zip(record.games, replays, strict=True)):
            turns = (i for i, action in enumerate(game.actions) if isinstance(action, Turn))
            for index, action_index in enumerate(turns):
                action = game.actions[action_index]
                assert isinstance(action, Turn)
                yield path, number, action_index, replay.positions[index], action


def wrong_point(position: Position, turn: Turn) -> str | None:
    """The first written move, one die long, started from a point where the mover has none."""
    if not turn.play or position.mover[BAR]:
        return None
    first = turn.play.moves[0]
    die = first.source - first.target
    if die not in turn.dice or first.target == 0:
        return None
    for point in range(24, die, -1):
        if not position.mover[point]:
            return f"{point}/{point - die} {Play(turn.play.moves[1:])}".strip()
    return None


def lower_die_alone(position: Position, turn: Turn) -> str | None:
    """Only one die can be played and it must be the higher one; play the lower instead."""
    high, low = max(turn.dice), min(turn.dice)
    if high == low or most_dice_playable(position, turn.dice) != 1:
        return None
    for legal in legal_plays(position, turn.dice):
        (move, *more) = legal.play.moves or (None,)
        if move is None or more or move.source - move.target != high:
            return None
    for legal in legal_plays(position, (low, low)):
        move = legal.play.moves[0] if legal.play else None
        if move is not None and move.source - move.target == low:
            return str(Play((move,)))
    return None


def fewer_dice(position: Position, turn: Turn) -> str | None:
    """A two-dice play written as separate moves, with its last move left out."""
    if turn.dice[0] == turn.dice[1] or len(turn.play.moves) != 2:
        return None
    first = turn.play.moves[0]
    return str(Play((first,))) if first.source - first.target in turn.dice else None


def moved_past_the_bar(position: Position, turn: Turn) -> str | None:
    """A checker on the bar, and a play that moves another checker instead of entering."""
    if not position.mover[BAR] or not turn.play:
        return None
    die = max(turn.dice)
    for point in range(24, die, -1):
        if position.mover[point] and position.opponent[25 - (point - die)] == 0:
            return f"{point}/{point - die}"
    return None


def off_from_outside(position: Position, turn: Turn) -> str | None:
    """Bearing off while a checker still stands outside the home."""
    outside = sum(position.mover[7:26])
    die = max(turn.dice)
    if not 0 < outside <= 2 or not position.mover[die] or turn.dice[0] == turn.dice[1]:
        return None
    return f"{die}/off"


MUTATIONS: dict[str, tuple[Callable[[Position, Turn], str | None], str]] = {
    "wrong point": (wrong_point, "no checker on point"),
    "lower die when the higher must be played": (lower_die_alone, "it must be the"),
    "fewer dice than possible": (fewer_dice, "dice can be played, this play uses 1"),
    "moved while a checker is on the bar": (moved_past_the_bar, "must enter first"),
    "bearing off with a checker outside": (off_from_outside, "outside the home"),
}


@pytest.fixture(scope="module")
def mutations(records: dict[Path, MatchRecord]) -> dict[str, Found]:
    found: dict[str, Found] = {}
    for path, game, action, position, turn in turns(records):
        for name, (mutate, _) in MUTATIONS.items():
            if name not in found and (play := mutate(position, turn)) is not None:
                found[name] = Found(path, game, action, play)
        if len(found) == len(MUTATIONS):
            break
    return found


def mutated(record: MatchRecord, found: Found) -> MatchRecord:
    game = record.games[found.game]
    actions = list(game.actions)
    turn = actions[found.action]
    assert isinstance(turn, Turn)
    actions[found.action] = Turn(turn.dice, Play.parse(found.play))
    games = list(record.games)
    games[found.game] = dataclasses.replace(game, actions=tuple(actions))
    return dataclasses.replace(record, games=tuple(games))


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_a_real_play_made_illegal_is_rejected_at_its_game_move_and_player(name, records, mutations):
    found = mutations[name]
    record = records[found.path]
    place = record.games[found.game].places[found.action]
    result = check_match(mutated(record, found))
    error = result.error
    assert error is not None, f"{found}: accepted"
    assert (error.game, error.move, error.player) == (found.game + 1, place.move, place.player)
    assert MUTATIONS[name][1] in error.reason, error.reason
    assert len(result.games) == found.game  # the games before it were replayed


def test_the_check_command_names_the_illegal_play_of_a_file(tmp_path, records, mutations):
    found = mutations["moved while a checker is on the bar"]
    record = records[found.path]
    place = record.games[found.game].places[found.action]
    lines = found.path.read_text(encoding="utf-8").splitlines()
    game_line = next(i for i, line in enumerate(lines) if line.strip() == f"Game {found.game + 1}")
    target = next(
        i for i in range(game_line, len(lines)) if lines[i].strip().startswith(f"{place.move})")
    )
    line = lines[target]
    column = line.index(place.text) if place.player == 1 else line.rindex(place.text)
    lines[target] = line[:column] + found.play + line[column + len(place.text) :]
    path = tmp_path / "mutated.mat"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "games.rules", "check", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 1
    prefix = f"{path}: game {found.game + 1}, move {place.move}, player {place.player}: "
    assert done.stdout.startswith(f"{prefix}'{found.play}': "), done.stdout
    assert "must enter first" in done.stdout
