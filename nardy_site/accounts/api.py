"""A user's API tokens: list, make (the key is shown once), revoke.

A token is made by a signed-in user (a session or another token) or, for a script with no
browser, by anyone giving a username and password: checked by the login's backend, so every
failure counts against the login rate limits (``ratelimit.py``) the site's login page shares.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import authenticate
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import exceptions, serializers, status
from rest_framework.permissions import AllowAny, BasePermission, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nardy_site.accounts import ratelimit
from nardy_site.accounts.models import ApiToken
from nardy_site.api_errors import ApiSchema, error_responses


class TokenSerializer(serializers.ModelSerializer[ApiToken]):
    """A token of the user's. Made with its name, and, by a request not signed in, the username
    and password of the user it is for."""

    username = serializers.CharField(
        write_only=True,
        required=False,
        help_text="With password, when not signed in: the user the token is for",
    )
    password = serializers.CharField(
        write_only=True,
        required=False,
        trim_whitespace=False,
        style={"input_type": "password"},
        help_text="With username, when not signed in",
    )

    class Meta:
        model = ApiToken
        fields = ["id", "name", "prefix", "created_at", "last_used_at", "username", "password"]
        read_only_fields = ["id", "prefix", "created_at", "last_used_at"]

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if ("username" in attrs) != ("password" in attrs):
            missing = "password" if "username" in attrs else "username"
            raise serializers.ValidationError(
                {missing: "Give the username and the password together."}
            )
        return attrs


NewToken = inline_serializer(
    "NewToken", {"token": TokenSerializer(), "key": serializers.CharField()}
)

WRONG_CREDENTIALS = "Wrong username or password."


class TokenList(APIView):
    permission_classes = [IsAuthenticated]
    schema = ApiSchema()

    def get_permissions(self) -> list[BasePermission]:
        if self.request.method == "POST":  # the body may carry a username and password (post)
            return [AllowAny()]
        return super().get_permissions()

    @extend_schema(responses=TokenSerializer(many=True), summary="My API tokens")
    def get(self, request: Request) -> Response:
        tokens = ApiToken.objects.filter(user=request.user)
        return Response(TokenSerializer(tokens, many=True).data)

    @extend_schema(
        request=TokenSerializer,
        responses={201: NewToken, **error_responses(429)},
        summary="Make a token",
        description=(
            "Signed in (a session or a token), give the name alone: the token is the signed-in "
            "user's. Not signed in, give the username and password too: a wrong one answers "
            "401, and too many failed tries for the username or from the address answer 429, "
            "the password unchecked, as the site's login does. The key is in this answer only."
        ),
    )
    def post(self, request: Request) -> Response:
        given = TokenSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        data = given.validated_data
        if "username" not in data:
            if not request.user.is_authenticated:
                raise exceptions.NotAuthenticated()
            user = request.user
        elif request.user.is_authenticated:
            raise exceptions.ValidationError(
                {"username": "Signed in already: give the name alone, for your own token."}
            )
        else:
            user = _user_by_password(request, data["username"], data["password"])
        token, key = ApiToken.issue(user=user, name=data["name"])
        body: dict[str, Any] = {"token": TokenSerializer(token).data, "key": key}
        return Response(body, status=status.HTTP_201_CREATED)


def _user_by_password(request: Request, username: str, password: str) -> Any:
    """The active user with this username and password, checked (and counted) as the site's login
    checks them; which of the two was wrong is not said."""
    wait = ratelimit.wait_seconds(request, username)
    if wait:
        raise ratelimit.TooManyFailures(wait)
    user = authenticate(request, username=username, password=password)
    if user is None:  # a wrong password, no such user, or an inactive one
        raise exceptions.AuthenticationFailed(WRONG_CREDENTIALS)
    return user


class TokenRevoke(APIView):
    permission_classes = [IsAuthenticated]
    schema = ApiSchema()

    @extend_schema(request=None, responses={204: None}, summary="Revoke one of my tokens")
    def delete(self, request: Request, pk: int) -> Response:
        get_object_or_404(ApiToken, pk=pk, user=request.user).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)
