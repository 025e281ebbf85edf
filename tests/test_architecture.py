"""The layout holds by itself (docs/architecture.md): the import-linter contracts of
pyproject.toml are kept, and no import circle exists between the project's modules, so
`make test` fails the day one comes back."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import grimp
import pytest
from importlinter.cli import lint_imports

PROJECT_ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("games", "tournaments", "nardy_site")


def circles(graph: grimp.ImportGraph) -> list[list[str]]:
    """The import circles of the graph: each a set of modules that import each other, directly
    or not (its strongly connected components of more than one module, or a module that
    imports itself)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0

    for root in sorted(graph.modules):
        if root in index:
            continue
        # Tarjan's algorithm without recursion: (module, its imports left to visit).
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            module, imports = work[-1]
            step = next(imports, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = counter
                    counter += 1
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph.find_modules_directly_imported_by(step)))))
                elif step in on_stack:
                    low[module] = min(low[module], index[step])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[module])
            if low[module] == index[module]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == module:
                        break
                selfish = graph.direct_import_exists(importer=module, imported=module)
                if len(component) > 1 or selfish:
                    found.append(sorted(component))
    return found


@contextmanager
def loggers_kept() -> Iterator[None]:
    """``lint_imports`` configures logging with ``dictConfig`` and no
    ``disable_existing_loggers``, which disables every logger the process has: a later test of
    this process would find the project's warnings gone (tests/reliability/test_faults.py counts
    them). The loggers are put back as they were."""
    loggers = [
        logger for logger in logging.Logger.manager.loggerDict.values()
        if isinstance(logger, logging.Logger)
    ]  # fmt: skip
    disabled = [logger.disabled for logger in loggers]
    try:
        yield
    finally:
        for logger, was in zip(loggers, disabled, strict=True):
            logger.disabled = was


def test_the_contracts_of_pyproject_are_kept(capsys, monkeypatch):
    monkeypatch.chdir(PROJECT_ROOT)
    with loggers_kept():
        kept = lint_imports(config_filename="pyproject.toml", no_cache=True)
    report = capsys.readouterr().out
    assert kept == 0, report
    assert "0 broken" in report


def test_no_module_imports_itself_through_others():
    graph = grimp.build_graph(*PACKAGES)
    assert circles(graph) == []


def test_a_circle_is_found_when_one_comes_back():
    """The check above can fail: a circle added to the real graph is found, whole."""
    graph = grimp.build_graph(*PACKAGES)
    graph.add_import(importer="tournaments.models", imported="tournaments.matches.results")
    found = circles(graph)
    assert len(found) == 1
    assert {"tournaments.models", "tournaments.matches.results"} <= set(found[0])


@pytest.mark.parametrize("package", PACKAGES)
def test_every_package_is_measured(package):
    """The graph sees the code (a renamed package would keep every contract vacuously)."""
    graph = grimp.build_graph(*PACKAGES)
    assert len(graph.find_children(package)) >= 5


#: The modules that write or read for others (services, selectors, the recorder's parts): they
#: speak in the services' errors (``tournaments.errors``), never in HTTP's.
SERVICE_MODULES = sorted(
    path
    for pattern in ("**/services.py", "**/services/*.py", "**/selectors.py")
    for path in (PROJECT_ROOT / "tournaments").glob(pattern)
) + [
    PROJECT_ROOT / "tournaments" / "matches" / "live" / f"{name}.py"
    for name in ("drafts", "state", "clocks", "hints")
]


@pytest.mark.parametrize("path", SERVICE_MODULES, ids=lambda path: path.stem)
def test_no_service_module_speaks_http(path):
    text = path.read_text()
    assert "django.http" not in text and "Http404" not in text, path
    assert "rest_framework" not in text, path
