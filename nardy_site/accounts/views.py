"""Signing up and logging in on the site's pages (API tokens are in ``api.py``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import UserCreationForm
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.http import url_has_allowed_host_and_scheme

from nardy_site.accounts import ratelimit


def signup(request: HttpRequest) -> HttpResponse:
    """A new account, logged in at once, back where the visitor came from (``next``)."""
    next_url = request.POST.get("next") or request.GET.get("next") or ""
    if request.method != "POST":
        form = UserCreationForm()
        return render(request, "registration/signup.html", {"form": form, "next": next_url})
    form = UserCreationForm(request.POST)
    if not form.is_valid():
        context = {"form": form, "next": next_url}
        return render(request, "registration/signup.html", context, status=400)
    user = form.save()
    login(request, user)
    if not url_has_allowed_host_and_scheme(
        next_url, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        next_url = settings.LOGIN_REDIRECT_URL
    return redirect(next_url)


class LoginView(auth_views.LoginView):
    """Django's login, but a refused login is a 400 like every other user error, and too many
    failed logins for the username or from the client's address (``ratelimit.py``) are a 429
    with Retry-After, answered before the password is looked at."""

    def post(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        username = request.POST.get("username", "")  # AuthenticationForm's field
        wait = ratelimit.wait_seconds(request, username)
        if wait:
            return self.too_many_attempts(username, wait)
        return super().post(request, *args, **kwargs)

    def form_invalid(self, form: Form) -> HttpResponse:
        return self.render_to_response(self.get_context_data(form=form), status=400)

    def too_many_attempts(self, username: str, wait: int) -> HttpResponse:
        form = self.get_form_class()(self.request, initial={"username": username})
        throttled = ratelimit.TooManyFailures(wait).message
        response = self.render_to_response(
            self.get_context_data(form=form, throttled=throttled), status=429
        )
        response["Retry-After"] = str(wait)
        return response
