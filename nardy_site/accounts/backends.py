"""Django's username-and-password backend behind the login rate limits (``ratelimit.py``).

Being the backend, it covers every password check made for a request: the site's login page
(which answers a refusal with 429 before it gets here), the admin's login, and any future API
endpoint that authenticates with a password. Checks made without a request (``Client.login`` in
tests, the shell) are not counted.
"""

from __future__ import annotations

from typing import Any

from asgiref.sync import sync_to_async
from django.contrib.auth import get_user_model
from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from nardy_site.accounts import ratelimit


class RateLimitedModelBackend(ModelBackend):
    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        if username is None:
            username = kwargs.get(get_user_model().USERNAME_FIELD)
        if request is None or username is None or password is None:
            return super().authenticate(request, username=username, password=password, **kwargs)
        if ratelimit.wait_seconds(request, username):
            # Stops authenticate() here: no backend checks the password.
            raise PermissionDenied
        user = super().authenticate(request, username=username, password=password, **kwargs)
        if user is None:
            ratelimit.record_failure(request, username)
        else:
            ratelimit.record_success(request, username)
        return user

    async def aauthenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        # ModelBackend's own async version would skip the limits.
        return await sync_to_async(self.authenticate)(
            request, username=username, password=password, **kwargs
        )
