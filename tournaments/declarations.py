"""A tournament's settings, each declared once, where its model field is.

The model field says a setting's type, default, limits, label and help; the ``Setting`` beside it
(``declared(field, Setting(...))``) says the rest: its section of the organizer's form, which
game, format or other settings it applies to, whether the start locks it, whether a stage of a
two-stage event takes it, and what the rules summary says of it. Everything else is made from
these declarations, and names no setting of its own:

- the organizer's form: its fields, sections, show/hide data for the page's script, and the
  reset of what does not apply (``tournaments.web.forms.TournamentForm``);
- the API's serializer and so its OpenAPI schema (``tournaments.api.serializers``);
- the validation of what does not apply (``refused``) and the lists of what may change after the
  start and what a stage inherits (``tournaments.services``);
- the rules summary on the tournament's page (``rules_summary``).

Adding a rule is its field with its ``Setting``, its migration, and the code that plays by it
(``docs/architecture.md``: "Adding a tournament rule").

A condition (``applies``) maps the names of settings (or of values the tournament derives, as
``match_kind``) to the values under which the setting applies; all must hold, and a name written
``a|b`` holds when either holds. Values are compared as the page's script compares them: a
ticked box is ``"on"``, an empty one or an empty value ``""`` (``as_choice``).
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from django.db import models
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

#: A ticked box, as a condition names it.
ON = ("on",)


class Section(enum.Enum):
    """The sections of the organizer's form, in the order the page shows them."""

    EVENT = "event"
    MATCH = "match"
    TABLE = "table"
    FORMAT = "format"
    STANDINGS = "standings"
    WHO = "who"
    SIGNUP = "signup"

    @property
    def label(self) -> str | Promise:
        """Its legend, translated when it is shown (lazily: the form's sections are made once)."""
        return SECTION_LABELS[self]


SECTION_LABELS = {
    Section.EVENT: _("The event"),
    Section.MATCH: _("Match rules"),
    Section.TABLE: _("At the table"),
    Section.FORMAT: _("Format options"),
    Section.STANDINGS: _("Standings"),
    Section.WHO: _("Who may play"),
    Section.SIGNUP: _("Sign-up and check-in"),
}


class Stages(enum.Enum):
    """Which stages of a two-stage event take a setting from the event."""

    NONE = "none"
    #: Both stages: the match rules, the standings' rules, who may play.
    EVERY = "every"
    #: The bracket (stage 2) only: the bracket's own options.
    BRACKET = "bracket"


@dataclass(frozen=True)
class Says:
    """What the rules summary says of a setting: a line ``label: value``, where ``value`` is
    made from the tournament (None: no line)."""

    label: str | Promise
    value: Callable[[Any], str | None]


@dataclass(frozen=True)
class Setting:
    """What a setting is to the rest of the site, beside its model field."""

    section: Section
    applies: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: Why a value other than the default is refused where the setting does not apply (None:
    #: such a value is kept and plays no part).
    refused: str | Promise | None = None
    #: The start locks it (False: it may still change while the tournament runs).
    locked: bool = True
    stages: Stages = Stages.NONE
    says: Says | None = None
    #: The form's own fields that stand for it (None: the model field's own form field; ``()``:
    #: none, another setting's fields stand for it too).
    form: tuple[str, ...] | None = None
    #: A new tournament's value when none is given, made from its other settings (the tie-break
    #: order of its format); None: the model field's default. The creation (service and API)
    #: and the form's initial values take it from here.
    initial: Callable[[Any], Any] | None = None


F = TypeVar("F", bound=models.Field)  # type: ignore[type-arg]


def declared(model_field: F, setting: Setting) -> F:
    """The model field, carrying its setting's declaration."""
    model_field.setting = setting  # type: ignore[attr-defined]
    return model_field


@dataclass(frozen=True)
class Declared:
    """A declared setting: its name, its model field and its declaration."""

    name: str
    field: models.Field  # type: ignore[type-arg]
    setting: Setting

    @property
    def default(self) -> Any:
        return self.field.get_default()

    def initial_for(self, instance: models.Model) -> Any:
        """A new ``instance``'s value of the setting, as its other settings are now."""
        initial = self.setting.initial
        return self.field.get_default() if initial is None else initial(instance)

    def applies_to(self, instance: models.Model) -> bool:
        """Whether the setting applies to ``instance``, as its other settings now are."""
        return applies(self.setting.applies, lambda name: getattr(instance, name))

    def form_fields(self) -> tuple[str, ...]:
        """The names of the form's fields that stand for it."""
        return (self.name,) if self.setting.form is None else self.setting.form


@functools.cache
def settings_of(model: type[models.Model]) -> tuple[Declared, ...]:
    """The model's declared settings, in the order of its fields (read once: the fields are
    made when the model is)."""
    return tuple(
        Declared(model_field.name, model_field, model_field.setting)
        for model_field in model._meta.get_fields()
        if isinstance(model_field, models.Field) and hasattr(model_field, "setting")
    )


def taken_by_stages(model: type[models.Model], stages: Stages) -> tuple[str, ...]:
    """The names of the settings that these stages of a two-stage event take from it."""
    return tuple(item.name for item in settings_of(model) if item.setting.stages == stages)


def applies(when: Mapping[str, tuple[str, ...]], value_of: Callable[[str], Any]) -> bool:
    """Whether every condition of ``when`` holds for the values ``value_of`` gives."""
    for names, allowed in when.items():
        if not any(as_choice(value_of(name)) in allowed for name in names.split("|")):
            return False
    return True


def as_choice(value: Any) -> str:
    """A value as a condition compares it: a ticked box is "on", an empty one ""."""
    if value is True:
        return "on"
    if value is False or value is None:
        return ""
    return str(value)


def yes_no(name: str) -> Callable[[Any], str]:
    """The summary's value of a box: yes or no."""
    return lambda tournament: str(_("yes") if getattr(tournament, name) else _("no"))


def shown(name: str) -> Callable[[Any], str]:
    """The summary's value of a choice: its label."""
    return lambda tournament: str(getattr(tournament, f"get_{name}_display")())


def when_set(name: str) -> Callable[[Any], str | None]:
    """The summary's value of a number or a choice that may be empty: its label or the number
    itself, or no line when it is empty."""

    def value(tournament: Any) -> str | None:
        if getattr(tournament, name) in (None, ""):
            return None
        display = getattr(tournament, f"get_{name}_display", None)
        return str(display() if display else getattr(tournament, name))

    return value


def summary_of(instance: models.Model) -> list[tuple[str, str]]:
    """What the rules summary says of ``instance``'s settings: a line for each setting that
    applies and has something to say, in the order of the declarations."""
    lines = []
    for item in settings_of(type(instance)):
        says = item.setting.says
        if says is None or not item.applies_to(instance):
            continue
        value = says.value(instance)
        if value is not None:
            lines.append((str(says.label), value))
    return lines
