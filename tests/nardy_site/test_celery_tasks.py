"""Every task the project defines is known to a worker: a worker registers only the tasks of the
modules Celery's autodiscovery imports, and a message for any other is discarded ("unregistered
task"), which tests running tasks in-process never see."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("nardy_site", "tournaments", "games")


def defined_tasks() -> set[str]:
    """The name of every ``@shared_task`` in the project's packages: its ``name=``, else
    ``module.function``."""
    found = set()
    for package in PACKAGES:
        for path in (PROJECT_ROOT / package).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            module = ".".join(path.relative_to(PROJECT_ROOT).with_suffix("").parts)
            for node in tree.body:
                if not isinstance(node, ast.FunctionDef):
                    continue
                for decorator in node.decorator_list:
                    if "shared_task" not in ast.unparse(decorator):
                        continue
                    keywords = decorator.keywords if isinstance(decorator, ast.Call) else []
                    named = [k.value for k in keywords if k.arg == "name"]
                    name = named[0].value if named and isinstance(named[0], ast.Constant) else None
                    found.add(str(name) if name else f"{module}.{node.name}")
    return found


def test_a_worker_registers_every_task_the_project_defines():
    """What a fresh worker process registers, as ``celery worker`` loads it."""
    script = (
        "import json, django; django.setup()\n"
        "from nardy_site.celery import app\n"
        "app.loader.import_default_modules()\n"
        "print(json.dumps(sorted(app.tasks)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script],
        cwd=PROJECT_ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={"DJANGO_SETTINGS_MODULE": "nardy_site.settings", "PATH": "/usr/bin:/bin"},
        check=True,
    )
    registered = set(json.loads(done.stdout.strip().splitlines()[-1]))
    defined = defined_tasks()
    assert "tournaments.analysis.tasks.analysis_run" in defined
    assert "tournaments.tasks.board_frames_prepare" in defined  # its name from before the move
    assert defined <= registered, f"not registered by a worker: {sorted(defined - registered)}"
