"""Where the real backgammon matches are: one answer for the tests and the benches.

``NARDY_CORPUS`` when set, else ``../shared/corpora/bglab`` beside the checkout, else
``/work/shared/corpora/bglab``. On CI a missing corpus is an error; elsewhere the tests skip.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[2]
MISSING = "the corpus ../shared/corpora/bglab is missing (or set NARDY_CORPUS)"


def corpus_folder() -> Path | None:
    beside = PROJECT_ROOT.parent / "shared" / "corpora" / "bglab"
    for candidate in (os.environ.get("NARDY_CORPUS"), beside, "/work/shared/corpora/bglab"):
        if candidate and Path(candidate).is_dir():
            return Path(candidate)
    return None


def corpus_or_skip() -> Path:
    """The corpus folder for a test: a failure on CI when it is missing, a skip elsewhere."""
    folder = corpus_folder()
    if folder is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(MISSING)
        pytest.skip(MISSING)
    return folder


def match_files(folder: Path) -> list[Path]:
    """Every match file of the corpus, in a fixed order."""
    return sorted(folder.rglob("*.txt"))
