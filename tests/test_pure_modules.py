"""The pure modules (DESIGN.md) are plain Python: none imports Django, the site or a service.

Each may import only itself and the pure modules it stands on: the rules engine only itself; the
tournament maths (formats, scoring, standings, ratings) only each other and the rules engine.
"""

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[1]
TOURNAMENT_MATHS = (
    "tournaments.formats",
    "tournaments.ratings.elo",
    "tournaments.ratings.fibs",
    "tournaments.ratings.glicko2",
    "tournaments.ratings.history",
    "tournaments.scoring",
    "tournaments.standings",
    "games.rules",
)
#: Each pure module (a package or a file, as a path) and the project modules it may import.
PURE: dict[str, tuple[str, ...]] = {
    "games/rules": ("games.rules",),
    "tournaments/formats": TOURNAMENT_MATHS,
    # The rating maths; the rest of ``tournaments/ratings`` (models, ledger, tasks) is Django.
    "tournaments/ratings/__init__.py": TOURNAMENT_MATHS,
    "tournaments/ratings/elo.py": TOURNAMENT_MATHS,
    "tournaments/ratings/fibs.py": TOURNAMENT_MATHS,
    "tournaments/ratings/glicko2.py": TOURNAMENT_MATHS,
    "tournaments/ratings/history.py": TOURNAMENT_MATHS,
    "tournaments/scoring": TOURNAMENT_MATHS,
    "tournaments/seasons/table.py": (),
    "tournaments/eligibility.py": (),
    "tournaments/standings.py": TOURNAMENT_MATHS,
    "games/viewer.py": ("games.rules",),
    # The Long Nardy engine stands on the rules and gives its figures as the gnubg runner does.
    "games/engine": ("games.rules", "games.engine", "games.analysis.runner"),
    # gnubg_script.py runs inside gnubg (its own Python), never in the project.
    "games/analysis/__init__.py": (),
    "games/analysis/runner.py": (),
    "tournaments/matches/live/recording.py": TOURNAMENT_MATHS,
    # The recorder's board: the server's answers, and the phone's own offline (Pyodide).
    "tournaments/matches/live/board.py": (
        *TOURNAMENT_MATHS,
        "tournaments.matches.live.recording",
        "games.viewer",
    ),
    "tournaments/scoring/clock.py": (),
    "tournaments/brackets/layout.py": (),
    "tournaments/charts.py": (),
    # The analysis read for a club player: the engines' thresholds, gnubg's rating bands.
    "tournaments/analysis/reading.py": ("games.analysis.runner", "games.engine"),
}
FORBIDDEN = ("django", "rest_framework", "celery", "redis", "psycopg", "nardy_site")
PROJECT_PACKAGES = ("games", "tournaments", "nardy_site")


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PROJECT_ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path) -> list[str]:
    """Absolute names of every module the file imports, relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    package = module_name(path).split(".")
    if path.name != "__init__.py":
        package.pop()
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            names.append(module)
            names.extend(f"{module}.{alias.name}" for alias in node.names)
    return names


def is_forbidden(module: str, allowed: tuple[str, ...] = ("games.rules",)) -> bool:
    """A module outside the pure world: a framework, or a project module not in ``allowed``."""

    def under(names: tuple[str, ...]) -> bool:
        return any(module == name or module.startswith(name + ".") for name in names)

    if under(FORBIDDEN):
        return True
    # A package whose pure modules are allowed (``from tournaments.ratings import fibs``) is
    # allowed itself: its ``__init__`` is checked as a pure module of its own.
    parent_of_allowed = any(name.startswith(module + ".") for name in allowed)
    return (
        under(PROJECT_PACKAGES)
        and not under(allowed)
        and not parent_of_allowed
        and module not in PROJECT_PACKAGES
    )


def python_files(place: str) -> list[Path]:
    """The files of a pure module. A ``__main__.py`` is a program's entry, which no module
    imports: ``python -m games.rules`` also answers the engine's ``best`` and ``eval`` (their
    contract names that program), so it hands those two to ``games.engine.cli``."""
    path = PROJECT_ROOT / place
    if path.suffix == ".py":
        return [path]
    return sorted(file for file in path.rglob("*.py") if file.name != "__main__.py")


def module_of(place: str) -> str:
    return place.removesuffix(".py").replace("/", ".")


def test_relative_imports_are_resolved_before_checking(tmp_path, monkeypatch):
    fake_root = tmp_path
    rules = fake_root / "games" / "rules"
    rules.mkdir(parents=True)
    sample = rules / "sample.py"
    sample.write_text("from .. import models\nfrom ..services import x\nfrom . import dice\n")
    monkeypatch.setattr(sys.modules[__name__], "PROJECT_ROOT", fake_root)

    modules = imported_modules(sample)

    assert "games.models" in modules
    assert "games.services.x" in modules
    assert "games.rules.dice" in modules
    assert is_forbidden("games.models") and is_forbidden("django.db")
    assert not is_forbidden("games.rules.dice") and not is_forbidden("djangoish")
    assert is_forbidden("tournaments.models", TOURNAMENT_MATHS)
    assert not is_forbidden("tournaments.scoring", TOURNAMENT_MATHS)
    assert not is_forbidden("tournaments.ratings.fibs", TOURNAMENT_MATHS)
    assert is_forbidden("tournaments.ratings.ledger", TOURNAMENT_MATHS)


@pytest.mark.parametrize("place", list(PURE))
def test_no_file_of_a_pure_module_imports_django_the_site_or_a_service(place):
    files = python_files(place)
    assert files, f"no Python files at {place}"
    offenders = [
        f"{path.relative_to(PROJECT_ROOT)}: {module}"
        for path in files
        for module in imported_modules(path)
        if is_forbidden(module, PURE[place])
    ]
    assert not offenders, f"{place} must stay pure Python:\n" + "\n".join(offenders)


def test_importing_every_pure_module_loads_no_django():
    modules = [module_of(place) for place in PURE]
    program = (
        "import importlib, pkgutil, sys\n"
        f"for name in {modules!r}:\n"
        "    module = importlib.import_module(name)\n"
        "    for info in pkgutil.walk_packages(getattr(module, '__path__', []), name + '.'):\n"
        "        if not info.name.endswith('.__main__'):  # running it would start the CLI\n"
        "            importlib.import_module(info.name)\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in {'django', 'nardy_site',"
        " 'celery', 'rest_framework'} or m in {'tournaments.models', 'games.models'})\n"
        "print('\\n'.join(loaded))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", program],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "", "importing the pure modules loaded:\n" + result.stdout
