"""The club's forms: its details, and a member to add (or a role to change)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.clubs.models import Club, Membership


class ClubForm(forms.ModelForm):
    class Meta:
        model = Club
        fields = ["name", "city", "country", "description"]
        help_texts = {
            "name": _("As players will see it; unique on this site. The address is made from it."),
            "country": _("ISO 3166-1 alpha-2 code, such as LV."),
        }
        widgets = {"description": forms.Textarea(attrs={"rows": 4, "translate": "no"})}

    def club_fields(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in self.Meta.fields}

    def validate_unique(self) -> None:
        """The service checks the unique name (with the rest) and says so in one message."""


class MemberForm(forms.Form):
    username = forms.CharField(
        label=_("Username"),
        max_length=150,
        help_text=_("The member's account on this site."),
    )
    role = forms.ChoiceField(
        label=_("Role"),
        choices=Membership.Role.choices,
        initial=Membership.Role.MEMBER,
        help_text=_(
            "Members play; organizers run the club's tournaments and seasons and add members; "
            "owners also name organizers and owners."
        ),
    )
