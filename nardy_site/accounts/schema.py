"""How the API's schema declares its token authentication (a drf-spectacular extension, loaded
by ``AccountsConfig.ready``)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema


class TokenScheme(OpenApiAuthenticationExtension):
    """``TokenAuthentication`` as two alternative schemes for the same keys: ``tokenAuth``, the
    header as the project writes it (``Authorization: Token <key>``), and ``bearerAuth``, the
    standard http bearer scheme, which generators know how to send. It replaces
    drf-spectacular's own scheme for token authentication (an apiKey ``tokenAuth`` alone)."""

    target_class = "nardy_site.accounts.authentication.TokenAuthentication"
    name = ["tokenAuth", "bearerAuth"]
    priority = 1

    def get_security_definition(self, auto_schema: AutoSchema) -> list[dict[str, Any]]:
        return [
            {
                "type": "apiKey",
                "in": "header",
                "name": "Authorization",
                "description": (
                    "An API token: `Authorization: Token <key>`. Make one with POST "
                    "/api/v1/tokens/ (signed in, or with a username and password)."
                ),
            },
            {
                "type": "http",
                "scheme": "bearer",
                "description": "The same API token as `Authorization: Bearer <key>`.",
            },
        ]

    def get_security_requirement(self, auto_schema: AutoSchema) -> list[dict[str, list[Any]]]:
        return [{"tokenAuth": []}, {"bearerAuth": []}]  # either one (OR)
