"""Shared by the match-file tests: legal games from random self-play, and the real corpus."""

import os
import random
from pathlib import Path

import pytest

from games.rules import LongNardy, MatchGame, ShortNardy, Variant
from games.rules.selfplay import random_turns


def self_play_games(variant: Variant, count: int, seed: int) -> list[MatchGame]:
    """``count`` whole games, the match players taking White in turn."""
    rng = random.Random(seed)
    return [
        MatchGame(
            white=1 + number % 2, actions=tuple(turn for _, turn in random_turns(variant, rng))
        )
        for number in range(count)
    ]


@pytest.fixture(scope="session")
def short_games() -> list[MatchGame]:
    return self_play_games(ShortNardy(), 6, seed=11)


@pytest.fixture(scope="session")
def long_games() -> list[MatchGame]:
    return self_play_games(LongNardy(federation_draw=True), 4, seed=12)


def corpus_folder() -> Path | None:
    """``NARDY_CORPUS``, else ../shared/corpora/bglab beside the checkout, else /work/shared."""
    beside = Path(__file__).resolve().parents[4] / "shared" / "corpora" / "bglab"
    for candidate in (os.environ.get("NARDY_CORPUS"), beside, "/work/shared/corpora/bglab"):
        if candidate and Path(candidate).is_dir():
            return Path(candidate)
    return None


@pytest.fixture(scope="session")
def corpus_files() -> list[Path]:
    """The 1,777 real matches; skipped when absent, except on CI where that is an error."""
    folder = corpus_folder()
    if folder is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("the corpus ../shared/corpora/bglab is missing (or set NARDY_CORPUS)")
        pytest.skip("the corpus ../shared/corpora/bglab is missing (or set NARDY_CORPUS)")
    return sorted(folder.rglob("*.txt"))
