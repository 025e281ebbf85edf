"""What an API answer holds that its OpenAPI schema does not declare: the keys a generated
client would not know (``undeclared_fields``)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

Schema = Mapping[str, Any]

#: The keys that say something about an object's or an array's content.
_SHAPE_KEYS = ("type", "properties", "additionalProperties", "items", "enum", "oneOf", "anyOf")


def undeclared_fields(
    data: Any, schema: Schema, components: Mapping[str, Schema], path: str = "$"
) -> list[str]:
    """The paths (``$.board.frames[0].accepted``) of the keys in ``data`` that ``schema``
    does not declare, looking through ``$ref`` (to ``components``, the schemas by name),
    ``allOf`` (the keys of all parts), ``oneOf``/``anyOf`` (the alternative that declares the
    most; none left out when one declares all) and nullable values.

    An object declares its ``properties`` and no other key, unless ``additionalProperties``
    declares the rest (``{}`` or true: anything); an object schema with neither is a free-form
    map. An object where the schema declares none (a string, null …) has each of its keys
    undeclared. Only keys are checked, not types or values."""
    schema = _merged(schema, components)
    alternatives = [*schema.get("oneOf", ()), *schema.get("anyOf", ())]
    if alternatives:
        found = [undeclared_fields(data, option, components, path) for option in alternatives]
        return min(found, key=len)
    if isinstance(data, Mapping):
        return _undeclared_keys(data, schema, components, path)
    if isinstance(data, list) and "items" in schema:
        return [
            field
            for index, item in enumerate(data)
            for field in undeclared_fields(item, schema["items"], components, f"{path}[{index}]")
        ]
    return []


def _undeclared_keys(
    data: Mapping[str, Any], schema: Schema, components: Mapping[str, Schema], path: str
) -> list[str]:
    properties = schema.get("properties", {})
    anything = not any(key in schema for key in _SHAPE_KEYS)
    free_form = schema.get("type") == "object" and not properties
    rest = schema.get("additionalProperties", anything or free_form)
    found = []
    for key, value in data.items():
        where = f"{path}.{key}"
        if key in properties:
            found += undeclared_fields(value, properties[key], components, where)
        elif isinstance(rest, Mapping):
            found += undeclared_fields(value, rest, components, where)
        elif rest is not True:
            found.append(where)
    return found


def _merged(schema: Schema, components: Mapping[str, Schema]) -> Schema:
    """The schema with its ``$ref`` followed and its ``allOf`` parts merged into one: their
    properties together, open to other keys when a part is."""
    seen: set[str] = set()
    while "$ref" in schema:
        name = schema["$ref"].removeprefix("#/components/schemas/")
        if name in seen:
            raise ValueError(f"a $ref that refers to itself: {name}")
        seen.add(name)
        schema = {**components[name], **{k: v for k, v in schema.items() if k != "$ref"}}
    if "allOf" not in schema:
        return schema
    merged: dict[str, Any] = {k: v for k, v in schema.items() if k != "allOf"}
    properties: dict[str, Any] = dict(merged.get("properties", {}))
    for part in schema["allOf"]:
        part = _merged(part, components)
        properties.update(part.get("properties", {}))
        for key, value in part.items():
            if key == "additionalProperties" and merged.get(key) is False:
                merged[key] = value  # one part open to any key: the whole is
            elif key != "properties":
                merged.setdefault(key, value)
    if properties:
        merged["properties"] = properties
    return merged
