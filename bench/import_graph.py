"""The import graph of the project's code, in figures: the import circles (with their modules),
the imports that run up the layers (``games`` into ``tournaments``; the platform parts of
``nardy_site`` into either), and the longest files. Run on a checkout (``--repo DIR``, default
this one) to compare two states of the code, e.g. before and after a move:

    .venv/bin/python bench/import_graph.py
    git worktree add /tmp/before <commit>
    .venv/bin/python bench/import_graph.py --repo /tmp/before
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

PACKAGES = ("games", "tournaments", "nardy_site")
PLATFORM = ("errors", "api_errors", "throttle", "body_limit", "env", "logs", "cache",
            "page_cache", "forms", "accounts")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repo", type=Path, default=Path(__file__).resolve().parents[1])
    parser.add_argument("--longest", type=int, default=12)
    args = parser.parse_args()
    repo = args.repo.resolve()
    sys.path.insert(0, str(repo))
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
    import grimp  # noqa: PLC0415
    from test_architecture import circles  # noqa: PLC0415

    graph = grimp.build_graph(*PACKAGES)
    found = circles(graph)
    print(f"repository: {repo}")
    print(f"modules: {len(graph.modules)}")
    print(f"import circles: {len(found)}, modules in them: {sum(len(c) for c in found)}")
    for circle in found:
        print(f"  {', '.join(circle)}")
    upward = [
        (importer, imported)
        for importer in sorted(graph.modules)
        for imported in sorted(graph.find_modules_directly_imported_by(importer))
        if (importer.startswith("games") and imported.startswith("tournaments"))
        or (
            importer.split(".")[0] == "nardy_site"
            and len(importer.split(".")) > 1
            and importer.split(".")[1] in PLATFORM
            and imported.split(".")[0] in ("games", "tournaments")
            and not imported.startswith("games.rules")
        )
    ]
    print(f"imports up the layers: {len(upward)}")
    for importer, imported in upward:
        print(f"  {importer} -> {imported}")
    files = subprocess.run(
        ["git", "ls-files", "*.py"], cwd=repo, capture_output=True, text=True, check=True
    ).stdout.split()
    sizes = sorted(
        (
            (sum(1 for _ in (repo / name).open(encoding="utf-8")), name)
            for name in files
            if name.split("/")[0] in PACKAGES and "/migrations/" not in name
        ),
        reverse=True,
    )
    print(f"longest files (of {len(sizes)}):")
    for lines, name in sizes[: args.longest]:
        print(f"  {lines:5d}  {name}")


if __name__ == "__main__":
    main()
