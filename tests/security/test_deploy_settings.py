"""Production settings pass `manage.py check --deploy`, local mode keeps plain HTTP, and the
responses of a production configuration carry the security headers and secure cookies."""

import json
import secrets

import pytest
from django.contrib.auth.models import User
from django.core.exceptions import ImproperlyConfigured
from django.test import Client, override_settings
from django.urls import reverse

from nardy_site.env import env_broker_url, env_cache, env_database

from .conftest import run_django

#: The settings of this issue, as the subprocess computes them from its environment.
SECURITY_SETTINGS = (
    "DEBUG", "SECURE_PROXY_SSL_HEADER", "SECURE_SSL_REDIRECT", "SECURE_REDIRECT_EXEMPT",
    "SECURE_HSTS_SECONDS", "SECURE_HSTS_INCLUDE_SUBDOMAINS", "SECURE_HSTS_PRELOAD",
    "SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "SESSION_COOKIE_HTTPONLY",
    "SESSION_COOKIE_SAMESITE", "CSRF_COOKIE_SAMESITE", "SECURE_CONTENT_TYPE_NOSNIFF",
    "SECURE_REFERRER_POLICY", "SECURE_CROSS_ORIGIN_OPENER_POLICY", "X_FRAME_OPTIONS",
    "BEHIND_TLS_PROXY", "TRUSTED_PROXY_COUNT", "CACHES", "LOGIN_FAILURES_PER_USERNAME",
    "LOGIN_FAILURES_PER_IP", "LOGIN_FAILURE_WINDOW_SECONDS", "AUTHENTICATION_BACKENDS",
)  # fmt: skip
SHOW_SETTINGS = (
    "import json, django; from django.conf import settings; django.setup(); "
    f"print(json.dumps({{name: getattr(settings, name) for name in {SECURITY_SETTINGS!r}}}))"
)


def production(**more: str) -> dict[str, str]:
    """The environment of a production deployment (nothing is connected to by these tests); a
    variable given as "" is left unset."""
    environment = {
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(64),  # 86 characters
        "DJANGO_ALLOWED_HOSTS": "nardy.example",
        "DJANGO_CSRF_TRUSTED_ORIGINS": "https://nardy.example",
        "DATABASE_URL": "postgres://nardy@db.internal:5432/nardy",
        "CELERY_BROKER_URL": "redis://redis.internal:6379/0",
        "CACHE_URL": "redis://redis.internal:6379/2",
        **more,
    }
    return {name: value for name, value in environment.items() if value}


def settings_of(**variables: str) -> dict:
    result = run_django(["-c", SHOW_SETTINGS], **variables)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def check_deploy(**variables: str):
    return run_django(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], **variables)


# --- manage.py check --deploy ------------------------------------------------------------------


def test_check_deploy_is_clean_with_production_settings():
    result = check_deploy(**production())

    assert result.returncode == 0, result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_is_clean_behind_a_tls_proxy_too():
    result = check_deploy(**production(DJANGO_BEHIND_TLS_PROXY="1"))

    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize(
    ("variables", "warnings"),
    [
        ({"DJANGO_SECURE_SSL_REDIRECT": "0"}, ["security.W008"]),
        ({"DJANGO_SECURE_COOKIES": "0"}, ["security.W012", "security.W016"]),
        ({"DJANGO_HSTS_SECONDS": "0"}, ["security.W004"]),
        ({"DJANGO_SECRET_KEY": "short-and-known"}, ["security.W009"]),
        ({"CACHE_URL": ""}, ["accounts.W001"]),
    ],
    ids=["no-redirect", "insecure-cookies", "no-hsts", "weak-secret", "no-shared-cache"],
)
def test_check_deploy_catches_what_production_must_not_switch_off(variables, warnings):
    """The clean result above means something: switching a protection off is reported."""
    result = check_deploy(**production(**variables))

    assert result.returncode != 0
    assert all(warning in result.stderr for warning in warnings), result.stderr


# --- Local mode and the values read from the environment ---------------------------------------


def test_local_mode_needs_no_variables_and_speaks_plain_http():
    shown = settings_of()
    check = run_django(["manage.py", "check"])

    assert check.returncode == 0, check.stderr
    assert shown["DEBUG"] is True
    assert shown["SECURE_SSL_REDIRECT"] is False
    assert shown["SECURE_HSTS_SECONDS"] == 0
    assert shown["SESSION_COOKIE_SECURE"] is False and shown["CSRF_COOKIE_SECURE"] is False
    assert shown["SECURE_PROXY_SSL_HEADER"] is None
    assert shown["CACHES"]["default"]["BACKEND"].endswith("LocMemCache")
    # Protections that cost nothing over HTTP stay on.
    assert shown["X_FRAME_OPTIONS"] == "DENY" and shown["SECURE_CONTENT_TYPE_NOSNIFF"] is True
    assert (shown["LOGIN_FAILURES_PER_USERNAME"], shown["LOGIN_FAILURES_PER_IP"]) == (5, 20)
    assert shown["LOGIN_FAILURE_WINDOW_SECONDS"] == 900


