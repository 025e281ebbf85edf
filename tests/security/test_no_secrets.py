"""No secrets in the repository: the files git tracks (and the new ones it would add) hold no
private key, cloud key, hard-coded Django secret key, password in a URL (beyond documented
placeholders) or .env file."""

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from .conftest import PROJECT_ROOT

MAX_BYTES = 2_000_000

# Built from pieces so that this file does not match its own patterns.
BEGIN = "-----" + "BEGIN"
PATTERNS = {
    "private key": re.compile(BEGIN + r" (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"),
    "AWS access key id": re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    "AWS secret access key": re.compile(
        r"(?i)aws_?secret_?access_?key\s*[:=]\s*['\"]?[A-Za-z0-9/+=]{40}\b"
    ),
    "GitHub token": re.compile(r"\bgh[pousr]_[A-Za-z0-9]{36,}\b"),
    "Slack token": re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}"),
    "Stripe live key": re.compile(r"\b[sr]k_live_[A-Za-z0-9]{16,}"),
    "Django secret key": re.compile(r"""\bSECRET_KEY\s*[:=]\s*[rbuf]?(['"])(?P<value>[^'"]+)\1"""),
    "password in a URL": re.compile(
        r"\b[a-z][a-z0-9+.-]*://(?P<user>[^:@/\s'\"]*):(?P<password>[^@/\s'\"]+)@(?P<host>[^/:\s'\"]+)",
        re.IGNORECASE,
    ),
}

#: The development key, public on purpose (refused when debug is off: test_deploy_settings).
DEVELOPMENT_KEY = "django-insecure-development-only-key-do-not-use-in-production"
#: Credentials written as placeholders in the documentation and the test fixtures.
PLACEHOLDER_CREDENTIALS = {("user", "password"), ("user", "pass"), ("nardy", "p%40ss")}
#: Hosts that only ever appear in examples (RFC 2606 and RFC 6761 names).
EXAMPLE_HOSTS = re.compile(r"(?:^|\.)(?:example(?:\.com|\.net|\.org)?|test|invalid)$")
PLACEHOLDER_PASSWORD = re.compile(r"^(?:\$\{?\w+\}?|<[^>]+>|\{\w+\}|\*+|x+|\.\.\.|…|%s|pw|pass)$")


def repository_files() -> list[Path]:
    """What git tracks, plus untracked files it does not ignore (they would be committed next)."""
    if shutil.which("git") is None or not (PROJECT_ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=PROJECT_ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return sorted({Path(name) for name in listed.split("\0") if name})


def text_of(path: Path) -> str | None:
    full = PROJECT_ROOT / path
    if not full.is_file() or full.stat().st_size > MAX_BYTES:
        return None
    data = full.read_bytes()
    if b"\0" in data:
        return None  # binary (compiled translations, images)
    return data.decode("utf-8", errors="replace")


def allowed(kind: str, match: re.Match[str]) -> bool:
    if kind == "Django secret key":
        return match["value"] == DEVELOPMENT_KEY
    if kind == "password in a URL":
        user, password, host = match["user"], match["password"], match["host"].lower()
        return (
            (user, password) in PLACEHOLDER_CREDENTIALS
            or bool(PLACEHOLDER_PASSWORD.match(password))
            or bool(EXAMPLE_HOSTS.search(host))
        )
    return False


def findings(path: Path, text: str) -> list[str]:
    found = []
    for kind, pattern in PATTERNS.items():
        for match in pattern.finditer(text):
            if not allowed(kind, match):
                line = text.count("\n", 0, match.start()) + 1
                found.append(f"{path}:{line}: {kind}")
    return found


def test_no_tracked_file_holds_a_secret():
    files = repository_files()
    found = [f for path in files if (text := text_of(path)) for f in findings(path, text)]

    assert len(files) > 100  # the listing worked
    assert found == []


def test_no_env_file_is_in_the_repository():
    env_files = [
        path
        for path in repository_files()
        if path.name == ".env" or (path.name.startswith(".env.") and path.suffix != ".example")
    ]

    assert env_files == []


@pytest.mark.parametrize(
    ("kind", "sample"),
    [
        ("private key", BEGIN + " RSA PRIVATE KEY-----\nMIIE..."),
        ("private key", BEGIN + " OPENSSH PRIVATE KEY-----"),
        ("AWS access key id", "AKIA" + "ABCDEFGHIJKLMNOP"),
        ("AWS secret access key", "aws_secret_access_key = " + "a" * 40),
        ("GitHub token", "ghp_" + "a1" * 18),
        ("Django secret key", "SECRET" + "_KEY = 'k$3cr3t-real-looking-key'"),
        ("password in a URL", "postgres://nardy:" + "hunter2@db.internal:5432/nardy"),
        ("password in a URL", "redis://:" + "s3cret@cache.internal:6379/0"),
    ],
)
def test_the_scanner_finds_what_it_looks_for(kind, sample):
    assert findings(Path("sample.py"), sample) == [f"sample.py:1: {kind}"]


@pytest.mark.parametrize(
    "sample",
    [
        "SECRET" + f'_KEY = "{DEVELOPMENT_KEY}"',
        "postgres://user:" + "password@host:5432/name",
        "postgres://nardy@db.internal:5432/nardy",
        "rediss://:" + "pw@cache.example:6380/0",
        "postgres://nardy:" + "${DB_PASSWORD}@db.internal/nardy",
        'SECRET_KEY = env_str("DJANGO_SECRET_KEY")',
    ],
)
def test_the_scanner_lets_placeholders_be(sample):
    assert findings(Path("sample.py"), sample) == []
