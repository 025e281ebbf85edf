"""What a phone keeps to record offline: the Python of the recorder's board (``board`` and every
project module it imports, found by reading their imports) as one zip for Pyodide, and the kit
of a match (``board.kit_json``) as the draft stands.

The zip is built once a process from the files on disk, so the phone runs exactly the rules the
server runs; its digest names its version for the service worker's cache.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import io
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tournaments.matches.live.board import kit_json
from tournaments.matches.live.clocks import clock_of
from tournaments.matches.live.drafts import match_of, resume
from tournaments.matches.live.models import Draft

PROJECT_ROOT = Path(__file__).resolve().parents[3]
#: The module the page imports (``static/nardy/offline-worker.js``).
ENTRY_MODULE = "tournaments.matches.live.board"
PROJECT_PACKAGES = ("games", "tournaments")


@dataclass(frozen=True)
class Bundle:
    data: bytes
    digest: str
    modules: tuple[str, ...]


def module_file(name: str) -> Path | None:
    """The file of project module ``name`` (a package's ``__init__.py``), or None."""
    base = PROJECT_ROOT.joinpath(*name.split("."))
    for candidate in (base / "__init__.py", base.with_suffix(".py")):
        if candidate.is_file():
            return candidate
    return None


def imported(name: str, source: str) -> set[str]:
    """The project modules ``source`` (module ``name``) imports, with the packages above them:
    ``from a.b import c`` is module ``a.b.c`` when that is one, and always package ``a.b``."""
    found: set[str] = set()
    path = module_file(name)
    package = name if path is not None and path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: -node.level]
                base = ".".join([*parts, base] if base else parts)
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)
    modules = {module for module in found if module.split(".")[0] in PROJECT_PACKAGES}
    parents = {".".join(m.split(".")[:i]) for m in modules for i in range(1, m.count(".") + 1)}
    return {module for module in modules | parents if module_file(module) is not None}


def closure(entry: str) -> list[str]:
    """``entry`` and every project module it needs, directly or not."""
    seen = {entry}
    queue = [entry]
    while queue:
        name = queue.pop()
        path = module_file(name)
        assert path is not None, name
        for module in imported(name, path.read_text()):
            if module not in seen:
                seen.add(module)
                queue.append(module)
    return sorted(seen)


@functools.cache
def bundle() -> Bundle:
    """The zip of the board's modules (each at its path in the project), built once."""
    modules = closure(ENTRY_MODULE)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name in modules:
            path = module_file(name)
            assert path is not None
            info = zipfile.ZipInfo(str(path.relative_to(PROJECT_ROOT)), (2020, 1, 1, 0, 0, 0))
            archive.writestr(info, path.read_bytes(), zipfile.ZIP_DEFLATED)
    data = buffer.getvalue()
    return Bundle(data, hashlib.sha256(data).hexdigest()[:16], tuple(modules))


def live_kit(*, match_id: int) -> dict[str, Any]:
    """The kit of the match's recording as it stands now (``board.kit_json``)."""
    match = match_of(match_id)
    draft = Draft.objects.filter(match=match).first()
    recording = None if draft is None else resume(match, draft)
    return kit_json(
        match=match.pk,
        draft=draft.pk if draft else None,
        rules=match.tournament.match_rules(),
        done=[] if recording is None else [game.to_json() for game in recording.done],
        current=None if recording is None else recording.checkpoint(),
        clock=clock_of(match, draft),
        ply=draft.ply if draft else 0,
        revision=draft.revision if draft else 0,
    )
