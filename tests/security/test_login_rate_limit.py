"""Login rate limits: too many failures for a username or from a client address are answered 429
with Retry-After, before the password is looked at; a success clears the username's count."""

import html
from unittest import mock

import pytest
from django.contrib.auth.hashers import check_password as real_check_password
from django.contrib.auth.models import User
from django.core.cache import cache
from django.test import RequestFactory, override_settings
from django.urls import reverse

from nardy_site.accounts import ratelimit

pytestmark = pytest.mark.django_db

PASSWORD = "long-nardy-2024"
LIMITS = {
    "LOGIN_FAILURES_PER_USERNAME": 5,
    "LOGIN_FAILURES_PER_IP": 20,
    "LOGIN_FAILURE_WINDOW_SECONDS": 900,
}


@pytest.fixture(autouse=True)
def limits():
    with override_settings(**LIMITS):
        yield


@pytest.fixture
def anna():
    return User.objects.create_user("anna", password=PASSWORD)


def log_in(client, username, password, **extra):
    return client.post(reverse("login"), {"username": username, "password": password}, **extra)


def fail(client, username, times, **extra):
    for _ in range(times):
        assert log_in(client, username, "guess", **extra).status_code == 400


def text(response) -> str:
    return html.unescape(response.content.decode())


def test_after_five_failures_for_a_username_the_next_attempt_is_429_unchecked(client, anna):
    with mock.patch(
        "django.contrib.auth.base_user.check_password", wraps=real_check_password
    ) as checked:
        fail(client, "anna", 5)
        assert checked.call_count == 5
        refused = log_in(client, "anna", PASSWORD)

    assert refused.status_code == 429
    assert 0 < int(refused["Retry-After"]) <= 900
    assert "Too many failed logins" in text(refused)
    assert "try again in 15 min." in text(refused)
    assert 'data-role="throttled"' in text(refused)
    assert checked.call_count == 5  # the right password was not even looked at
    assert "_auth_user_id" not in client.session


def test_four_failures_leave_the_right_password_working(client, anna):
    fail(client, "anna", 4)

    assert log_in(client, "anna", PASSWORD).status_code == 302


def test_the_username_count_ignores_case(client, anna):
    fail(client, "Anna", 3)
    fail(client, "ANNA", 2)

    assert log_in(client, "anna", PASSWORD).status_code == 429


def test_a_success_clears_the_username_count(client, anna):
    fail(client, "anna", 4)
    assert log_in(client, "anna", PASSWORD).status_code == 302
    client.logout()

    fail(client, "anna", 4)  # a fresh count: four more are allowed
    assert log_in(client, "anna", PASSWORD).status_code == 302


def test_another_username_is_not_limited_by_annas_failures(client, anna):
    User.objects.create_user("boris", password=PASSWORD)
    fail(client, "anna", 5)

    assert log_in(client, "boris", PASSWORD).status_code == 302


def test_the_limit_holds_from_another_address_too(client, anna):
    fail(client, "anna", 5, REMOTE_ADDR="203.0.113.1")

    assert log_in(client, "anna", PASSWORD, REMOTE_ADDR="198.51.100.7").status_code == 429


def test_twenty_failures_from_one_address_stop_every_username_from_it(client, anna):
    for n in range(20):
        assert log_in(client, f"nobody{n}", "guess").status_code == 400

    here = log_in(client, "anna", PASSWORD)
    elsewhere = log_in(client, "anna", PASSWORD, REMOTE_ADDR="198.51.100.7")

    assert here.status_code == 429 and "Retry-After" in here
    assert elsewhere.status_code == 302


def test_retry_after_counts_down_the_window(client, anna):
    start = ratelimit.time.time()
    with mock.patch.object(ratelimit.time, "time", return_value=start):
        fail(client, "anna", 5)
    with mock.patch.object(ratelimit.time, "time", return_value=start + 600):
        refused = log_in(client, "anna", PASSWORD)

    assert refused.status_code == 429
    assert refused["Retry-After"] == "300"
    assert "try again in 5 min." in text(refused)


@override_settings(LOGIN_FAILURES_PER_USERNAME=2, LOGIN_FAILURE_WINDOW_SECONDS=60)
def test_the_limits_come_from_the_settings(client, anna):
    fail(client, "anna", 2)

    refused = log_in(client, "anna", PASSWORD)

    assert refused.status_code == 429 and int(refused["Retry-After"]) <= 60


def test_the_admin_login_is_limited_too(client, anna):
    """The admin's login checks passwords as well: after the limit it refuses unchecked."""
    User.objects.create_superuser("sam", password=PASSWORD)
    for _ in range(5):
        client.post("/admin/login/", {"username": "sam", "password": "guess"})

    response = client.post("/admin/login/", {"username": "sam", "password": PASSWORD})

    assert response.status_code == 200  # the admin's form again, not logged in
    assert "_auth_user_id" not in client.session


