"""Path parameters whose values are a closed set (a rating system, a variant): a URL converter
that matches only those values, so that any other is the API's 404 in the error shape (no route
matches it), and that the schema shows as an enum (``nardy_site.api_errors.ApiSchema``)."""

from __future__ import annotations

import re
from typing import Any, ClassVar


class ClosedSet:
    """A URL converter for one of ``choices`` (a model's choices: value, label); a subclass
    names them and the schema component of their enum (the one its fields use, as
    ``VariantEnum``), and is registered once with ``django.urls.register_converter``."""

    choices: ClassVar[list[tuple[str, Any]]] = []
    component: ClassVar[str] = ""
    regex: ClassVar[str] = ""

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        cls.regex = "|".join(re.escape(value) for value, _ in cls.choices)

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value
