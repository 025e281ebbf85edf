"""Shared by the match-file tests: legal games from random self-play, and the real corpus."""

import random
from pathlib import Path

import pytest

from games.rules import LongNardy, MatchGame, ShortNardy, Variant
from games.rules.selfplay import random_turns
from tests.support.corpus import corpus_or_skip, match_files


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


@pytest.fixture(scope="session")
def corpus_files() -> list[Path]:
    """The 1,777 real matches; skipped when absent, except on CI where that is an error."""
    return match_files(corpus_or_skip())
