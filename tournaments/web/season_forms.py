"""The season's forms: its rule, and a club tournament to count in it."""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django import forms
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament
from tournaments.seasons.models import Season, default_place_points


class PointsField(forms.CharField):
    """Points per place typed as "25, 18, 15" (commas, spaces or dashes between them)."""

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, list):
            return ", ".join(_plain(item) for item in value)
        return value

    def to_python(self, value: Any) -> list[int | float]:
        text = super().to_python(value)
        parts = [part for part in re.split(r"[\s,;–—-]+", text) if part]
        points: list[int | float] = []
        for part in parts:
            try:
                number = Decimal(part.replace(",", "."))
            except ArithmeticError:
                raise forms.ValidationError(_("Type numbers only, such as 25, 18, 15.")) from None
            if not number.is_finite():
                raise forms.ValidationError(_("Type numbers only, such as 25, 18, 15."))
            points.append(int(number) if number == number.to_integral() else float(number))
        return points


def _plain(value: int | float) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


class SeasonForm(forms.ModelForm):
    place_points = PointsField(
        label=_("Points by place"),
        max_length=1000,
        initial=default_place_points,
        help_text=_(
            "Points for 1st, 2nd, 3rd … place, such as 25, 18, 15, 12, 10, 8, 6, 4, 2, 1; places "
            "further down earn nothing. Players who share a place (both semifinal losers) each "
            "earn its points."
        ),
    )

    class Meta:
        model = Season
        fields = [
            "name", "starts_on", "ends_on", "scoring", "place_points", "win_points", "best_of",
        ]  # fmt: skip
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}),
            "ends_on": forms.DateInput(attrs={"type": "date"}),
            "scoring": forms.RadioSelect,
        }
        help_texts = {
            "win_points": _("Points by match wins: the points of each match won (a draw: half)."),
            "best_of": _(
                "Best N of M: only each player's N best events count; the others are shown "
                "struck out. Empty: every event counts."
            ),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        scoring = self.fields["scoring"]
        assert isinstance(scoring, forms.ChoiceField)
        scoring.choices = Season.Scoring.choices  # no empty choice among the radios

    def validate_unique(self) -> None:
        """The service makes the address unique within the club."""

    def season_fields(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in self.Meta.fields}


class EventForm(forms.Form):
    """A tournament of the club to count in the season."""

    tournament = forms.ModelChoiceField(
        label=_("Tournament"),
        queryset=Tournament.objects.none(),
        empty_label=None,
        widget=forms.Select(attrs={"translate": "no"}),  # names are user data
    )

    def __init__(self, *args: Any, season: Season, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["tournament"]
        assert isinstance(field, forms.ModelChoiceField)
        # The club's tournaments, and the user's own tournaments of no club (they join it).
        field.queryset = (
            Tournament.objects.filter(Q(club=season.club) | Q(club=None, organizer=user.pk))
            .exclude(season=season)
            .order_by("-created_at")
        )
