"""Read configuration from environment variables, failing loudly on bad values.

Every helper takes the variable's name, a default used when the variable is unset, and an
optional ``environ`` mapping (``os.environ`` when omitted) so the parsing can be tested without
touching the process environment. A variable that is set is never ignored: a malformed or empty
value raises ``ImproperlyConfigured`` with a message that starts with the variable's name.
"""

from __future__ import annotations

import os
import re
import zoneinfo
from collections.abc import Mapping
from typing import Any

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})

# The database engines this project ships drivers for and tests on.
DATABASE_SCHEMES = {
    "sqlite": "sqlite",
    "postgres": "postgresql",
    "postgresql": "postgresql",
    "pgsql": "postgresql",
}

# Brokers Celery can reach with the packages this project installs (celery[redis] and kombu's
# own py-amqp dependency); "memory" is in-process and only useful for tests.
BROKER_SCHEMES = frozenset({"redis", "rediss", "sentinel", "amqp", "amqps", "pyamqp", "memory"})

# Caches: Django's own Redis backend (redis-py understands these schemes).
CACHE_SCHEMES = frozenset({"redis", "rediss", "unix"})

_URL_SCHEME = re.compile(r"^([a-z][a-z0-9+.-]*)://", re.IGNORECASE)


_URL_PASSWORD = re.compile(r"(://[^:/@\s]*:)[^@/\s]+@")


def _bad(name: str, value: str, expected: str) -> ImproperlyConfigured:
    # The message ends up in logs: a password in a URL is not repeated there.
    shown = _URL_PASSWORD.sub(r"\1***@", value)
    return ImproperlyConfigured(f"{name}: {expected}, got {shown!r}")


def _raw(name: str, environ: Mapping[str, str] | None) -> str | None:
    """The variable's value, or None when unset; an empty value is an error."""
    value = (os.environ if environ is None else environ).get(name)
    if value is None:
        return None
    if not value.strip():
        raise ImproperlyConfigured(f"{name}: is set but empty; unset it to use the default")
    return value.strip()


def env_str(
    name: str, default: str | None = None, *, environ: Mapping[str, str] | None = None
) -> str | None:
    """The variable as a string, or ``default`` when unset."""
    value = _raw(name, environ)
    return default if value is None else value


def env_bool(name: str, default: bool, *, environ: Mapping[str, str] | None = None) -> bool:
    """1/true/yes/on or 0/false/no/off, in any case."""
    value = _raw(name, environ)
    if value is None:
        return default
    word = value.lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise _bad(name, value, "expected one of 1/0, true/false, yes/no, on/off")


def env_int(
    name: str,
    default: int,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    environ: Mapping[str, str] | None = None,
) -> int:
    """A decimal integer, optionally bounded (bounds inclusive)."""
    value = _raw(name, environ)
    if value is None:
        return default
    try:
        number = int(value, 10)
    except ValueError:
        raise _bad(name, value, "expected an integer") from None
    if minimum is not None and number < minimum:
        raise _bad(name, value, f"expected an integer >= {minimum}")
    if maximum is not None and number > maximum:
        raise _bad(name, value, f"expected an integer <= {maximum}")
    return number


#: A rate as django-ratelimit reads it: a count, "/", then a period (s, m, h or d) that a number
#: of them may precede: "5/m", "60/10m", "240/h".
_RATE = re.compile(r"([0-9]+)/([0-9]*)([smhd])")


def env_rate(name: str, default: str, *, environ: Mapping[str, str] | None = None) -> str:
    """A rate limit such as ``20/10m`` (20 in each 10 minutes): a count of at least 1, "/", and
    ``s``, ``m``, ``h`` or ``d``, optionally after how many of them make the window."""
    value = _raw(name, environ) or default
    match = _RATE.fullmatch(value)
    if match is None or int(match[1]) < 1 or (match[2] and int(match[2]) < 1):
        raise _bad(
            name,
            value,
            'expected a rate such as 20/10m: a count from 1, "/", then s, m, h or d '
            "(seconds, minutes, hours, days), optionally after a number of them",
        )
    return value


def env_list(
    name: str, default: list[str], *, environ: Mapping[str, str] | None = None
) -> list[str]:
    """A comma-separated list; blanks around items are stripped, empty items are an error."""
    value = _raw(name, environ)
    if value is None:
        return list(default)
    items = [item.strip() for item in value.split(",")]
    if not all(items):
        raise _bad(name, value, "expected a comma-separated list without empty items")
    return items


def env_timezone(name: str, default: str, *, environ: Mapping[str, str] | None = None) -> str:
    """An IANA time zone name such as ``Europe/Riga``."""
    value = _raw(name, environ) or default
    try:
        zoneinfo.ZoneInfo(value)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise _bad(name, value, "expected an IANA time zone name such as Europe/Riga") from None
    return value


def env_database(
    name: str,
    default: dict[str, Any],
    *,
    conn_max_age: int = 0,
    environ: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """A database URL (``postgres://user:pass@host:5432/name`` or ``sqlite:///path``) as a
    Django ``DATABASES`` entry."""
    value = _raw(name, environ)
    if value is None:
        return dict(default)
    expected = (
        "expected a database URL such as postgres://user:password@host:5432/name or "
        "sqlite:///path/to/db.sqlite3"
    )
    match = _URL_SCHEME.match(value)
    if not match or match.group(1).lower() not in DATABASE_SCHEMES:
        raise _bad(name, value, expected)
    try:
        config = dj_database_url.parse(value, conn_max_age=conn_max_age, conn_health_checks=True)
    except ValueError as exc:  # dj_database_url's ParseError and UnknownSchemeError
        raise _bad(name, value, f"{expected} ({exc})") from None
    if not config.get("NAME"):
        raise _bad(name, value, f"{expected} (the database name is missing)")
    return dict(config)


def env_broker_url(name: str, *, environ: Mapping[str, str] | None = None) -> str | None:
    """A Celery broker URL such as ``redis://host:6379/0``, or None when unset."""
    value = _raw(name, environ)
    if value is None:
        return None
    match = _URL_SCHEME.match(value)
    if not match or match.group(1).lower() not in BROKER_SCHEMES:
        schemes = ", ".join(sorted(BROKER_SCHEMES))
        raise _bad(name, value, f"expected a broker URL with one of the schemes {schemes}")
    return value


def env_url(name: str, *, environ: Mapping[str, str] | None = None) -> str | None:
    """Any ``scheme://...`` URL, or None when unset."""
    value = _raw(name, environ)
    if value is None:
        return None
    if not _URL_SCHEME.match(value):
        raise _bad(name, value, "expected a URL of the form scheme://...")
    return value


def env_cache(
    name: str, default: dict[str, Any], *, environ: Mapping[str, str] | None = None
) -> dict[str, Any]:
    """A cache URL (``redis://host:6379/2``) as a Django ``CACHES`` entry on Django's Redis
    backend, made tolerant of Redis failures (``nardy_site.cache``), or ``default`` when
    unset."""
    value = _raw(name, environ)
    if value is None:
        return dict(default)
    match = _URL_SCHEME.match(value)
    if not match or match.group(1).lower() not in CACHE_SCHEMES:
        schemes = ", ".join(sorted(CACHE_SCHEMES))
        raise _bad(name, value, f"expected a Redis URL with one of the schemes {schemes}")
    return {
        "BACKEND": "nardy_site.cache.TolerantRedisCache",
        "LOCATION": value,
        # A hung Redis costs a request at most this long once; then the process skips it.
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }
