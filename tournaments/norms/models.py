"""The statuses of events in the federation's calendar, and the rank norms staff keep."""

from django.core.validators import MinValueValidator
from django.db import models
from django.utils.translation import gettext, gettext_noop
from django.utils.translation import gettext_lazy as _

from tournaments.models import Player, Tournament

#: The names of the example table's statuses (``example_norms.csv``): data in English, shown
#: in the page's language (``EventStatus.__str__``); a real table loaded in another language
#: shows its names as given.
EXAMPLE_STATUS_NAMES = (
    gettext_noop("Championship of Russia"),
    gettext_noop("All-Russian event"),
    gettext_noop("Regional championship"),
)


class EventStatus(models.Model):
    """A status of an event in the federation's calendar (the Championship of Russia, an
    all-Russian event, a regional championship …): what a rank norm is met at."""

    code = models.SlugField(_("code"), max_length=40, unique=True)
    name = models.CharField(_("name"), max_length=200)
    #: Higher statuses first on the pages.
    order = models.PositiveSmallIntegerField(_("order"), default=0)

    class Meta:
        app_label = "tournaments"
        ordering = ["order", "name"]
        verbose_name = _("event status")
        verbose_name_plural = _("event statuses")

    def __str__(self) -> str:
        # The example table's names are marked for translation (``tournaments.norms``); any
        # other name has no translation and shows as given.
        return gettext(self.name)


class RankNorm(models.Model):
    """One norm: at an event of ``status`` in ``discipline``, for ``gender`` ("": both), a
    place of ``places_up_to`` or better among at least ``participants_from`` participants meets
    ``rank``. ``example``: a row of the example table shipped while the official one is not
    found."""

    status = models.ForeignKey(
        EventStatus, verbose_name=_("event status"), on_delete=models.CASCADE, related_name="norms"
    )
    discipline = models.CharField(
        _("discipline"), max_length=12, choices=Tournament.Discipline.choices
    )
    gender = models.CharField(
        _("gender"), max_length=6, choices=Player.Gender.choices, blank=True, default=""
    )
    rank = models.CharField(_("rank"), max_length=4, choices=Player.SportRank.choices[1:])
    participants_from = models.PositiveIntegerField(
        _("at least this many participants"), validators=[MinValueValidator(1)]
    )
    places_up_to = models.PositiveIntegerField(_("place up to"), validators=[MinValueValidator(1)])
    example = models.BooleanField(_("example"), default=False)

    class Meta:
        app_label = "tournaments"
        ordering = ["status", "discipline", "gender", "participants_from", "places_up_to"]
        verbose_name = _("rank norm")
        verbose_name_plural = _("rank norms")

    def __str__(self) -> str:
        return f"{self.status} · {self.discipline} · {self.rank}"
