from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from nardy_site.env import (
    env_bool,
    env_broker_url,
    env_database,
    env_int,
    env_list,
    env_rate,
    env_str,
    env_timezone,
    env_url,
)

SQLITE_DEFAULT = {"ENGINE": "django.db.backends.sqlite3", "NAME": Path("db.sqlite3")}


def rejects(name: str):
    """Expect ImproperlyConfigured whose message starts with the variable's name."""
    return pytest.raises(ImproperlyConfigured, match=rf"^{name}: ")


def test_unset_variables_take_their_defaults():
    assert env_str("X", "fallback", environ={}) == "fallback"
    assert env_str("X", environ={}) is None
    assert env_bool("X", True, environ={}) is True
    assert env_int("X", 7, environ={}) == 7
    assert env_list("X", ["a"], environ={}) == ["a"]
    assert env_timezone("X", "UTC", environ={}) == "UTC"
    assert env_database("X", SQLITE_DEFAULT, environ={}) == SQLITE_DEFAULT
    assert env_broker_url("X", environ={}) is None
    assert env_url("X", environ={}) is None


@pytest.mark.parametrize(
    "helper",
    [
        lambda e: env_str("X", "d", environ=e),
        lambda e: env_bool("X", True, environ=e),
        lambda e: env_int("X", 1, environ=e),
        lambda e: env_list("X", [], environ=e),
        lambda e: env_timezone("X", "UTC", environ=e),
        lambda e: env_database("X", SQLITE_DEFAULT, environ=e),
        lambda e: env_broker_url("X", environ=e),
        lambda e: env_url("X", environ=e),
    ],
)
def test_an_empty_value_is_rejected_not_silently_defaulted(helper):
    with rejects("X"):
        helper({"X": "  "})


def test_str_strips_surrounding_blanks():
    assert env_str("X", environ={"X": " secret "}) == "secret"


@pytest.mark.parametrize("word", ["1", "true", "True", "YES", "on"])
def test_bool_accepts_true_words(word):
    assert env_bool("X", False, environ={"X": word}) is True


@pytest.mark.parametrize("word", ["0", "false", "FALSE", "no", "Off"])
def test_bool_accepts_false_words(word):
    assert env_bool("X", True, environ={"X": word}) is False


@pytest.mark.parametrize("word", ["maybe", "2", "y", "enabled"])
def test_bool_rejects_other_words(word):
    with rejects("DJANGO_DEBUG"):
        env_bool("DJANGO_DEBUG", True, environ={"DJANGO_DEBUG": word})


def test_int_parses_decimal_integers():
    assert env_int("X", 0, environ={"X": "42"}) == 42
    assert env_int("X", 0, environ={"X": "-3"}) == -3


@pytest.mark.parametrize("value", ["4.5", "ten", "0x10", "1_0 0"])
def test_int_rejects_non_integers(value):
    with rejects("X"):
        env_int("X", 0, environ={"X": value})


def test_int_enforces_bounds():
    assert env_int("X", 0, minimum=0, maximum=10, environ={"X": "10"}) == 10
    with rejects("X"):
        env_int("X", 0, minimum=0, environ={"X": "-1"})
    with rejects("X"):
        env_int("X", 0, maximum=10, environ={"X": "11"})


def test_list_splits_on_commas_and_strips_items():
    assert env_list("X", [], environ={"X": "a.example, b.example ,[::1]"}) == [
        "a.example",
        "b.example",
        "[::1]",
    ]


@pytest.mark.parametrize("value", ["a,,b", "a,", ",a"])
def test_list_rejects_empty_items(value):
    with rejects("DJANGO_ALLOWED_HOSTS"):
        env_list("DJANGO_ALLOWED_HOSTS", [], environ={"DJANGO_ALLOWED_HOSTS": value})


@pytest.mark.parametrize("zone", ["UTC", "Europe/Riga", "Asia/Baku"])
def test_timezone_accepts_iana_names(zone):
    assert env_timezone("TIME_ZONE", "UTC", environ={"TIME_ZONE": zone}) == zone


@pytest.mark.parametrize("zone", ["Mars/Olympus_Mons", "GMT+25", "../etc/passwd"])
def test_timezone_rejects_unknown_names(zone):
    with rejects("TIME_ZONE"):
        env_timezone("TIME_ZONE", "UTC", environ={"TIME_ZONE": zone})


def test_database_parses_a_postgres_url():
    config = env_database(
        "DATABASE_URL",
        SQLITE_DEFAULT,
        conn_max_age=60,
        environ={"DATABASE_URL": "postgres://nardy:p%40ss@db.internal:5433/nardy"},
    )
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["USER"], config["PASSWORD"]) == ("nardy", "p@ss")
    assert (config["HOST"], config["PORT"], config["NAME"]) == ("db.internal", 5433, "nardy")
    assert config["CONN_MAX_AGE"] == 60


def test_database_parses_a_sqlite_url():
    config = env_database(
        "DATABASE_URL", SQLITE_DEFAULT, environ={"DATABASE_URL": "sqlite:////tmp/nardy.sqlite3"}
    )
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == "/tmp/nardy.sqlite3"


@pytest.mark.parametrize(
    "url",
    [
        "nonsense",
        "http://example.com/db",
        "mysql://root@localhost/nardy",
        "postgres://host:notaport/nardy",
        "postgres://postgres@127.0.0.1:5432",
        "://nowhere",
    ],
)
def test_database_rejects_malformed_or_unsupported_urls(url):
    with rejects("DATABASE_URL"):
        env_database("DATABASE_URL", SQLITE_DEFAULT, environ={"DATABASE_URL": url})


@pytest.mark.parametrize(
    "url", ["redis://127.0.0.1:6379/0", "rediss://h:6380/1", "amqp://guest@h//", "memory://"]
)
def test_broker_url_accepts_supported_schemes(url):
    assert env_broker_url("CELERY_BROKER_URL", environ={"CELERY_BROKER_URL": url}) == url


@pytest.mark.parametrize("url", ["nonsense", "127.0.0.1:6379", "http://h/", "kafka://h:9092"])
def test_broker_url_rejects_other_values(url):
    with rejects("CELERY_BROKER_URL"):
        env_broker_url("CELERY_BROKER_URL", environ={"CELERY_BROKER_URL": url})


def test_url_requires_a_scheme():
    assert env_url("X", environ={"X": "redis://h/2"}) == "redis://h/2"
    with rejects("CELERY_RESULT_BACKEND"):
        env_url("CELERY_RESULT_BACKEND", environ={"CELERY_RESULT_BACKEND": "redis"})


# --- Rate limits (nardy_site.throttle) ---------------------------------------------------------


@pytest.mark.parametrize("rate", ["5/m", "60/10m", "240/h", "1/s", "1000/d"])
def test_a_rate_is_a_count_per_period(rate):
    assert env_rate("X", "1/h", environ={"X": rate}) == rate
    assert env_rate("X", rate, environ={}) == rate


MALFORMED_RATES = ["20", "20/", "/m", "0/m", "20/0m", "20/x", "20/10", "20/mm", "-1/m",
                   "20 per minute", "20/1.5m", "5/m/h"]  # fmt: skip


@pytest.mark.parametrize("rate", MALFORMED_RATES)
def test_a_malformed_rate_stops_start_up(rate):
    with rejects("LIMIT"):
        env_rate("LIMIT", "5/m", environ={"LIMIT": rate})
