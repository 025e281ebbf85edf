"""A player's profile form (the gender and birth year a tournament of a category asks for) and
a pair's new name."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.models import Player


class PlayerProfileForm(forms.ModelForm):
    class Meta:
        model = Player
        fields = ["gender", "birth_year"]
        help_texts = {
            "gender": _("Asked by a tournament for men or for women. Empty: not given."),
            "birth_year": _(
                "Asked by a tournament with a minimum age, which counts the age reached in the "
                "calendar year (the sport rules). Empty: not given."
            ),
        }
        widgets = {"birth_year": forms.NumberInput(attrs={"inputmode": "numeric"})}

    def profile_fields(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in self.Meta.fields}


class PlayerRenameForm(forms.Form):
    name = forms.CharField(
        label=_("New name"),
        max_length=Player._meta.get_field("display_name").max_length,
        help_text=_("Everyone sees it: in entries, standings, brackets and the rating list."),
    )
