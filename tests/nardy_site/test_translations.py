"""The Russian interface is complete: every message the code and the templates mark for
translation is in locale/ru, translated, not fuzzy, and compiled into the .mo that ships.

`makemessages` runs on a copy of the sources, so the check sees exactly what the code marks
today. It needs GNU gettext (Debian's ``gettext``); without it the test is skipped, except on CI.
"""

from __future__ import annotations

import ast
import gettext
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("manage.py", "nardy_site", "games", "tournaments", "templates", "locale")
CATALOGUE = Path("locale/ru/LC_MESSAGES/django.po")
IN_CI = os.environ.get("CI", "").lower() == "true"


def po_entries(path: Path) -> list[dict[str, object]]:
    """The entries of a .po file: context, id, plural id, translations and flags."""
    entries: list[dict[str, object]] = []
    entry: dict[str, object] = {}
    field = ""

    def finish() -> None:
        if "msgid" in entry:
            entries.append(dict(entry))
        entry.clear()

    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            finish()
        elif line.startswith("#,"):
            finish()
            entry["flags"] = {flag.strip() for flag in line[2:].split(",")}
        elif line.startswith("#~"):
            continue  # obsolete
        elif line.startswith("#"):
            continue
        elif line.startswith('"'):
            entry[field] = str(entry[field]) + ast.literal_eval(line)
        else:
            field, _, value = line.partition(" ")
            if field == "msgid" and "msgid" in entry:
                finish()
            entry[field] = ast.literal_eval(value)
    finish()
    return [e for e in entries if e["msgid"] != ""]  # the header


def untranslated(path: Path) -> list[str]:
    missing = []
    for entry in po_entries(path):
        strings = [value for key, value in entry.items() if str(key).startswith("msgstr")]
        if "fuzzy" in entry.get("flags", set()) or not all(strings):  # type: ignore[operator]
            missing.append(str(entry["msgid"]))
    return missing


def require_gettext() -> None:
    if shutil.which("xgettext") and shutil.which("msgfmt"):
        return
    if IN_CI:
        pytest.fail("GNU gettext is needed to check the translations (apt-get install gettext)")
    pytest.skip("GNU gettext is not installed")


def test_the_russian_catalogue_has_every_message_translated(tmp_path):
    require_gettext()
    copy = tmp_path / "project"
    for name in SOURCES:
        source = PROJECT_ROOT / name
        if source.is_dir():
            shutil.copytree(source, copy / name, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            copy.mkdir(exist_ok=True)
            shutil.copy(source, copy / name)
    subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "ru", "--no-obsolete", "--no-location"],
        cwd=copy,
        check=True,
        capture_output=True,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "nardy_site.settings"},
    )

    extracted = {str(e["msgid"]) for e in po_entries(copy / CATALOGUE)}
    committed = {str(e["msgid"]) for e in po_entries(PROJECT_ROOT / CATALOGUE)}
    assert sorted(extracted - committed) == [], "messages missing from locale/ru: makemessages"
    assert untranslated(copy / CATALOGUE) == []


def test_the_shipped_mo_file_is_the_compiled_catalogue(tmp_path):
    require_gettext()
    compiled = tmp_path / "django.mo"
    subprocess.run(
        ["msgfmt", "--check", "-o", str(compiled), str(PROJECT_ROOT / CATALOGUE)],
        check=True,
        capture_output=True,
    )
    with (
        compiled.open("rb") as fresh,
        (PROJECT_ROOT / CATALOGUE.with_suffix(".mo")).open("rb") as shipped,
    ):
        assert gettext.GNUTranslations(shipped)._catalog == gettext.GNUTranslations(fresh)._catalog  # type: ignore[attr-defined]
