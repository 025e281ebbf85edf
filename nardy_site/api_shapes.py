"""Schema helpers for JSON the server writes and reads by its own code, not by a serializer: the
serializers here only describe it, for the OpenAPI schema a client is generated from.

``ClosedShape`` is one shape of a union told apart by its keys (an entry of the live recording, a
game action, where a bracket side comes from): its schema allows no other key, so that exactly
one of the union's shapes matches. ``TrueField`` is a key whose only value is ``true``."""

from __future__ import annotations

from typing import Any

from drf_spectacular.extensions import OpenApiSerializerExtension
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers


class ClosedShape(serializers.Serializer[Any]):
    """One shape of a union: its schema allows no other key (``additionalProperties: false``),
    so that each value matches exactly one of the union's shapes."""


class ClosedShapeExtension(OpenApiSerializerExtension):
    target_class = ClosedShape
    match_subclasses = True

    def map_serializer(self, auto_schema: Any, direction: Any) -> Any:
        schema = auto_schema._map_serializer(self.target, direction, bypass_extensions=True)
        return {**schema, "additionalProperties": False}


@extend_schema_field({"type": "boolean", "enum": [True]})
class TrueField(serializers.BooleanField):
    """A key whose only value is ``true`` (``{"double": true}``): false is no such key."""
