"""The rules engine is pure Python: nothing under games/rules may import Django or the site."""

import ast
import subprocess
import sys
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parents[2]
RULES_DIR = PROJECT_ROOT / "games" / "rules"
FORBIDDEN = (
    "django",
    "rest_framework",
    "celery",
    "nardy_site",
    "tournaments",
    "games.models",
    "games.services",
    "games.migrations",
)


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


def is_forbidden(module: str) -> bool:
    return any(module == name or module.startswith(name + ".") for name in FORBIDDEN)


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


def test_no_file_under_games_rules_imports_django_or_the_site():
    files = sorted(RULES_DIR.rglob("*.py"))
    assert files, f"no Python files under {RULES_DIR}"
    offenders = [
        f"{path.relative_to(PROJECT_ROOT)}: {module}"
        for path in files
        for module in imported_modules(path)
        if is_forbidden(module)
    ]
    assert not offenders, "games/rules must stay pure Python:\n" + "\n".join(offenders)


def test_importing_every_rules_module_loads_no_django():
    program = (
        "import importlib, pkgutil, sys\n"
        "import games.rules as rules\n"
        "for info in pkgutil.walk_packages(rules.__path__, 'games.rules.'):\n"
        "    if not info.name.endswith('.__main__'):  # running it would start the CLI\n"
        "        importlib.import_module(info.name)\n"
        "loaded = sorted(m for m in sys.modules if m.split('.')[0] in {'django', 'nardy_site',"
        " 'tournaments', 'celery', 'rest_framework'})\n"
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
    assert result.stdout.strip() == "", "importing games.rules loaded:\n" + result.stdout
