"""The API's numbers as clients read them: JSON numbers (never strings), in one precision."""

from __future__ import annotations

from typing import Any


def numbers_of(data: Any, key: str) -> list[Any]:
    """Every value of ``key`` anywhere in the JSON ``data`` (nulls left out)."""
    found: list[Any] = []
    if isinstance(data, dict):
        for name, value in data.items():
            if name == key and value is not None:
                found.append(value)
            found += numbers_of(value, key)
    elif isinstance(data, list):
        for item in data:
            found += numbers_of(item, key)
    return found


def assert_numbers(data: Any, places: int, *keys: str) -> None:
    """Each of ``keys`` is somewhere in ``data``, and every value of it (each item of a list,
    each value of an object) is a JSON number with at most ``places`` decimal places."""
    for key in keys:
        values = numbers_of(data, key)
        assert values, f"no {key} in the response"
        for value in values:
            items = (
                value
                if isinstance(value, list)
                else (list(value.values()) if isinstance(value, dict) else [value])
            )
            for item in items:
                assert type(item) in (int, float), f"{key}: {item!r} is not a number"
                assert round(item, places) == item, f"{key}: {item!r} has over {places} decimals"