def test_the_window_ends_and_refused_attempts_do_not_extend_it(client, anna):
    fail(client, "anna", 5)
    for _ in range(10):
        assert log_in(client, "anna", PASSWORD).status_code == 429

    later = ratelimit.time.time() + 901
    # The cache forgets the counts when the window ends: LocMemCache by its own clock.
    with (
        mock.patch.object(ratelimit.time, "time", return_value=later),
        mock.patch("django.core.cache.backends.locmem.time.time", return_value=later),
    ):
        assert log_in(client, "anna", PASSWORD).status_code == 302


def test_when_the_cache_is_down_logins_still_work(client, anna):
    down = ConnectionError("down")
    with (
        mock.patch.object(ratelimit.cache, "get_many", side_effect=down),
        mock.patch.object(ratelimit.cache, "add", side_effect=down),
    ):
        assert log_in(client, "anna", "guess").status_code == 400
        assert log_in(client, "anna", PASSWORD).status_code == 302


# --- The client's address ----------------------------------------------------------------------


def request_from(remote: str, forwarded: str | None = None):
    extra = {"REMOTE_ADDR": remote}
    if forwarded is not None:
        extra["HTTP_X_FORWARDED_FOR"] = forwarded
    return RequestFactory().post("/accounts/login/", **extra)


def test_without_the_proxy_setting_x_forwarded_for_is_ignored():
    with override_settings(BEHIND_TLS_PROXY=False):
        assert ratelimit.client_ip(request_from("10.0.0.5", "203.0.113.9")) == "10.0.0.5"


@pytest.mark.parametrize(
    ("forwarded", "proxies", "expected"),
    [
        ("203.0.113.9", 1, "203.0.113.9"),
        # The client sent its own X-Forwarded-For; the proxy appended the real address.
        ("1.2.3.4, 203.0.113.9", 1, "203.0.113.9"),
        ("1.2.3.4, 203.0.113.9, 10.0.0.2", 2, "203.0.113.9"),
        ("", 1, "10.0.0.5"),
        ("not-an-address", 1, "10.0.0.5"),
        ("2001:db8::1", 1, "2001:db8::1"),
    ],
)
def test_behind_the_proxy_the_address_it_appended_is_the_client(forwarded, proxies, expected):
    with override_settings(BEHIND_TLS_PROXY=True, TRUSTED_PROXY_COUNT=proxies):
        assert ratelimit.client_ip(request_from("10.0.0.5", forwarded)) == expected


def test_behind_the_proxy_a_forged_first_hop_does_not_escape_the_limit(client, anna):
    with override_settings(BEHIND_TLS_PROXY=True):
        for n in range(20):
            forged = f"198.51.100.{n}, 203.0.113.9"
            assert log_in(client, f"x{n}", "guess", HTTP_X_FORWARDED_FOR=forged).status_code == 400

        refused = log_in(client, "anna", PASSWORD, HTTP_X_FORWARDED_FOR="192.0.2.1, 203.0.113.9")
        other = log_in(client, "anna", PASSWORD, HTTP_X_FORWARDED_FOR="203.0.113.10")

    assert refused.status_code == 429
    assert other.status_code == 302


# --- API tokens --------------------------------------------------------------------------------


def make_token(client, username, password):
    body = {"username": username, "password": password, "name": "bot"}
    return client.post("/api/v1/tokens/", body, content_type="application/json")


def test_failures_at_the_login_page_refuse_a_token_by_password_and_the_other_way(client, anna):
    """The API's password check is the login's: one count, not a second allowance of guesses."""
    fail(client, "anna", 5)
    refused_by_api = make_token(client, "anna", PASSWORD)
    cache.clear()
    for _ in range(5):
        assert make_token(client, "anna", "guess").status_code == 401
    refused_by_page = log_in(client, "anna", PASSWORD)

    assert refused_by_api.status_code == 429 and refused_by_page.status_code == 429
    assert refused_by_api.json()["error"]["code"] == "throttled"
    assert 0 < int(refused_by_api["Retry-After"]) <= 900


def test_a_token_by_password_from_an_address_past_its_limit_is_429_unchecked(client, anna):
    with mock.patch(
        "django.contrib.auth.base_user.check_password", wraps=real_check_password
    ) as checked:
        for n in range(20):
            assert make_token(client, f"x{n}", "guess").status_code == 401
        checked.reset_mock()
        refused = make_token(client, "anna", PASSWORD)

    assert refused.status_code == 429 and checked.call_count == 0
