"""A user's API tokens: list, make (the key is shown once), revoke."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from nardy_site.accounts.models import ApiToken
from nardy_site.api_errors import ApiSchema


class TokenSerializer(serializers.ModelSerializer[ApiToken]):
    class Meta:
        model = ApiToken
        fields = ["id", "name", "prefix", "created_at", "last_used_at"]
        read_only_fields = ["id", "prefix", "created_at", "last_used_at"]


NewToken = inline_serializer(
    "NewToken", {"token": TokenSerializer(), "key": serializers.CharField()}
)


class TokenList(APIView):
    permission_classes = [IsAuthenticated]
    schema = ApiSchema()

    @extend_schema(responses=TokenSerializer(many=True), summary="My API tokens")
    def get(self, request: Request) -> Response:
        tokens = ApiToken.objects.filter(user=request.user)
        return Response(TokenSerializer(tokens, many=True).data)

    @extend_schema(request=TokenSerializer, responses={201: NewToken}, summary="Make a token")
    def post(self, request: Request) -> Response:
        given = TokenSerializer(data=request.data)
        given.is_valid(raise_exception=True)
        token, key = ApiToken.issue(user=request.user, name=given.validated_data["name"])
        body: dict[str, Any] = {"token": TokenSerializer(token).data, "key": key}
        return Response(body, status=status.HTTP_201_CREATED)


class TokenRevoke(APIView):
    permission_classes = [IsAuthenticated]
    schema = ApiSchema()

    @extend_schema(request=None, responses={204: None}, summary="Revoke one of my tokens")
    def delete(self, request: Request, pk: int) -> Response:
        get_object_or_404(ApiToken, pk=pk, user=request.user).delete()
        return Response(status=status.HTTP_204_NO_CONTENT)
