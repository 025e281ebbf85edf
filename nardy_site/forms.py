"""What every form of the site shares."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.exceptions import ValidationError

from games.rules.errors import clipped


class QuotingAtMostTheLimit(forms.BaseForm):
    """A form whose error messages quote at most ``QUOTE_LIMIT`` characters of the value they
    refuse: Django's choice fields say "Select a valid choice. %(value)s is not one of the
    available choices.", and a 100 kB value is not repeated whole on the page."""

    def add_error(self, field: str | None, error: Any) -> None:
        if isinstance(error, ValidationError) and hasattr(error, "error_list"):
            for item in error.error_list:
                if isinstance(item.params, dict):
                    item.params = {
                        name: clipped(value) if isinstance(value, str) else value
                        for name, value in item.params.items()
                    }
        super().add_error(field, error)