def test_production_defaults_are_the_safe_ones():
    shown = settings_of(**production())

    assert shown["DEBUG"] is False
    assert shown["SECURE_SSL_REDIRECT"] is True
    assert shown["SECURE_REDIRECT_EXEMPT"] == [r"^healthz$"]
    assert shown["SECURE_HSTS_SECONDS"] == 31_536_000
    assert shown["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is True
    assert shown["SECURE_HSTS_PRELOAD"] is False
    assert shown["SESSION_COOKIE_SECURE"] is True and shown["CSRF_COOKIE_SECURE"] is True
    assert shown["SESSION_COOKIE_HTTPONLY"] is True
    assert shown["SESSION_COOKIE_SAMESITE"] == "Lax" == shown["CSRF_COOKIE_SAMESITE"]
    assert shown["SECURE_REFERRER_POLICY"] == "same-origin"
    assert shown["SECURE_CROSS_ORIGIN_OPENER_POLICY"] == "same-origin"
    # Not behind a proxy unless told: a client's X-Forwarded-Proto is not believed.
    assert shown["SECURE_PROXY_SSL_HEADER"] is None
    assert shown["CACHES"]["default"] == {
        "BACKEND": "nardy_site.cache.TolerantRedisCache",
        "LOCATION": "redis://redis.internal:6379/2",
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
        "KEY_PREFIX": "nardy",
    }


def test_every_protection_follows_its_variable():
    shown = settings_of(
        **production(
            DJANGO_BEHIND_TLS_PROXY="yes",
            DJANGO_TRUSTED_PROXY_COUNT="2",
            DJANGO_HSTS_SECONDS="3600",
            DJANGO_HSTS_INCLUDE_SUBDOMAINS="0",
            DJANGO_HSTS_PRELOAD="1",
            LOGIN_FAILURES_PER_USERNAME="3",
            LOGIN_FAILURES_PER_IP="50",
            LOGIN_FAILURE_WINDOW_SECONDS="60",
        )
    )

    assert shown["SECURE_PROXY_SSL_HEADER"] == ["HTTP_X_FORWARDED_PROTO", "https"]
    assert shown["BEHIND_TLS_PROXY"] is True and shown["TRUSTED_PROXY_COUNT"] == 2
    assert shown["SECURE_HSTS_SECONDS"] == 3600
    assert shown["SECURE_HSTS_INCLUDE_SUBDOMAINS"] is False
    assert shown["SECURE_HSTS_PRELOAD"] is True
    assert (shown["LOGIN_FAILURES_PER_USERNAME"], shown["LOGIN_FAILURES_PER_IP"]) == (3, 50)
    assert shown["LOGIN_FAILURE_WINDOW_SECONDS"] == 60


@pytest.mark.parametrize(
    ("variables", "named"),
    [
        ({"DJANGO_BEHIND_TLS_PROXY": "maybe"}, "DJANGO_BEHIND_TLS_PROXY"),
        ({"DJANGO_HSTS_SECONDS": "-1"}, "DJANGO_HSTS_SECONDS"),
        ({"DJANGO_SECURE_COOKIES": "sometimes"}, "DJANGO_SECURE_COOKIES"),
        ({"CACHE_URL": "memcached://cache:11211"}, "CACHE_URL"),
        ({"LOGIN_FAILURES_PER_USERNAME": "0"}, "LOGIN_FAILURES_PER_USERNAME"),
        ({"LOGIN_FAILURE_WINDOW_SECONDS": "15m"}, "LOGIN_FAILURE_WINDOW_SECONDS"),
    ],
)
def test_a_bad_value_stops_start_up_naming_the_variable(variables, named):
    result = run_django(["-c", SHOW_SETTINGS], **variables)

    assert result.returncode != 0
    last_line = result.stderr.strip().splitlines()[-1]
    assert last_line.startswith(f"django.core.exceptions.ImproperlyConfigured: {named}: ")


def test_the_development_secret_key_is_refused_when_debug_is_off():
    from nardy_site.settings import DEVELOPMENT_SECRET_KEY  # noqa: PLC0415

    result = run_django(
        ["-c", SHOW_SETTINGS], **production(DJANGO_SECRET_KEY=DEVELOPMENT_SECRET_KEY)
    )
    missing = run_django(["-c", SHOW_SETTINGS], **production(DJANGO_SECRET_KEY=""))

    for refused in (result, missing):
        assert refused.returncode != 0
        last_line = refused.stderr.strip().splitlines()[-1]
        assert last_line.startswith(
            "django.core.exceptions.ImproperlyConfigured: DJANGO_SECRET_KEY"
        )


@pytest.mark.parametrize(
    "url",
    ["redis://redis.internal:6379/2", "rediss://:pw@cache.example:6380/0", "unix:///run/r.sock"],
)
def test_a_redis_cache_url_makes_a_shared_cache(url):
    assert env_cache("CACHE_URL", {}, environ={"CACHE_URL": url}) == {
        "BACKEND": "nardy_site.cache.TolerantRedisCache",
        "LOCATION": url,
        "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5},
    }


def test_without_a_cache_url_the_default_is_kept():
    default = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}

    assert env_cache("CACHE_URL", default, environ={}) == default
    with pytest.raises(ImproperlyConfigured, match="^CACHE_URL: "):
        env_cache("CACHE_URL", default, environ={"CACHE_URL": "localhost:6379"})


