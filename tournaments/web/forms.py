"""The organizer's forms. They check what a form can (types, choices, required fields) and hand
the values to a service, which checks how the rules fit together and says what is wrong."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.forms.utils import flatatt
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString, mark_safe
from django.utils.text import format_lazy
from django.utils.translation import gettext_lazy as _

from nardy_site.forms import QuotingAtMostTheLimit
from tournaments.clubs.models import Club
from tournaments.declarations import Section, applies, settings_of
from tournaments.eligibility import BIRTH_YEAR_EARLIEST, YOUTH_GROUPS, youth_group
from tournaments.models import (
    DEFAULT_TIEBREAKS,
    MATCH_OF_GAMES,
    MATCH_TO_POINTS,
    Entry,
    Player,
    Tournament,
)
from tournaments.players.selectors import players_found
from tournaments.scoring import MAX_MATCH_LENGTH
from tournaments.scoring.clock import MAX_BASE_SECONDS, MAX_PER_MOVE_SECONDS, PRESETS
from tournaments.scoring.events import EVENT_PRESET_NAMES, event_preset
from tournaments.seasons.models import Season
from tournaments.services import PASTE_MAX_CHARS, SEED_MAX, NewEntry
from tournaments.web.clocks import event_preset_choices, preset_choices, preset_of
from tournaments.words import TIEBREAK_NAMES

CLOCK_CUSTOM = "custom"
#: The tournament's declared settings (``tournaments.declarations``): the form is made of them.
SETTINGS = settings_of(Tournament)


class OrderedSelects(forms.Widget):
    """One select per place under one name: the browser sends the values in page order, so the
    order the organizer picks is kept (a multiple select would lose it)."""

    choices: Any = ()

    def __init__(
        self, attrs: dict[str, Any] | None = None, defaults: Mapping[str, Any] | None = None
    ) -> None:
        super().__init__(attrs)
        #: The order each kind of standings starts with (format or first stage): the page's
        #: script puts it in when the format changes and the order was still the old default.
        self.defaults = defaults

    def value_from_datadict(self, data: Any, files: Any, name: str) -> list[str]:
        values = data.getlist(name) if hasattr(data, "getlist") else data.get(name, [])
        if isinstance(values, str):
            values = [values]
        return [value for value in values if value]

    def value_omitted_from_data(self, data: Any, files: Any, name: str) -> bool:
        return False  # no value is a choice too: no tie-breaks

    def id_for_label(self, id_: str) -> str:
        return f"{id_}_0" if id_ else id_

    def render(
        self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None
    ) -> SafeString:
        attrs = self.build_attrs(self.attrs, attrs)
        base_id = attrs.pop("id", "")
        chosen = list(value or [])
        options = [("", "—"), *self.choices]
        places = []
        for place in range(len(self.choices)):
            selected = chosen[place] if place < len(chosen) else ""
            select_attrs = {
                **attrs,
                "name": name,
                "aria-label": _("Tie-break %(place)s") % {"place": place + 1},
            }
            if base_id:
                select_attrs["id"] = f"{base_id}_{place}"
            option_tags = format_html_join(
                "",
                '<option value="{}"{}>{}</option>',
                (
                    (choice, mark_safe(" selected") if choice == selected else "", label)
                    for choice, label in options
                ),
            )
            places.append(
                format_html("<li><select{}>{}</select></li>", flatatt(select_attrs), option_tags)
            )
        defaults = (
            format_html(" data-defaults='{}'", json.dumps(self.defaults)) if self.defaults else ""
        )
        return format_html(
            '<ol class="ordered-choices"{}>{}</ol>', defaults, mark_safe("".join(places))
        )


class OrderedChoicesField(forms.MultipleChoiceField):
    """Choices in the order given, each at most once."""

    widget = OrderedSelects

    def validate(self, value: Any) -> None:
        super().validate(value)
        if len(set(value)) != len(value):
            raise forms.ValidationError(_("Name each tie-break once."), code="repeated")


def event_preset_values(name: str) -> dict[str, Any]:
    """The organizer's form's fields as the event preset ``name`` fills them
    (``tournaments.scoring.events``): its game, clock, match length, format and elimination."""
    preset = event_preset(name)
    settings = preset.settings()
    return {
        "variant": settings["variant"],
        "pairs": settings["pairs"],
        "match_kind": MATCH_TO_POINTS,
        "match_size": settings["match_length"],
        "clock": preset.name,  # each event's clock is the clock's preset of the same name
        "format": settings["format"],
        "first_stage": settings["first_stage"],
        "swiss_out_after_losses": settings["swiss_out_after_losses"],
    }


class EventPresetForm(forms.Form):
    """The preset of a whole event, above the organizer's form: chosen, it fills the form's
    fields (the page's script at once; without it, the page comes back filled, ``?preset=``),
    and the organizer may change any of them before saving."""

    preset = forms.ChoiceField(
        label=_("Start from a federation event"),
        choices=lambda: [("", _("None: set each rule yourself")), *event_preset_choices()],
        required=False,
        help_text=_(
            "Fills the game, the clock, the match length, the format and the elimination as "
            "that event had them. Each stays yours to change."
        ),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        values = {name: event_preset_values(name) for name in EVENT_PRESET_NAMES}
        self.fields["preset"].widget.attrs["data-presets"] = json.dumps(values)

    def chosen(self) -> str:
        """The preset asked for (empty: none, or not one of them)."""
        return self.cleaned_data.get("preset", "") if self.is_valid() else ""


class TournamentForm(QuotingAtMostTheLimit, forms.ModelForm):
    """Every rule of a tournament, grouped as the organizer thinks of them. Fields that only one
    variant or format uses say so; the service refuses the combinations that cannot be."""

    match_kind = forms.ChoiceField(
        label=_("Match length"),
        choices=[
            (MATCH_TO_POINTS, _("Match to a number of points")),
            (MATCH_OF_GAMES, _("A fixed number of games")),
        ],
        widget=forms.RadioSelect,
        help_text=_(
            "To points: the first player to reach the points wins the match; a match cannot end "
            "level. A fixed number of games: every game is played and the points decide; the "
            "match can end level (a drawn match)."
        ),
    )
    match_size = forms.IntegerField(
        label=_("Points or games"),
        min_value=1,
        max_value=MAX_MATCH_LENGTH,
        help_text=format_lazy(
            _("The points to reach, or the number of games to play: 1 to {most}."),
            most=MAX_MATCH_LENGTH,
        ),
    )
    clock = forms.ChoiceField(
        label=_("Clock"),
        choices=lambda: [("", _("No clock")), *preset_choices(), (CLOCK_CUSTOM, _("Other"))],
        required=False,
        help_text=_(
            "A clock per player for the whole match, run by the recorder at the table: its "
            "base time, and seconds a move added after each move (increment, as chess clocks) "
            "or waited before the clock runs (delay, as backgammon clocks). Running out of time "
            'loses the match. The federation\'s events give "+ 8 s" without saying which: '
            "their presets take the delay."
        ),
    )
    clock_kind = forms.ChoiceField(
        label=_("Seconds a move"),
        choices=[
            ("delay", _("a delay (backgammon clocks)")),
            ("increment", _("an increment (chess clocks)")),
        ],
        initial="delay",
        widget=forms.RadioSelect,
        help_text=_(
            "A delay: each turn the clock waits that long before it runs. An increment: it is "
            "added to the player's time after each move."
        ),
        required=False,
    )
    clock_minutes = forms.IntegerField(
        label=_("Minutes each"),
        min_value=1,
        max_value=MAX_BASE_SECONDS // 60,
        initial=15,
        help_text=_("Each player's time for the whole match."),
        required=False,
    )
    clock_seconds = forms.IntegerField(
        label=_("Seconds"),
        min_value=0,
        max_value=MAX_PER_MOVE_SECONDS,
        initial=8,
        help_text=_("The increment or the delay of each move."),
        required=False,
    )
    age_group = forms.ChoiceField(
        label=_("Age group"),
        choices=lambda: [
            ("", _("None: the ages below")),
            *[(name, _("Youth %(group)s") % {"group": _group_text(name)}) for name in YOUTH_GROUPS],
        ],
        required=False,
        help_text=_(
            "The youth groups of the federation's events: it sets the minimum and maximum age. "
            "In a youth event, the men and the women are the boys and the girls."
        ),
    )
    tiebreaks = OrderedChoicesField(
        label=_("Tie-break order"),
        choices=list(TIEBREAK_NAMES.items()),
        widget=OrderedSelects(defaults=DEFAULT_TIEBREAKS),
        required=False,
        help_text=Tournament._meta.get_field("tiebreaks").help_text,
    )

    class Meta:
        model = Tournament
        #: The settings that are form fields of their own (the match's length and the clock
        #: are asked by the form's own fields); labels and help come from the model.
        fields = [item.name for item in SETTINGS if item.setting.form is None]
        widgets = {
            "variant": forms.RadioSelect,
            "starts_at": forms.DateTimeInput(
                attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"
            ),
        }

    #: When a field applies, by the values of the fields it depends on: each setting's
    #: declaration, and the clock's own fields. The page shows only the fields that apply
    #: (``static/nardy/site.js``); a field that does not apply is ignored when the form is
    #: posted, whatever it says: its default is kept (``clean``).
    APPLIES_WHEN: dict[str, Mapping[str, tuple[str, ...]]] = {
        **{item.name: item.setting.applies for item in SETTINGS if item.setting.applies},
        "clock_kind": {"clock": (CLOCK_CUSTOM,)},
        "clock_minutes": {"clock": (CLOCK_CUSTOM,)},
        "clock_seconds": {"clock": (CLOCK_CUSTOM,)},
        # A youth group's preset gives both ages: they are asked only without one.
        "min_age": {"age_group": ("",)},
        "max_age": {"age_group": ("",)},
    }

    #: The form's sections, as the page shows them: each setting's section, in the order of
    #: the declarations (a new tournament's club and season come after its name).
    FIELDSETS = [
        (
            section.label,
            [
                name
                for item in SETTINGS
                if item.setting.section == section
                for name in (
                    (*item.form_fields(), "club_season")
                    if item.name == "name"
                    else ("age_group", *item.form_fields())
                    if item.name == "min_age"  # the youth groups' presets come first
                    else item.form_fields()
                )
            ],
        )
        for section in Section
    ]

    #: The form's fields of the settings the start locks.
    LOCKED = frozenset(
        name for item in SETTINGS if item.setting.locked for name in item.form_fields()
    )

    def __init__(
        self,
        *args: Any,
        locked: bool = False,
        clubs: Sequence[Club] = (),
        preset: str = "",
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        if preset and not locked:  # an event preset fills what it sets (``EventPresetForm``)
            self.initial.update(event_preset_values(preset))
        if not self.instance.pk:  # new: of one of the clubs its creator runs, maybe a season
            self.fields["club_season"] = forms.ChoiceField(
                label=_("Club and season"),
                choices=club_season_choices(clubs),
                required=False,
                # Hidden from those who run no club: what they post is still checked.
                widget=forms.Select(attrs={"translate": "no"}) if clubs else forms.HiddenInput,
                help_text=_(
                    "A club's tournament is run by the club's organizers too; a season's counts "
                    "in its table."
                ),
            )
        if not self.instance.pk:  # what a new tournament's other settings give it
            for item in SETTINGS:
                if item.setting.initial is not None:
                    self.initial.setdefault(item.name, item.initial_for(self.instance))
        variant = self.fields["variant"]
        assert isinstance(variant, forms.ChoiceField)
        variant.choices = Tournament.Variant.choices  # no empty choice among the radios
        tournament = self.instance
        games = tournament.match_games is not None
        self.initial.setdefault("match_kind", MATCH_OF_GAMES if games else MATCH_TO_POINTS)
        self.initial.setdefault(
            "match_size", tournament.match_games if games else tournament.match_length
        )
        accepted = self.fields["accepted_moves"]
        accepted.widget = forms.Select(
            choices=[
                ("unknown", _("As the game's rules: allowed in Long Nardy, not in Short Nardy")),
                ("true", _("Allowed")),
                ("false", _("Not allowed")),
            ]
        )
        control = tournament.clock()
        preset = preset_of(control)
        self.initial.setdefault(
            "clock", "" if control is None else preset.name if preset else CLOCK_CUSTOM
        )
        if control is not None and preset is None:
            self.initial.setdefault("clock_kind", control.kind)
            self.initial.setdefault("clock_minutes", control.base_seconds // 60)
            self.initial.setdefault("clock_seconds", control.per_move_seconds)
        group = youth_group(tournament.min_age, tournament.max_age)
        self.initial.setdefault("age_group", group.name if group else "")
        if locked:  # disabled fields keep the stored values whatever is posted
            for name, field in self.fields.items():
                field.disabled = name in self.LOCKED or name in ("club_season", "age_group")
        for name, when in self.APPLIES_WHEN.items():  # for the page's script (fields.html)
            if name in self.fields:
                self.fields[name].applies_when = json.dumps(  # type: ignore[attr-defined]
                    {control: [str(v) for v in allowed] for control, allowed in when.items()}
                )

    def applies(self, name: str, values: dict[str, Any]) -> bool:
        """Whether field ``name`` applies when the fields it depends on have ``values``."""
        return applies(self.APPLIES_WHEN.get(name, {}), values.get)

    def clean(self) -> dict[str, Any]:
        """Every field is checked as posted; those that do not apply to the chosen game and
        format are then set back to their defaults (the page hid them)."""
        data = super().clean()
        changed = True
        while changed:  # a field set back may be one another field depends on
            changed = False
            for name in self.APPLIES_WHEN:
                default = self._default(name)
                if name in data and not self.applies(name, data) and data[name] != default:
                    data[name] = default
                    changed = True
        group = YOUTH_GROUPS.get(data.get("age_group") or "")
        if group is not None:  # a youth group's preset gives the ages
            data["min_age"], data["max_age"] = group.min_age, group.max_age
        low, high = data.get("min_age"), data.get("max_age")
        if low is not None and high is not None and low > high:
            self.add_error("max_age", _("The maximum age is below the minimum age."))
        if data.get("clock") == CLOCK_CUSTOM:
            for name in ("clock_kind", "clock_minutes", "clock_seconds"):
                if data.get(name) in (None, ""):
                    self.add_error(name, _("Give the clock's minutes, seconds and kind."))
        return data

    def _default(self, name: str) -> Any:
        """A field's value when it does not apply: the tournament's default, or the form's own
        initial value for a field of the form alone."""
        if name in self.Meta.fields:
            return _default(name)
        return self.fields[name].initial

    def fieldsets(self) -> list[tuple[str, list[forms.BoundField]]]:
        return [
            (legend, [self[name] for name in names if name in self.fields])
            for legend, names in self.FIELDSETS
        ]

    def tournament_settings(self) -> dict[str, Any]:
        """The cleaned values as the tournament services take them: a match is to points or of
        a number of games, exactly one of ``match_length`` and ``match_games``."""
        data = self.cleaned_data
        settings = {name: data[name] for name in self.Meta.fields}
        to_points = data["match_kind"] == MATCH_TO_POINTS
        settings["match_length"] = data["match_size"] if to_points else None
        settings["match_games"] = None if to_points else data["match_size"]
        settings["time_control"] = _time_control(data)
        if not self.instance.pk and settings["min_age"] is None and settings["max_age"] is None:
            # No age given: the service's initial one (an official event's is the rules' 10).
            del settings["min_age"]
        if data.get("club_season"):
            kind, pk = data["club_season"].split(":")
            model = Club if kind == "club" else Season
            settings[kind] = model.objects.get(pk=int(pk))
        return settings


def _group_text(name: str) -> str:
    """A youth group as the form offers it: "9–11, admitted from 7", "12–14"."""
    return str(Tournament(min_age=YOUTH_GROUPS[name].min_age, max_age=YOUTH_GROUPS[name].max_age)
               .age_group_text())  # fmt: skip


def _time_control(data: dict[str, Any]) -> dict[str, Any] | None:
    """The tournament's ``time_control`` from the clock's fields: none, a preset or its own."""
    chosen = data.get("clock") or ""
    if not chosen:
        return None
    if chosen != CLOCK_CUSTOM:
        return next(p.control.as_json() for p in PRESETS if p.name == chosen)
    return {
        "kind": data["clock_kind"],
        "base_seconds": data["clock_minutes"] * 60,
        "per_move_seconds": data["clock_seconds"],
    }


def _default(name: str) -> Any:
    """A tournament field's default, as a new tournament has it."""
    field = Tournament._meta.get_field(name)
    return field.get_default()


def club_season_choices(clubs: Sequence[Club]) -> list[tuple[str, Any]]:
    """ "No club", then each club and each of its seasons: ``club:<id>`` or ``season:<id>``."""
    seasons: dict[int, list[Season]] = {}
    for season in Season.objects.filter(club__in=clubs).order_by("-starts_on", "name"):
        seasons.setdefault(season.club_id, []).append(season)
    choices: list[tuple[str, Any]] = [("", _("No club"))]
    for club in clubs:
        choices.append((f"club:{club.pk}", club.name))
        choices += [(f"season:{s.pk}", f"{club.name} · {s.name}") for s in seasons.get(club.pk, [])]
    return choices


class PlayerByName(forms.CharField):
    """A player already on the site, typed by name: a search offers the names as one types
    (``data-player-search``, site.js; without JavaScript the name is typed whole). The name
    given must be one player's (their full name, or words that only their name has; an id, as
    a program posts it, also does)."""

    widget = forms.TextInput(
        attrs={"data-player-search": "/api/v1/players/?search=", "autocomplete": "off"}
    )

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(max_length=100, required=False, **kwargs)
        self.players: QuerySet[Player] = Player.objects.none()

    def clean(self, value: Any) -> Player | None:  # type: ignore[override]
        name = str(super().clean(value) or "").strip()
        if not name:
            return None
        if name.isdigit():
            found = self.players.filter(pk=int(name)).first()
            if found is not None:
                return found
        exact = self.players.filter(display_name__iexact=name).first()
        if exact is not None:
            return exact
        matches = list(players_found(query=name, among=self.players)[:6])
        if len(matches) == 1:
            return matches[0]
        if not matches:
            raise forms.ValidationError(
                _("No player here is called “%(name)s”: check the name, or type a new player.")
                % {"name": name}
            )
        shown = ", ".join(player.display_name for player in matches[:5])
        raise forms.ValidationError(
            _("Several players match “%(name)s” (%(players)s): type the full name.")
            % {"name": name, "players": shown + ("…" if len(matches) > 5 else "")}
        )


class EntryAddForm(QuotingAtMostTheLimit, forms.Form):
    """One player to enter: an existing player found by name, or a new one typed in."""

    player = PlayerByName(
        label=_("Existing player"),
        help_text=_(
            "A player already on the site: type their name and pick it. Or leave it empty and "
            "type a new one."
        ),
    )
    display_name = forms.CharField(
        label=_("New player's name"),
        max_length=100,
        required=False,
        help_text=_("As it will appear in pairings and standings; unique on this site."),
    )
    club = forms.CharField(label=_("Club"), max_length=100, required=False)
    country = forms.CharField(
        label=_("Country"),
        max_length=2,
        required=False,
        help_text=_("The two-letter code, such as LV, RU, AZ."),
    )
    username = forms.CharField(
        label=_("Site account"),
        max_length=150,
        required=False,
        help_text=_(
            "The username of the player's account on this site, if they have one: linked, they "
            "can report and confirm their own results."
        ),
    )
    seed = forms.IntegerField(
        label=_("Seed"),
        min_value=1,
        max_value=SEED_MAX,
        required=False,
        help_text=_("1 is the strongest. Empty: placed after the seeded players at the start."),
    )
    gender = forms.ChoiceField(
        label=_("Gender"),
        choices=[("", "—"), *Player.Gender.choices],
        required=False,
        help_text=_(
            "A new player's, for a tournament for men or for women. A player already on the "
            "site has theirs on their profile."
        ),
    )
    birth_year = forms.IntegerField(
        label=_("Birth year"),
        min_value=BIRTH_YEAR_EARLIEST,
        max_value=9999,
        required=False,
        help_text=_("A new player's, for a tournament with a minimum age."),
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        player_field = self.fields["player"]
        assert isinstance(player_field, PlayerByName)
        player_field.players = Player.objects.exclude(entries__tournament=tournament)
        # The profile's fields only where the tournament asks for them.
        if not tournament.category:
            del self.fields["gender"]
        if tournament.min_age is None and tournament.max_age is None:
            del self.fields["birth_year"]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("player") and data.get("display_name"):
            raise forms.ValidationError(_("Pick an existing player or type a new name, not both."))
        if not data.get("player") and not data.get("display_name"):
            raise forms.ValidationError(_("Pick an existing player or type a new player's name."))
        return data

    def new_entry(self) -> NewEntry:
        data = self.cleaned_data
        player = data["player"]
        return NewEntry(
            name=player.display_name if player else data["display_name"],
            club=data["club"],
            country=data["country"],
            seed=data["seed"],
            username=data["username"],
            gender=data.get("gender") or "",
            birth_year=data.get("birth_year"),
        )


class PairAddForm(QuotingAtMostTheLimit, forms.Form):
    """A pair to enter (the pairs discipline): two players, each picked from the list or typed
    in as new, and the pair's name."""

    first = PlayerByName(label=_("First player"))
    first_name = forms.CharField(
        label=_("Or a new first player's name"), max_length=100, required=False
    )
    second = PlayerByName(label=_("Second player"))
    second_name = forms.CharField(
        label=_("Or a new second player's name"), max_length=100, required=False
    )
    name = forms.CharField(
        label=_("Pair's name"),
        max_length=100,
        required=False,
        help_text=_("As pairings and standings show it. Empty: the two players' names."),
    )
    seed = forms.IntegerField(label=_("Seed"), min_value=1, max_value=SEED_MAX, required=False)

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("first", "second"):
            field = self.fields[name]
            assert isinstance(field, PlayerByName)
            field.players = Player.objects.filter(pair__isnull=True)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for name, label in (("first", _("first")), ("second", _("second"))):
            picked, typed = data.get(name), (data.get(f"{name}_name") or "").strip()
            if bool(picked) == bool(typed):
                raise forms.ValidationError(
                    _("Pick the %(which)s player or type a new name (one of the two).")
                    % {"which": label}
                )
        return data

    def players(self) -> tuple[Player | str, Player | str]:
        """Each player picked, or the new player's name typed."""
        data = self.cleaned_data
        return (
            data["first"] or data["first_name"].strip(),
            data["second"] or data["second_name"].strip(),
        )


class EntriesImportForm(QuotingAtMostTheLimit, forms.Form):
    file = forms.FileField(
        label=_("CSV file"),
        help_text=_(
            "A first row naming the columns: name (required), club, country, seed, username, "
            "gender (male or female) and birth_year (a new player's), in any order; then one "
            "player a row. UTF-8; cells separated by commas or semicolons. "
            "Any problem rejects the whole file, naming its line."
        ),
    )


class EntriesPasteForm(QuotingAtMostTheLimit, forms.Form):
    """A list of names, one a line: previewed first, entered once the preview is confirmed."""

    names = forms.CharField(
        label=_("Names, one a line"),
        max_length=PASTE_MAX_CHARS,
        strip=False,
        widget=forms.Textarea(
            attrs={"rows": 8, "autocomplete": "off", "spellcheck": "false", "translate": "no"}
        ),
        help_text=_(
            "Paste or type the list. Each name is matched to the players of the site before "
            "anything is entered; blank lines, names listed twice and players entered already "
            "are left out."
        ),
    )

    def answers(self, posted: Mapping[str, str]) -> dict[int, str]:
        """The answers of the preview's lines, posted as ``answer-<line>``."""
        return {
            int(key.removeprefix("answer-")): value
            for key, value in posted.items()
            if key.startswith("answer-")
            and key.removeprefix("answer-").isdecimal()
            and len(key) <= len("answer-") + 6
        }


class EntryWithdrawForm(QuotingAtMostTheLimit, forms.Form):
    entry = forms.ModelChoiceField(queryset=Entry.objects.none(), widget=forms.HiddenInput)
    forfeit_remaining = forms.BooleanField(
        label=_("and forfeit their matches still to play"), required=False
    )

    def __init__(self, *args: Any, tournament: Tournament, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        entry_field = self.fields["entry"]
        assert isinstance(entry_field, forms.ModelChoiceField)
        entry_field.queryset = tournament.entries.select_related("player")
