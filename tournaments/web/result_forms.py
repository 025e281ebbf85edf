"""The result form: a score, a .mat file (pasted or uploaded), or the games one by one."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.rules import Ending
from nardy_site.forms import QuotingAtMostTheLimit
from tournaments.scoring import PlayedGame

GAME_ROWS = 15


class ResultForm(QuotingAtMostTheLimit, forms.Form):
    """Reads one of the ways of giving a result and turns it into the services' keyword
    arguments (``score``, ``mat``, ``outcomes``, or an organizer's ``forfeit``); the services
    check the result itself."""

    MODES = [
        ("score", _("Score")),
        ("mat", _("Match file (.mat)")),
        ("games", _("Game by game")),
    ]
    mode = forms.ChoiceField(label=_("Give the result as"), choices=MODES, widget=forms.RadioSelect)
    score_home = forms.DecimalField(
        label=_("Home score"), max_digits=6, decimal_places=1, min_value=0, required=False
    )
    score_away = forms.DecimalField(
        label=_("Away score"), max_digits=6, decimal_places=1, min_value=0, required=False
    )
    mat_text = forms.CharField(
        label=_("Paste the match file"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 12, "spellcheck": "false"}),
        help_text=_(
            "A Jellyfish/GNU Backgammon match file, as every backgammon program exports it. "
            "Every game is replayed; an illegal play is shown with its game and move."
        ),
    )
    mat_file = forms.FileField(label=_("or upload it"), required=False)
    forfeit = forms.ChoiceField(
        label=_("Who did not come"), choices=[], widget=forms.RadioSelect, required=False
    )

    def __init__(
        self, *args: Any, home: str, away: str, organizer: bool = False, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.fields["score_home"].label = home
        self.fields["score_away"].label = away
        if organizer:  # a forfeit is an organizer's word
            mode = self.fields["mode"]
            assert isinstance(mode, forms.ChoiceField)
            mode.choices = [*self.MODES, ("forfeit", _("Forfeit"))]
            forfeit = self.fields["forfeit"]
            assert isinstance(forfeit, forms.ChoiceField)
            forfeit.choices = [
                ("home", home), ("away", away), ("both", _("Both players"))
            ]  # fmt: skip
        else:
            del self.fields["forfeit"]
        self.game_rows = [GameRow(self.data or None, prefix=f"game-{n}", home=home, away=away)
                          for n in range(1, GAME_ROWS + 1)]  # fmt: skip

    def is_valid(self) -> bool:
        rows_valid = all(row.is_valid() for row in self.game_rows)
        return super().is_valid() and rows_valid

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        mode = data.get("mode")
        if mode == "score":
            if data.get("score_home") is None or data.get("score_away") is None:
                raise forms.ValidationError(_("Enter both scores."))
        elif mode == "mat":
            # A file (uploaded or pasted) over API_MAX_UPLOAD_BYTES never gets here: the whole
            # request is refused with 413 before it is read (nardy_site.body_limit).
            upload = data.get("mat_file")
            if upload is not None:
                data["mat_text"] = self._read_upload(upload)
            if not (data.get("mat_text") or "").strip():
                raise forms.ValidationError(_("Paste the match file or choose one to upload."))
        elif mode == "games" and not self._outcomes():
            raise forms.ValidationError(_("Enter at least one game."))
        elif mode == "forfeit" and not data.get("forfeit"):
            raise forms.ValidationError(_("Choose who did not come."))
        return data

    def service_arguments(self) -> dict[str, Any]:
        """What the result services take: ``score``, ``mat`` or ``outcomes``."""
        data = self.cleaned_data
        if data["mode"] == "score":
            return {"score": (data["score_home"], data["score_away"])}
        if data["mode"] == "mat":
            return {"mat": data["mat_text"]}
        if data["mode"] == "forfeit":
            return {"forfeit": data["forfeit"]}
        return {"outcomes": self._outcomes()}

    def _outcomes(self) -> list[PlayedGame]:
        rows = [row for row in self.game_rows if row.is_valid()]
        return [outcome for row in rows if (outcome := row.outcome()) is not None]

    def _read_upload(self, upload: Any) -> str:
        try:
            return str(upload.read().decode("utf-8-sig"))
        except UnicodeDecodeError:
            raise forms.ValidationError(_("The file is not UTF-8 text.")) from None


class GameRow(QuotingAtMostTheLimit, forms.Form):
    """One game entered by hand: who won, how (oyn, mars, koks) and at what stake. Empty rows
    are skipped."""

    VALUES = [(1, _("Oyn (1)")), (2, _("Mars (2)")), (3, _("Koks (3)"))]

    winner = forms.ChoiceField(label=_("Winner"), choices=[], required=False)
    value = forms.TypedChoiceField(
        label=_("Won by"), choices=VALUES, coerce=int, required=False, empty_value=1
    )
    stake = forms.IntegerField(label=_("Stake"), min_value=1, required=False, initial=1)

    def __init__(self, *args: Any, home: str, away: str, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = [("", "—"), ("1", home), ("2", away), ("draw", _("Draw"))]

    def outcome(self) -> PlayedGame | None:
        data = self.cleaned_data
        stake = data.get("stake") or 1
        if data.get("winner") == "draw":
            return PlayedGame.drawn(stake)
        if data.get("winner") in ("1", "2"):
            player = int(data["winner"])
            return PlayedGame.won(player, data.get("value") or 1, stake, Ending.BEAR_OFF)  # type: ignore[arg-type]
        return None