# --- The responses of a production configuration ----------------------------------------------


@pytest.fixture(scope="module")
def production_settings() -> dict:
    """The security settings production computes, behind a TLS proxy, to apply in this process."""
    shown = settings_of(**production(DJANGO_BEHIND_TLS_PROXY="1"))
    shown["SECURE_PROXY_SSL_HEADER"] = tuple(shown["SECURE_PROXY_SSL_HEADER"])
    for local in ("DEBUG", "CACHES", "AUTHENTICATION_BACKENDS"):
        shown.pop(local)
    return shown


@pytest.fixture
def prod_client(production_settings):
    """A client whose first request (when the middleware is built) sees production's settings."""
    with override_settings(**production_settings):
        yield Client()


HTTPS = {"HTTP_X_FORWARDED_PROTO": "https"}


@pytest.mark.django_db
def test_pages_carry_the_security_headers(prod_client):
    response = prod_client.get(reverse("home"), **HTTPS)

    assert response.status_code == 200
    assert response["Strict-Transport-Security"] == "max-age=31536000; includeSubDomains"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["X-Frame-Options"] == "DENY"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"


@pytest.mark.django_db
def test_plain_http_is_redirected_except_the_health_check(prod_client):
    page = prod_client.get(reverse("home"))
    health = prod_client.get("/healthz")

    assert page.status_code == 301 and page["Location"] == "https://testserver/"
    assert health.status_code in (200, 503)  # answered, not redirected
    assert "status" in health.json()
    assert "Strict-Transport-Security" not in health  # HSTS only goes out over HTTPS


@pytest.mark.django_db
def test_a_client_cannot_claim_https_unless_django_is_behind_the_proxy(production_settings):
    direct = {**production_settings, "SECURE_PROXY_SSL_HEADER": None}
    with override_settings(**direct):
        response = Client().get(reverse("home"), **HTTPS)

    assert response.status_code == 301


@pytest.mark.django_db
def test_the_login_sets_secure_http_only_same_site_cookies(prod_client):
    User.objects.create_user("anna", password="long-nardy-2024")
    page = prod_client.get(reverse("login"), **HTTPS)

    response = prod_client.post(
        reverse("login"), {"username": "anna", "password": "long-nardy-2024"}, **HTTPS
    )

    assert response.status_code == 302
    session = response.cookies["sessionid"].OutputString()
    assert "Secure" in session and "HttpOnly" in session and "SameSite=Lax" in session
    csrf = page.cookies["csrftoken"].OutputString()
    assert "Secure" in csrf and "SameSite=Lax" in csrf


@pytest.mark.parametrize(
    ("helper", "value"),
    [
        (
            lambda environ: env_cache("CACHE_URL", {}, environ=environ),
            "memcached://u:" + "hunter2@c:1",
        ),
        (
            lambda environ: env_broker_url("CACHE_URL", environ=environ),
            "http://:" + "hunter2@broker.internal:80/",
        ),
        (
            lambda environ: env_database("CACHE_URL", {}, environ=environ),
            "mysql://nardy:" + "hunter2@db.internal/nardy",
        ),
    ],
)
def test_a_refused_url_is_named_without_its_password(helper, value):
    with pytest.raises(ImproperlyConfigured) as refused:
        helper({"CACHE_URL": value})

    assert "hunter2" not in str(refused.value)
    assert ":***@" in str(refused.value)
