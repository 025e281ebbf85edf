"""A player's profile form (the gender and birth year a tournament of a category asks for, the
region and the sport rank an official event's protocol publishes) and a pair's new name."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Player
from tournaments.words import region_choices


class PlayerProfileForm(forms.ModelForm):
    region = forms.ChoiceField(
        label=_("Region"),
        required=False,
        help_text=_(
            "The subject of the Russian Federation you represent at official events. Empty: "
            "not given."
        ),
    )

    class Meta:
        model = Player
        fields = ["gender", "birth_year", "region", "sport_rank", "sport_rank_since"]
        help_texts = {
            "gender": _("Asked by a tournament for men or for women. Empty: not given."),
            "birth_year": _(
                "Asked by a tournament with a minimum age, which counts the age reached in the "
                "calendar year (the sport rules). Empty: not given."
            ),
            "sport_rank": _("Your sport rank or title, as your federation gave it."),
            "sport_rank_since": _("The day it was given. Empty: not given."),
        }
        widgets = {
            "birth_year": forms.NumberInput(attrs={"inputmode": "numeric"}),
            "sport_rank_since": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        region = self.fields["region"]
        assert isinstance(region, forms.ChoiceField)
        # The subjects by name, in the page's language (made for each form: the language is
        # the request's).
        region.choices = [("", _("Not given")), *region_choices()]

    def profile_fields(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in self.Meta.fields}


class PlayerRenameForm(forms.Form):
    name = forms.CharField(
        label=_("New name"),
        max_length=Player._meta.get_field("display_name").max_length,
        help_text=_("Everyone sees it: in entries, standings, brackets and the rating list."),
    )
