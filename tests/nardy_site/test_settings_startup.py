"""Start Django in a fresh process with a given environment: bad values must stop start-up."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

PROJECT_ROOT = Path(__file__).resolve().parents[2]
OUR_VARIABLES = (
    "DJANGO_SECRET_KEY",
    "DJANGO_DEBUG",
    "DJANGO_ALLOWED_HOSTS",
    "DJANGO_CSRF_TRUSTED_ORIGINS",
    "DATABASE_URL",
    "DATABASE_CONN_MAX_AGE",
    "DATABASE_PREPARED_STATEMENTS",
    "CELERY_BROKER_URL",
    "CELERY_RESULT_BACKEND",
    "TIME_ZONE",
)
SHOW_SETTINGS = (
    "import json, django; from django.conf import settings; django.setup(); "
    "print(json.dumps({'DEBUG': settings.DEBUG, 'ALLOWED_HOSTS': settings.ALLOWED_HOSTS, "
    "'ENGINE': settings.DATABASES['default']['ENGINE'], "
    "'EAGER': settings.CELERY_TASK_ALWAYS_EAGER, 'BROKER': settings.CELERY_BROKER_URL, "
    "'TIME_ZONE': settings.TIME_ZONE, "
    "'DATABASE_OPTIONS': settings.DATABASES['default'].get('OPTIONS', {})}, default=str))"
)


def start_django(code: str = SHOW_SETTINGS, **variables: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a fresh process with none of our variables but ``variables``."""
    env = {k: v for k, v in os.environ.items() if k not in OUR_VARIABLES}
    env.update(variables, DJANGO_SETTINGS_MODULE="nardy_site.settings")
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=PROJECT_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_it_starts_with_no_variables_set_in_local_mode():
    result = start_django()
    assert result.returncode == 0, result.stderr
    shown = json.loads(result.stdout)
    assert shown["DEBUG"] is True
    assert shown["ENGINE"] == "django.db.backends.sqlite3"
    assert shown["EAGER"] is True
    assert shown["TIME_ZONE"] == "UTC"


def test_it_starts_in_production_mode_when_everything_is_given():
    result = start_django(
        DJANGO_DEBUG="0",
        DJANGO_SECRET_KEY="a-real-secret",
        DJANGO_ALLOWED_HOSTS="nardy.example",
        DATABASE_URL="postgres://nardy@db.internal:5432/nardy",
        CELERY_BROKER_URL="redis://redis.internal:6379/0",
        TIME_ZONE="Europe/Riga",
    )
    assert result.returncode == 0, result.stderr
    shown = json.loads(result.stdout)
    assert shown["DEBUG"] is False
    assert shown["ALLOWED_HOSTS"] == ["nardy.example"]
    assert shown["ENGINE"] == "django.db.backends.postgresql"
    assert shown["EAGER"] is False
    assert shown["BROKER"] == "redis://redis.internal:6379/0"
    assert shown["TIME_ZONE"] == "Europe/Riga"


@pytest.mark.parametrize(
    ("variables", "named"),
    [
        ({"DATABASE_URL": "nonsense"}, "DATABASE_URL"),
        ({"DATABASE_URL": "postgres://h:port/x"}, "DATABASE_URL"),
        ({"DJANGO_DEBUG": "maybe"}, "DJANGO_DEBUG"),
        ({"DJANGO_DEBUG": "0", "DJANGO_ALLOWED_HOSTS": "nardy.example"}, "DJANGO_SECRET_KEY"),
        ({"DJANGO_DEBUG": "0", "DJANGO_SECRET_KEY": "s"}, "DJANGO_ALLOWED_HOSTS"),
        ({"DJANGO_ALLOWED_HOSTS": "a,,b"}, "DJANGO_ALLOWED_HOSTS"),
        ({"DATABASE_CONN_MAX_AGE": "-5"}, "DATABASE_CONN_MAX_AGE"),
        ({"CELERY_BROKER_URL": "localhost:6379"}, "CELERY_BROKER_URL"),
        ({"CELERY_RESULT_BACKEND": "redis"}, "CELERY_RESULT_BACKEND"),
        ({"TIME_ZONE": "Mars/Olympus_Mons"}, "TIME_ZONE"),
    ],
)
def test_a_bad_value_stops_start_up_naming_the_variable(variables, named):
    result = start_django(**variables)
    assert result.returncode != 0
    last_line = result.stderr.strip().splitlines()[-1]
    assert last_line.startswith(f"django.core.exceptions.ImproperlyConfigured: {named}: ")


def test_postgresql_statements_are_prepared_unless_switched_off():
    """Server-side binding, prepared once a kept connection has run a statement twice; off for
    PgBouncer in transaction mode."""
    url = "postgres://nardy@db.internal:5432/nardy"
    prepared = json.loads(start_django(DATABASE_URL=url).stdout)["DATABASE_OPTIONS"]
    assert prepared["server_side_binding"] is True
    assert prepared["prepare_threshold"] == 2
    plain = start_django(DATABASE_URL=url, DATABASE_PREPARED_STATEMENTS="0")
    assert "server_side_binding" not in json.loads(plain.stdout)["DATABASE_OPTIONS"]
    sqlite = json.loads(start_django().stdout)["DATABASE_OPTIONS"]
    assert "server_side_binding" not in sqlite


def test_a_wsgi_worker_loads_every_view_and_freezes_what_it_loaded():
    result = start_django(
        "import gc, sys, nardy_site.wsgi; "
        "print(gc.get_freeze_count(), 'tournaments.web.seasons' in sys.modules)"
    )
    assert result.returncode == 0, result.stderr
    frozen, views_loaded = result.stdout.split()
    assert int(frozen) > 50_000 and views_loaded == "True"
