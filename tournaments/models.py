from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.text import format_lazy
from django.utils.translation import gettext, ngettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from games.rules import Variant as GameVariant
from tournaments import disciplines, eligibility
from tournaments.declarations import (
    ON,
    Says,
    Section,
    Setting,
    Stages,
    declared,
    shown,
    when_set,
    yes_no,
)
from tournaments.fields import country_field
from tournaments.formats import elimination
from tournaments.formats.swiss import MAX_OUT_AFTER_LOSSES
from tournaments.names import search_key
from tournaments.regions import REGION_CODE_LENGTH, is_region
from tournaments.rows import lock
from tournaments.scoring import DEFAULT_TOP_STAKE, MAX_MATCH_LENGTH, MatchRules
from tournaments.scoring.clock import TimeControl, is_blitz
from tournaments.standings import ROUND_ROBIN_ORDER, SWISS_ORDER
from tournaments.words import TIEBREAK_NAMES, clock_text, points_text

#: How a match is played (``Tournament.match_kind``): to a number of points, or as a fixed
#: number of games.
MATCH_TO_POINTS, MATCH_OF_GAMES = "points", "games"
#: When a match can end drawn, as the form's conditions say it (the rule itself is
#: ``MatchRules.match_can_be_drawn``): two games or more, or a game that can be drawn (the
#: Federation rule, which only Long Nardy offers).
MATCH_CAN_BE_DRAWN = {
    "match_kind": (MATCH_OF_GAMES,),
    "match_size|federation_draw": ("on", *(str(n) for n in range(2, MAX_MATCH_LENGTH + 1))),
}
#: The lowest "fewest players" a tournament may name: two play a match.
MIN_PARTICIPANTS_LOWEST = 2


def age_field(verbose_name: Any, help_text: Any) -> models.PositiveSmallIntegerField:  # type: ignore[type-arg]
    """An optional age a tournament asks for (its youngest or its oldest), counted as the sport
    rules count it (``tournaments.eligibility``)."""
    return models.PositiveSmallIntegerField(
        verbose_name,
        null=True,
        blank=True,
        validators=[
            MinValueValidator(eligibility.MIN_AGE_LOWEST),
            MaxValueValidator(eligibility.MIN_AGE_HIGHEST),
        ],
        help_text=help_text,
    )


def birth_year_not_ahead(year: int) -> None:
    """A birth year is no later than this year."""
    this_year = timezone.localdate().year
    if year > this_year:
        raise ValidationError(
            _("A birth year is %(year)s at the latest."),
            code="max_value",
            params={"year": this_year},
        )


def region_code(code: str) -> None:
    """A region is an ISO 3166-2:RU code ("RU-MOW")."""
    if not is_region(code):
        raise ValidationError(
            _("%(code)s is not a subject of the Russian Federation (ISO 3166-2:RU)."),
            code="invalid",
            params={"code": code},
        )


class Player(models.Model):
    """A person who plays (or a pair: ``Pair``). Who they are (the account linked, a merge with
    a duplicate, a pair's name) is decided by staff and by the runners of their ``home_club``,
    the club that made the record (``tournaments.policy``, ``players.ownership``): entering them
    in a tournament gives no such right."""

    class Gender(models.TextChoices):
        MALE = eligibility.MALE, _("Male")
        FEMALE = eligibility.FEMALE, _("Female")

    class SportRank(models.TextChoices):
        """The sport ranks and titles of the unified all-Russian sport classification (ЕВСК),
        lowest first."""

        NONE = "", _("No rank")
        YOUTH_3 = "3y", _("3rd youth rank")
        YOUTH_2 = "2y", _("2nd youth rank")
        YOUTH_1 = "1y", _("1st youth rank")
        ADULT_3 = "3", _("3rd adult rank")
        ADULT_2 = "2", _("2nd adult rank")
        ADULT_1 = "1", _("1st adult rank")
        KMS = "kms", _("Candidate Master of Sport (KMS)")
        MS = "ms", _("Master of Sport (MS)")
        MSMK = "msmk", _("Master of Sport, International Class (MSMK)")

    display_name = models.CharField(_("display name"), max_length=100, unique=True)
    #: The name as a search finds it (``names.search_key``): Latin letters, lower case, so that
    #: "Виктор" and "Viktor" find each other. Kept by ``save``.
    search_key = models.CharField(max_length=200, blank=True, default="", editable=False)
    #: The club as written (a CSV cell, an import): shown where the player has no home club.
    club = models.CharField(_("club"), max_length=100, blank=True)
    home_club = models.ForeignKey(
        "tournaments.Club",
        verbose_name=_("home club"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="home_players",
        help_text=_("The club that made the record: its owners and organizers decide who the "
                    "player is (claims, merges). Empty: staff decide."),
    )  # fmt: skip
    country = country_field()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user account"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="players",
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    #: The profile a tournament of a category asks for (``tournaments.eligibility``):
    #: optional, personal (shown to the player and to who decides who they are, never public;
    #: the gender sets the grammar of what the Russian pages say of the player: tournaments.said).
    gender = models.CharField(
        _("gender"), max_length=6, choices=Gender.choices, blank=True, default=""
    )
    birth_year = models.PositiveSmallIntegerField(
        _("birth year"),
        null=True,
        blank=True,
        validators=[MinValueValidator(eligibility.BIRTH_YEAR_EARLIEST), birth_year_not_ahead],
        help_text=_("The age a tournament asks for is counted in the calendar year."),
    )
    #: The subject of the Russian Federation the athlete represents: published, with the birth
    #: year and the rank, in the protocol of an official event they enter.
    region = models.CharField(
        _("region"),
        max_length=REGION_CODE_LENGTH,
        blank=True,
        default="",
        validators=[region_code],
        help_text=_("The subject of the Russian Federation the player represents."),
    )
    sport_rank = models.CharField(
        _("sport rank"), max_length=4, choices=SportRank.choices, blank=True, default=""
    )
    sport_rank_since = models.DateField(
        _("rank given on"),
        null=True,
        blank=True,
        help_text=_("The date the rank or title was given."),
    )

    class Meta:
        ordering = ["display_name"]
        verbose_name = _("player")
        verbose_name_plural = _("players")

    def __str__(self) -> str:
        return self.display_name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.search_key = search_key(self.display_name)
        fields = kwargs.get("update_fields")
        if fields is not None and "display_name" in fields:
            kwargs["update_fields"] = {*fields, "search_key"}
        super().save(*args, **kwargs)


class Pair(models.Model):
    """Two players who play as one side in the pairs discipline (Short Nardy: they may consult
    each other during the match). A pair plays as a player record of its own (``player``: the
    pair's name, its entries, its rating on the pairs list), so that every format, the standings
    and the ratings take a pair as they take a player, and the two players' own records and
    ratings are never touched. ``first`` is the one with the lower id: a pair is one pair
    whichever way round it is named."""

    player = models.OneToOneField(
        Player, verbose_name=_("pair's record"), on_delete=models.CASCADE, related_name="pair"
    )
    first = models.ForeignKey(
        Player, verbose_name=_("first player"), on_delete=models.PROTECT, related_name="+"
    )
    second = models.ForeignKey(
        Player, verbose_name=_("second player"), on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        verbose_name = _("pair")
        verbose_name_plural = _("pairs")
        constraints = [
            models.UniqueConstraint(fields=["first", "second"], name="pair_unique"),
            models.CheckConstraint(
                condition=models.Q(first__lt=models.F("second")), name="pair_ordered"
            ),
        ]

    def __str__(self) -> str:
        return self.player.display_name

    @property
    def members(self) -> tuple[int, int]:
        return (self.first_id, self.second_id)


# What the rules summary says of the settings that need more than a yes, a no or a value (each
# is named by its setting's declaration, below).


def _says_pairs(tournament: "Tournament") -> str | None:
    return gettext("pairs: two players as one side, who may consult") if tournament.pairs else None


def _says_casual(tournament: "Tournament") -> str | None:
    if not tournament.casual:
        return None
    if tournament.variant == Tournament.Variant.LONG:
        return gettext("yes: it does not ask to be rated, and the recorder gives practice hints")
    return gettext("yes: it does not ask to be rated")


def _says_match(tournament: "Tournament") -> str:
    if tournament.match_length:
        n = tournament.match_length
        return ngettext("to %(n)s point", "to %(n)s points", n) % {"n": n}
    n = tournament.match_games or 0
    return ngettext("%(n)s game", "%(n)s games", n) % {"n": n}


def _says_federation_draw(tournament: "Tournament") -> str:
    if not tournament.federation_draw:
        return gettext("no")
    return gettext("yes, a drawn game counts %(value)s") % {
        "value": tournament.get_draw_counts_display()
    }


def _says_dave(tournament: "Tournament") -> str:
    if not tournament.dave:
        return gettext("no")
    dave = str(tournament.get_dave_progression_display())
    if tournament.max_stake:
        dave += " " + gettext("(highest stake %(n)s)") % {"n": tournament.max_stake}
    return dave


def _says_clock(tournament: "Tournament") -> str:
    control = tournament.clock()
    if control is None:
        return gettext("none")
    return gettext("%(clock)s; running out of time loses the match") % {
        "clock": clock_text(control)
    }


def _says_accepted(tournament: "Tournament") -> str:
    return gettext("allowed") if tournament.allows_accepted_moves else gettext("not allowed")


def _says_opening_roll(tournament: "Tournament") -> str:
    if tournament.plays_opening_roll:
        return gettext("one die each; the higher moves first, with both numbers")
    if tournament.variant == Tournament.Variant.SHORT:
        return gettext("the first to move plays White; the first roll is never a double")
    return gettext("White moves first; the first roll may be a double")


def _says_swiss_rounds(tournament: "Tournament") -> str | None:
    if tournament.first_stage:
        return None  # the first stage's line says it
    rounds = tournament.swiss_rounds
    return str(rounds) if rounds else gettext("while two players are still in")


def _says_out_after(tournament: "Tournament") -> str | None:
    out_after = tournament.swiss_out_after_losses
    if not out_after:
        return None
    return ngettext("after %(n)s lost match", "after %(n)s lost matches", out_after) % {
        "n": out_after
    }


def _says_first_stage(tournament: "Tournament") -> str | None:
    if tournament.first_stage == Tournament.FirstStage.GROUPS:
        return gettext("%(groups)s round-robin groups; the top %(advance)s of each go on") % {
            "groups": tournament.groups, "advance": tournament.advance}  # fmt: skip
    if tournament.first_stage == Tournament.FirstStage.SWISS:
        return gettext("a Swiss of %(rounds)s rounds; the top %(advance)s go on") % {
            "rounds": tournament.swiss_rounds, "advance": tournament.advance}  # fmt: skip
    return None


#: The tie-break order a tournament gets unless its organizer chooses another, by how its
#: standings are played: its first stage's kind, or else its format (``tournaments.standings``
#: says why these orders). The one place that says it: the creation, the API and the form take
#: it from ``Tournament.tiebreaks``' declaration (``Setting.initial``).
DEFAULT_TIEBREAKS: dict[str, tuple[str, ...]] = {
    "round-robin": ROUND_ROBIN_ORDER,
    "double-round-robin": ROUND_ROBIN_ORDER,
    "groups": ROUND_ROBIN_ORDER,
    "swiss": SWISS_ORDER,
}


def default_tiebreaks(tournament: "Tournament") -> list[str]:
    """The tie-break order of ``DEFAULT_TIEBREAKS`` for the tournament's format (none for a
    bracket without a first stage: it has no standings)."""
    kind = tournament.first_stage or tournament.format
    return [str(tiebreak) for tiebreak in DEFAULT_TIEBREAKS.get(kind, ())]


def _says_tiebreaks(tournament: "Tournament") -> str | None:
    names = [str(TIEBREAK_NAMES[name]) for name in tournament.tiebreaks if name in TIEBREAK_NAMES]
    return ", ".join(names) or gettext("none: the match points alone")


def _says_shared_places(tournament: "Tournament") -> str:
    if tournament.first_stage or tournament.parent_id is not None:  # a cut must be decided
        return gettext(
            "where the order decides who goes on to stage 2 or their seeds, lots drawn when "
            "stage 2 is built; elsewhere in stage 1 they share their place"
        )
    if tournament.shared_places:
        return gettext("they share their place")
    return gettext("lots are drawn when the tournament finishes")


def _says_points(tournament: "Tournament") -> str:
    points = {
        "win": points_text(tournament.points_win),
        "draw": points_text(tournament.points_draw),
        "loss": points_text(tournament.points_loss),
        "bye": points_text(tournament.points_bye),
    }
    if not tournament.match_can_be_drawn:  # a match to points, or a single game, say
        return gettext("win %(win)s, loss %(loss)s, bye %(bye)s") % points
    return gettext("win %(win)s, draw %(draw)s, loss %(loss)s, bye %(bye)s") % points


def _says_age(tournament: "Tournament") -> str | None:
    if tournament.min_age is None or tournament.max_age is not None:  # an age group says it
        return None
    return gettext("%(age)s (counted in the calendar year %(year)s)") % {
        "age": tournament.min_age, "year": tournament.age_year()}  # fmt: skip


def _says_age_group(tournament: "Tournament") -> str | None:
    group = tournament.age_group_text()
    if group is None or tournament.max_age is None:
        return None
    return gettext("%(group)s (counted in the calendar year %(year)s)") % {
        "group": group, "year": tournament.age_year()}  # fmt: skip


def _says_category(tournament: "Tournament") -> str | None:
    return tournament.category_text() or None


def initial_min_age(tournament: "Tournament") -> int | None:
    """An official event's minimum age, when none is given: the sport rules' (art. 7.2), unless
    a youth group is chosen (a maximum age)."""
    if tournament.official and tournament.max_age is None:
        return eligibility.RULES_MIN_AGE
    return None


class Tournament(models.Model):
    """A tournament: its game, format, status, organizers, match rules and standings rules."""

    class Variant(models.TextChoices):
        LONG = "long", _("Long Nardy")
        SHORT = "short", _("Short Nardy")

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class Format(models.TextChoices):
        ROUND_ROBIN = "round-robin", _("Round robin")
        DOUBLE_ROUND_ROBIN = "double-round-robin", _("Double round robin")
        SWISS = "swiss", _("Swiss")
        SINGLE_ELIMINATION = "single-elimination", _("Single elimination")
        DOUBLE_ELIMINATION = "double-elimination", _("Double elimination")
        CONSOLATION = "consolation", _("Main and consolation brackets")

    #: The formats played in rounds (the others are brackets).
    ROUND_FORMATS = (Format.ROUND_ROBIN, Format.DOUBLE_ROUND_ROBIN, Format.SWISS)
    #: The formats played as a bracket.
    ELIMINATION_FORMATS = (Format.SINGLE_ELIMINATION, Format.DOUBLE_ELIMINATION, Format.CONSOLATION)
    #: Where standings are kept: the round formats, and the first stage of a two-stage event.
    STANDINGS_FORMATS = (*ROUND_FORMATS, "groups", "swiss")
    #: Past their draft: what everyone sees. Queries name these (IN) rather than exclude the
    #: draft: once prepared, PostgreSQL's generic plan took ``status <> $1`` for one row when
    #: nearly every tournament is finished, and nested-looped joins over all of them (270 ms).
    PUBLIC = (Status.REGISTRATION, Status.RUNNING, Status.FINISHED)

    class Category(models.TextChoices):
        OPEN = "", _("Open: men and women")
        MEN = eligibility.MEN, _("Men")
        WOMEN = eligibility.WOMEN, _("Women")

    class Progression(models.TextChoices):
        GEOMETRIC = "geometric", _("Geometric: 1, 2, 4, 8 …")
        ARITHMETIC = "arithmetic", _("Arithmetic: 1, 2, 3, 4 …")

    class DrawCounts(models.TextChoices):
        HALF = "half", _("½–½")
        ONE = "one", _("1–1")

    class BlockCheck(models.TextChoices):
        STEP = "step", _("After every checker move")
        TURN = "turn", _("At the end of the turn")

    class GrandFinal(models.TextChoices):
        RESET = "reset", _("With a reset match")
        SINGLE = "single", _("A single match")
        NONE = "none", _("None")

    class ConsolationKind(models.TextChoices):
        FIRST_ROUND = "first-round", _("First-round losers")
        PROGRESSIVE = "progressive", _("Progressive")

    class RatingSystem(models.TextChoices):
        FIBS = "fibs", _("FIBS")
        ELO = "elo", _("Elo")

    class Discipline(models.TextChoices):
        """The five disciplines of the sport rules (``tournaments.disciplines``)."""

        LONG = disciplines.LONG, _("Long Nardy")
        LONG_BLITZ = disciplines.LONG_BLITZ, _("Long Nardy blitz")
        SHORT = disciplines.SHORT, _("Short Nardy")
        SHORT_BLITZ = disciplines.SHORT_BLITZ, _("Short Nardy blitz")
        SHORT_PAIRS = disciplines.SHORT_PAIRS, _("Short Nardy pairs")

    class FirstStage(models.TextChoices):
        NONE = "", _("None: one stage")
        GROUPS = "groups", _("Round-robin groups")
        SWISS = "swiss", _("A Swiss")

    # The settings: each field is its setting's declaration (``tournaments.declarations``), in
    # the order of the form's sections and of the rules summary.

    # The event.
    name = declared(
        models.CharField(
            _("name"),
            max_length=200,
            help_text=_("As players will see it. The page's address is made from it once."),
        ),
        Setting(Section.EVENT, locked=False),
    )
    slug = models.SlugField(_("slug"), max_length=200, unique=True)
    variant = declared(
        models.CharField(
            _("variant"),
            max_length=10,
            choices=Variant.choices,
            help_text=_(
                "Long Nardy: no hitting, both players move the same way round from their heads. "
                "Short Nardy: backgammon, with hitting and the bar."
            ),
        ),
        Setting(Section.EVENT, stages=Stages.EVERY, says=Says(_("Game"), shown("variant"))),
    )
    #: The pairs discipline (Short Nardy only): every entry is a pair (``Pair``), two players
    #: who may consult each other and play as one side; pairs are rated on a list of their own.
    pairs = declared(
        models.BooleanField(
            _("pairs"),
            default=False,
            help_text=_(
                "The pairs discipline: each entry is a pair of two players who play as one side "
                "and may consult each other during the match. Pairs are rated on a list of their "
                "own; the players' own ratings do not move. Short Nardy only."
            ),
        ),
        Setting(
            Section.EVENT,
            applies={"variant": ("short",)},
            refused=_("There are no pairs in Long Nardy: pairs play Short Nardy."),
            stages=Stages.EVERY,
            says=Says(_("Discipline"), _says_pairs),
        ),
    )
    format = declared(
        models.CharField(
            _("format"),
            max_length=30,
            choices=Format.choices,
            default=Format.ROUND_ROBIN,
            help_text=_(
                "Round robin: everyone plays everyone (double: twice). Swiss: a set number of "
                "rounds; players with equal scores meet, nobody twice. Single elimination: one "
                "loss and out. Double elimination: out after the second loss. Main and "
                "consolation: losers of the main bracket play on in a consolation bracket."
            ),
        ),
        Setting(Section.EVENT, says=Says(_("Format"), shown("format"))),
    )
    rating_system = declared(
        models.CharField(
            _("rating system"),
            max_length=10,
            choices=RatingSystem.choices,
            default=RatingSystem.FIBS,
            help_text=_(
                "How the matches change the players' ratings. FIBS: the backgammon servers' "
                "formula; longer matches count more and new players' ratings move faster. Elo: "
                "the chess formula, the same weight for every match whatever its length."
            ),
        ),
        Setting(
            Section.EVENT,
            stages=Stages.EVERY,
            says=Says(_("Rating system"), shown("rating_system")),
        ),
    )
    #: Casual: the tournament does not ask to be rated, and in Long Nardy the recorder gives
    #: the engine's practice hint; one that asks never does (``live.hints.hints_given``).
    casual = declared(
        models.BooleanField(
            _("casual: not asking to be rated"),
            default=False,
            help_text=_(
                "A casual event does not ask to be rated: in Long Nardy the recorder shows each "
                "player the engine's practice hint after a play. An event that asks to be rated "
                "never shows hints; a rating officer sees which matches had them before "
                "approving it."
            ),
        ),
        Setting(Section.EVENT, stages=Stages.EVERY, says=Says(_("Casual"), _says_casual)),
    )
    #: Official: an event of the federation's calendar, judged by its panel of judges
    #: (``tournaments.officials``) and closed with a protocol.
    official = declared(
        models.BooleanField(
            _("official event"),
            default=False,
            help_text=_(
                "An event of the federation's calendar. Its panel of judges decides disputes, "
                "forfeits, clock actions and accepted moves, and the chief judge closes it; no "
                "organizer or judge may play in it. Its protocol publishes each player's birth "
                "year, region and rank."
            ),
        ),
        Setting(
            Section.EVENT, stages=Stages.EVERY, says=Says(_("Official event"), yes_no("official"))
        ),
    )
    venue = declared(
        models.CharField(
            _("venue"),
            max_length=200,
            blank=True,
            default="",
            help_text=_("Where it is played: a town and a hall, as the protocol gives it."),
        ),
        Setting(Section.EVENT, locked=False, says=Says(_("Venue"), when_set("venue"))),
    )
    #: The discipline, which follows from the game, the pairs and the clock (kept by ``save``):
    #: each is rated on a list of its own.
    discipline = models.CharField(
        _("discipline"),
        max_length=12,
        choices=Discipline.choices,
        default=Discipline.LONG,
        editable=False,
        db_index=True,
    )
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.DRAFT
    )
    #: The event's status in the federation's calendar (official events): the rank norms are
    #: met at a status (``tournaments.norms``).
    event_status = declared(
        models.ForeignKey(
            "tournaments.EventStatus",
            verbose_name=_("event status"),
            null=True,
            blank=True,
            on_delete=models.PROTECT,
            related_name="tournaments",
            help_text=_(
                "The event's status in the federation's calendar (the Championship of Russia, an "
                "all-Russian event …): the rank norms its places meet depend on it."
            ),
        ),
        Setting(
            Section.EVENT,
            applies={"official": ("on",)},
            stages=Stages.EVERY,
            says=Says(_("Event status"), when_set("event_status")),
        ),
    )
    organizer = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("organizer"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="organized_tournaments",
    )
    co_organizers = models.ManyToManyField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("co-organizers"),
        blank=True,
        related_name="co_organized_tournaments",
    )
    players = models.ManyToManyField(
        Player, through="Entry", related_name="tournaments", verbose_name=_("players")
    )
    #: The club that runs it: the club's owners and organizers may run it too.
    club = models.ForeignKey(
        "tournaments.Club",
        verbose_name=_("club"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournaments",
    )
    #: The club's season it counts in (a season's events belong to the season's club).
    season = models.ForeignKey(
        "tournaments.Season",
        verbose_name=_("season"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="tournaments",
    )

    # Match rules: a match is played to N points or as a fixed number of games (``match_kind``;
    # the form asks which, and how many).
    match_length = declared(
        models.PositiveSmallIntegerField(
            _("match to points"),
            null=True,
            blank=True,
            default=5,
            validators=[MinValueValidator(1), MaxValueValidator(MAX_MATCH_LENGTH)],
        ),
        Setting(
            Section.MATCH,
            stages=Stages.EVERY,
            says=Says(_("Match"), _says_match),
            form=("match_kind", "match_size"),
        ),
    )
    match_games = declared(
        models.PositiveSmallIntegerField(
            _("fixed number of games"),
            null=True,
            blank=True,
            validators=[MinValueValidator(1), MaxValueValidator(MAX_MATCH_LENGTH)],
        ),
        Setting(Section.MATCH, stages=Stages.EVERY, form=()),
    )
    koks = declared(
        models.BooleanField(
            _("koks (triple game, Short Nardy)"),
            default=False,
            help_text=_(
                "A triple game (3 points): the loser has borne off no checker and still has one "
                "on the bar or in the winner's home. Short Nardy only."
            ),
        ),
        Setting(
            Section.MATCH,
            applies={"variant": ("short",)},
            refused=_("Koks and no hit-and-hide are Short Nardy rules."),
            stages=Stages.EVERY,
            says=Says(_("Koks (triple game)"), yes_no("koks")),
        ),
    )
    no_hit_and_hide = declared(
        models.BooleanField(
            _("no hit-and-hide (Short Nardy)"),
            default=False,
            help_text=_(
                "A checker that has hit may not, later in the same turn, stop on a point with "
                "another checker of its own. Hitting and moving on to an empty point, covering "
                "with another checker, or bearing off stay allowed. A house rule; Short Nardy "
                "only."
            ),
        ),
        Setting(
            Section.MATCH,
            applies={"variant": ("short",)},
            refused=_("Koks and no hit-and-hide are Short Nardy rules."),
            stages=Stages.EVERY,
            says=Says(_("No hit-and-hide"), yes_no("no_hit_and_hide")),
        ),
    )
    federation_draw = declared(
        models.BooleanField(
            _("Federation draw rule (Long Nardy)"),
            default=False,
            help_text=_(
                "When the player who started the game bears off the last checker first, the "
                "opponent gets one last turn; if it bears off all its remaining checkers in that "
                "turn, the game is drawn. Long Nardy only."
            ),
        ),
        Setting(
            Section.MATCH,
            applies={"variant": ("long",)},
            refused=_("The Federation draw rule is a Long Nardy rule."),
            stages=Stages.EVERY,
            says=Says(_("Federation draw rule"), _says_federation_draw),
        ),
    )
    draw_counts = declared(
        models.CharField(
            _("a drawn game counts"),
            max_length=4,
            choices=DrawCounts.choices,
            default=DrawCounts.HALF,
            help_text=_(
                "What a drawn game (Federation draw rule) adds to each player's match score: "
                "half a point or one point. Long Nardy with the Federation draw rule only."
            ),
        ),
        Setting(
            Section.MATCH,
            applies={"variant": ("long",), "federation_draw": ON},
            stages=Stages.EVERY,
        ),
    )
    block_check = declared(
        models.CharField(
            _("six-block check (Long Nardy)"),
            max_length=4,
            choices=BlockCheck.choices,
            default=BlockCheck.STEP,
            help_text=_(
                "Long Nardy's rule: nobody may hold six points in a row unless an opponent "
                "checker is already past them. After every checker move: no single move of the "
                "roll may make such a block (in some order of the moves). At the end of the "
                "turn: only the position after the whole roll counts. Long Nardy only."
            ),
        ),
        Setting(
            Section.MATCH,
            applies={"variant": ("long",)},
            stages=Stages.EVERY,
            says=Says(_("Six-block check"), shown("block_check")),
        ),
    )
    dave = declared(
        models.BooleanField(
            _("dave (doubling)"),
            default=True,
            help_text=_(
                "Doubling the stake: before rolling, a player holding the right may raise the "
                "stake. The opponent accepts (and then alone holds the right) or declines and "
                "loses the game at the stake before the offer."
            ),
        ),
        Setting(
            Section.MATCH,
            stages=Stages.EVERY,
            says=Says(_("Dave (doubling)"), _says_dave),
        ),
    )
    dave_progression = declared(
        models.CharField(
            _("dave progression"),
            max_length=10,
            choices=Progression.choices,
            default=Progression.GEOMETRIC,
            help_text=_(
                "How the stake rises with each dave: doubling (1, 2, 4, 8 …) or by one "
                "(1, 2, 3, 4 …). Only with dave."
            ),
        ),
        Setting(Section.MATCH, applies={"dave": ON}, stages=Stages.EVERY),
    )
    max_stake = declared(
        models.PositiveIntegerField(
            _("highest stake"),
            null=True,
            blank=True,
            validators=[MinValueValidator(1), MaxValueValidator(DEFAULT_TOP_STAKE)],
            help_text=format_lazy(
                _("The highest stake dave may reach, 1 to {most}. Empty: {most}. Only with dave."),
                most=DEFAULT_TOP_STAKE,
            ),
        ),
        Setting(Section.MATCH, applies={"dave": ON}, stages=Stages.EVERY),
    )
    crawford = declared(
        models.BooleanField(
            _("Crawford rule"),
            default=True,
            help_text=_(
                "In the one game right after a player first comes within one point of winning the "
                "match, nobody may offer dave. Only with dave in a match to points."
            ),
        ),
        Setting(
            Section.MATCH,
            applies={"dave": ON, "match_kind": (MATCH_TO_POINTS,)},
            stages=Stages.EVERY,
            says=Says(_("Crawford rule"), yes_no("crawford")),
        ),
    )

    # At the table.
    #: A clock per player for the whole match, as ``TimeControl.as_json`` gives it (the API's
    #: contract), or None: no clock. Running out of time loses the match.
    time_control = declared(
        models.JSONField(_("time control"), null=True, blank=True, default=None),
        Setting(
            Section.TABLE,
            stages=Stages.EVERY,
            says=Says(_("Clock"), _says_clock),
            form=("clock", "clock_kind", "clock_minutes", "clock_seconds"),
        ),
    )
    #: An incomplete or illegal play stands when the opponent accepts it (seed 001). Empty: as
    #: the game's rules, allowed in Long Nardy (seed 001 says so) and not in Short Nardy (its
    #: seeds do not have it): ``allows_accepted_moves``.
    accepted_moves = declared(
        models.BooleanField(
            _("moves the opponent accepts"),
            null=True,
            blank=True,
            default=None,
            help_text=_(
                "An incomplete or illegal play stands when the opponent accepts it (Long Nardy's "
                "rules, seed 001); otherwise the opponent may demand the correct move. The record "
                "keeps it marked as accepted. By the game's rules: allowed in Long Nardy, not in "
                "Short Nardy."
            ),
        ),
        Setting(
            Section.TABLE,
            stages=Stages.EVERY,
            says=Says(_("Illegal moves the opponent accepts"), _says_accepted),
        ),
    )
    #: The opening roll of the sport rules (art. 26.3): one die each, the higher moves first with
    #: both numbers, so the first roll is never a double and the first mover may be Black. Empty:
    #: as the event is, on in an official event. Short Nardy's first roll is never a double in any
    #: case; off, its recorder asks who moves first, and that player plays White.
    opening_roll = declared(
        models.BooleanField(
            _("opening roll: one die each"),
            null=True,
            blank=True,
            default=None,
            help_text=_(
                "Each player throws one die; the higher moves first with both numbers, so the "
                "first roll of a game is never a double and Black may move first (the sport "
                "rules, art. 26.3). Empty: on in official events. Short Nardy never opens with a "
                "double in any case; off, its recorder asks who moves first, and they play White."
            ),
        ),
        Setting(
            Section.TABLE, stages=Stages.EVERY, says=Says(_("Opening roll"), _says_opening_roll)
        ),
    )

    # Format options.
    swiss_rounds = declared(
        models.PositiveSmallIntegerField(
            _("Swiss rounds"),
            null=True,
            blank=True,
            help_text=_(
                "How many rounds are played. Swiss only: needed there unless players are out "
                "after a number of lost matches, when it may be left empty to play on while two "
                "players remain."
            ),
        ),
        Setting(
            Section.FORMAT,
            applies={"format|first_stage": ("swiss",)},
            says=Says(_("Swiss rounds"), _says_swiss_rounds),
        ),
    )
    #: A Swiss player is paired no more once they have lost this many matches (the federation's
    #: own cups: 3); with no ``swiss_rounds`` the Swiss goes on while two players remain.
    swiss_out_after_losses = declared(
        models.PositiveSmallIntegerField(
            _("out after lost matches (Swiss)"),
            null=True,
            blank=True,
            validators=[MinValueValidator(1), MaxValueValidator(MAX_OUT_AFTER_LOSSES)],
            help_text=_(
                "A player who has lost this many matches is paired no more and keeps their place "
                "in the standings (the federation's cups: 3). Empty: nobody is out. A one-stage "
                "Swiss only."
            ),
        ),
        Setting(
            Section.FORMAT,
            applies={"format": ("swiss",), "first_stage": ("",)},
            refused=_("Out after a number of lost matches is an option of a one-stage Swiss."),
            says=Says(_("A player is out"), _says_out_after),
        ),
    )
    third_place = declared(
        models.BooleanField(
            _("third-place match"),
            default=False,
            help_text=_(
                "The two semi-final losers play a match for third place (needs at least four "
                "players). Single elimination only."
            ),
        ),
        Setting(
            Section.FORMAT,
            applies={"format": ("single-elimination",)},
            stages=Stages.BRACKET,
            says=Says(_("Third-place match"), yes_no("third_place")),
        ),
    )
    grand_final = declared(
        models.CharField(
            _("grand final"),
            max_length=10,
            choices=GrandFinal.choices,
            default=GrandFinal.RESET,
            help_text=_(
                "How the winners' and the losers' bracket champions meet. With a reset match: "
                "if the losers' bracket champion wins the final, both have lost once and a "
                "second match decides. A single match: one match decides. None: no final; the "
                "winners' bracket champion is first. Double elimination only."
            ),
        ),
        Setting(
            Section.FORMAT,
            applies={"format": ("double-elimination",)},
            stages=Stages.BRACKET,
            says=Says(_("Grand final"), shown("grand_final")),
        ),
    )
    consolation_kind = declared(
        models.CharField(
            _("consolation bracket"),
            max_length=20,
            choices=ConsolationKind.choices,
            default=ConsolationKind.FIRST_ROUND,
            help_text=_(
                "Who plays in the consolation bracket. First-round losers: those who lose their "
                "first match of the main bracket. Progressive: the losers of every main round "
                "but the final drop in. Main and consolation only."
            ),
        ),
        Setting(
            Section.FORMAT,
            applies={"format": ("consolation",)},
            stages=Stages.BRACKET,
            says=Says(_("Consolation bracket"), shown("consolation_kind")),
        ),
    )
    last_chance = declared(
        models.BooleanField(
            _("last-chance bracket"),
            default=False,
            help_text=_(
                "The consolation bracket's first-round losers play on in a third bracket. Main "
                "and consolation only."
            ),
        ),
        Setting(
            Section.FORMAT,
            applies={"format": ("consolation",)},
            stages=Stages.BRACKET,
            says=Says(_("Last-chance bracket"), yes_no("last_chance")),
        ),
    )
    # Two stages: groups (round robins) or a Swiss first, then ``format``'s bracket for the top
    # players. The stages are tournaments of their own, with this one as their ``parent``.
    first_stage = declared(
        models.CharField(
            _("first stage"),
            max_length=10,
            choices=FirstStage.choices,
            default="",
            blank=True,
            help_text=_(
                "Two stages: round-robin groups (dealt by snake from the seeds, players of one "
                "club kept apart) or a Swiss first, then the bracket of the format above for "
                "the top players, cross-seeded (A1 meets B2, B1 meets A2 …). You build the "
                "bracket when stage 1 is over. Elimination formats only."
            ),
        ),
        Setting(
            Section.FORMAT,
            applies={"format": tuple(ELIMINATION_FORMATS)},
            says=Says(_("First stage"), _says_first_stage),
        ),
    )
    groups = declared(
        models.PositiveSmallIntegerField(
            _("groups"),
            null=True,
            blank=True,
            validators=[MinValueValidator(2), MaxValueValidator(26)],
            help_text=_("How many groups (2 to 26). Round-robin groups only."),
        ),
        Setting(
            Section.FORMAT,
            applies={"format": tuple(ELIMINATION_FORMATS), "first_stage": ("groups",)},
        ),
    )
    advance = declared(
        models.PositiveSmallIntegerField(
            _("players who go on"),
            null=True,
            blank=True,
            validators=[MinValueValidator(1)],
            help_text=_(
                "How many players go on to the bracket: from each group, or from the Swiss."
            ),
        ),
        Setting(
            Section.FORMAT,
            applies={"format": tuple(ELIMINATION_FORMATS), "first_stage": ("groups", "swiss")},
        ),
    )
    parent = models.ForeignKey(
        "self",
        verbose_name=_("two-stage event"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="stages",
    )
    stage = models.PositiveSmallIntegerField(_("stage"), null=True, blank=True)
    group = models.CharField(_("group"), max_length=2, blank=True)

    # Standings (where there are standings: the round formats, or a first stage).
    tiebreaks = declared(
        models.JSONField(
            _("tie-break order"),
            default=list,
            blank=True,
            help_text=_(
                "Players level on points are split by these, first to last. Buchholz: the sum "
                "of the opponents' scores; cut 1 leaves out the lowest, median the highest and "
                "the lowest. Sonneborn-Berger: the scores of the opponents beaten, plus half the "
                "scores of those drawn with. Direct encounter: the points the tied players "
                "scored against each other (only when all of them met). Matches won. Game "
                "points difference: game points won minus lost. Rating: the player's rating. "
                "Each format has its own order to start with. Round robin and Swiss only."
            ),
        ),
        Setting(
            Section.STANDINGS,
            applies={"format|first_stage": STANDINGS_FORMATS},
            stages=Stages.EVERY,
            says=Says(_("Tie-breaks"), _says_tiebreaks),
            initial=default_tiebreaks,
        ),
    )
    #: Players the tie-breaks leave level share their place only when the organizer chose it;
    #: otherwise the finish draws lots for them (``Lots``).
    shared_places = declared(
        models.BooleanField(
            _("players level after the tie-breaks share their place"),
            default=False,
            help_text=_(
                "Ticked: players whom the tie-breaks leave level share their place (1, 2, 2, 4). "
                "Not ticked: lots are drawn for them when the tournament finishes, and every "
                "place is decided. Round robin and Swiss only."
            ),
        ),
        Setting(
            Section.STANDINGS,
            applies={"format|first_stage": STANDINGS_FORMATS},
            stages=Stages.EVERY,
            says=Says(_("Players level after the tie-breaks"), _says_shared_places),
        ),
    )
    points_win = declared(
        models.DecimalField(
            _("points for a win"),
            max_digits=4,
            decimal_places=1,
            default=1,
            help_text=_("Tournament points for winning a match."),
        ),
        Setting(
            Section.STANDINGS,
            applies={"format|first_stage": STANDINGS_FORMATS},
            stages=Stages.EVERY,
            says=Says(_("Match points"), _says_points),
        ),
    )
    points_draw = declared(
        models.DecimalField(
            _("points for a draw"),
            max_digits=4,
            decimal_places=1,
            default=Decimal("0.5"),
            help_text=_(
                "Tournament points for a drawn match. Only a match of a fixed number of games "
                "can be drawn: of two games or more, or of one game under the Federation draw "
                "rule."
            ),
        ),
        Setting(
            Section.STANDINGS,
            applies={"format|first_stage": STANDINGS_FORMATS, **MATCH_CAN_BE_DRAWN},
            stages=Stages.EVERY,
        ),
    )
    points_loss = declared(
        models.DecimalField(
            _("points for a loss"),
            max_digits=4,
            decimal_places=1,
            default=0,
            help_text=_("Tournament points for losing a match."),
        ),
        Setting(
            Section.STANDINGS,
            applies={"format|first_stage": STANDINGS_FORMATS},
            stages=Stages.EVERY,
        ),
    )
    points_bye = declared(
        models.DecimalField(
            _("points for a bye"),
            max_digits=4,
            decimal_places=1,
            default=1,
            help_text=_(
                "Tournament points for a round without an opponent, when the number of players "
                "is odd."
            ),
        ),
        Setting(
            Section.STANDINGS,
            applies={"format|first_stage": STANDINGS_FORMATS},
            stages=Stages.EVERY,
        ),
    )

    # Who may play (the sport rules' events are for men or for women, from an age).
    category = declared(
        models.CharField(
            _("category"),
            max_length=5,
            choices=Category.choices,
            blank=True,
            default="",
            help_text=_(
                "The sport rules hold events for men and for women separately. A sign-up, or an "
                "entry you make, is refused for a player of the other gender or whose profile "
                "does not give it."
            ),
        ),
        Setting(Section.WHO, stages=Stages.EVERY, says=Says(_("Category"), _says_category)),
    )
    min_age = declared(
        age_field(
            _("minimum age"),
            _(
                "The youngest age that may play (the sport rules: 10), counted in the calendar "
                "year: the year of the start, or this year without one. A player whose profile "
                "has no birth year is refused. Empty: any age. An official event takes 10 "
                "unless it is given or a youth group is chosen."
            ),
        ),
        Setting(
            Section.WHO,
            stages=Stages.EVERY,
            says=Says(_("Minimum age"), _says_age),
            initial=initial_min_age,
        ),
    )

    max_age = declared(
        age_field(
            _("maximum age"),
            _(
                "The oldest age that may play (a youth group), counted as the minimum age is. "
                "Under 18, the event is a youth event: its men and women are called boys and "
                "girls. Empty: any age."
            ),
        ),
        Setting(Section.WHO, stages=Stages.EVERY, says=Says(_("Age group"), _says_age_group)),
    )

    # Sign-up and check-in.
    starts_at = declared(
        models.DateTimeField(
            _("starts at"),
            null=True,
            blank=True,
            help_text=_("When play begins: shown on the sign-up page; the check-in is before it."),
        ),
        Setting(Section.SIGNUP),
    )
    self_signup = declared(
        models.BooleanField(
            _("players sign up themselves"),
            default=False,
            help_text=_(
                "Players sign up themselves on the tournament's sign-up page (its link can be "
                "shared) while the registration is open. You can still enter players yourself."
            ),
        ),
        Setting(Section.SIGNUP),
    )
    min_participants = declared(
        models.PositiveIntegerField(
            _("fewest players"),
            null=True,
            blank=True,
            validators=[MinValueValidator(MIN_PARTICIPANTS_LOWEST)],
            help_text=_(
                "The start is refused while fewer players are entered (the federation's events "
                "name one in their regulations). Empty: two are enough."
            ),
        ),
        Setting(Section.SIGNUP, says=Says(_("Fewest players"), when_set("min_participants"))),
    )
    capacity = declared(
        models.PositiveIntegerField(
            _("places"),
            null=True,
            blank=True,
            validators=[MinValueValidator(2)],
            help_text=_(
                "The most players; later sign-ups go on a waiting list, which moves up by itself "
                "when someone withdraws. Empty: no limit."
            ),
        ),
        Setting(Section.SIGNUP, applies={"self_signup": ON}),
    )
    signup_approval = declared(
        models.BooleanField(
            _("sign-ups need approval"),
            default=False,
            help_text=_("Each sign-up waits for an organizer's approval."),
        ),
        Setting(Section.SIGNUP, applies={"self_signup": ON}),
    )
    checkin_minutes = declared(
        models.PositiveSmallIntegerField(
            _("check-in opens (minutes before the start)"),
            null=True,
            blank=True,
            validators=[MinValueValidator(5), MaxValueValidator(24 * 60)],
            help_text=_(
                "Players confirm they came from this many minutes before the start (5 to 1440); "
                "whoever has not checked in when you start is withdrawn, and you see who before "
                "starting. Needs the start time. Empty: no check-in."
            ),
        ),
        Setting(Section.SIGNUP),
    )

    # Ratings.
    # A tournament's results count on its rating list only once a rating officer of the list
    # approves it (``tournaments.ratings.services``): one organizer's typo or bad faith stays out of
    # everyone's list. ``rated_by`` is empty for the tournaments rated before approvals existed.
    rated = models.BooleanField(_("rated"), default=False)
    rated_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("rating approved by"),
    )
    rated_at = models.DateTimeField(_("rating approved at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    #: Raised by every write to the tournament (which locks its row by raising it): the pages'
    #: cached parts are keyed by it, so a change is seen at once.
    revision = models.PositiveIntegerField(_("revision"), default=0, editable=False)

    class Meta:
        ordering = ["-created_at", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        constraints = [
            models.CheckConstraint(
                condition=(
                    models.Q(match_length__isnull=False, match_games__isnull=True)
                    | models.Q(match_length__isnull=True, match_games__isnull=False)
                ),
                name="tournament_match_to_points_or_fixed_games",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.discipline = disciplines.discipline_of(
            variant=self.variant, pairs=self.pairs, blitz=is_blitz(self.clock())
        )
        fields = kwargs.get("update_fields")
        if fields is not None and {"variant", "pairs", "time_control"} & set(fields):
            kwargs["update_fields"] = {*fields, "discipline"}
        super().save(*args, **kwargs)

    @classmethod
    def lock_for_change(cls, pk: int) -> None:
        """Lock the tournament's row for a write, raising its revision on the way (one UPDATE):
        writers wait for each other here, and what the pages cached of it is retired."""
        lock(cls, pk)

    @property
    def decides_places_by_lots(self) -> bool:
        """Whether lots decide the places its tie-breaks leave shared when it finishes: a
        one-stage round robin or Swiss whose organizer did not choose shared places (a stage of
        a two-stage event is followed by the event's bracket)."""
        return (
            self.format in self.ROUND_FORMATS and self.parent_id is None and not self.shared_places
        )

    def match_rules(self) -> MatchRules:
        """The match rules as the pure scoring module takes them."""
        return MatchRules(
            variant="long" if self.variant == self.Variant.LONG else "short",
            length=self.match_length,
            games=self.match_games,
            koks=self.koks,
            no_hit_and_hide=self.no_hit_and_hide,
            federation_draw=self.federation_draw,
            draw_counts="one" if self.draw_counts == self.DrawCounts.ONE else "half",
            block_check="turn" if self.block_check == self.BlockCheck.TURN else "step",
            dave=self.dave,
            progression="arithmetic"
            if self.dave_progression == self.Progression.ARITHMETIC
            else "geometric",
            max_stake=self.max_stake,
            crawford=self.crawford,
            accepted_moves=self.allows_accepted_moves,
            opening_roll=self.plays_opening_roll,
        )

    @property
    def plays_opening_roll(self) -> bool:
        """Whether a game opens with one die each (``opening_roll``; empty: on in an official
        event)."""
        if self.opening_roll is not None:
            return self.opening_roll
        return self.official

    @property
    def allows_accepted_moves(self) -> bool:
        """Whether a play the opponent accepted as made stands (``accepted_moves``, or by the
        game: yes in Long Nardy, no in Short Nardy)."""
        if self.accepted_moves is not None:
            return self.accepted_moves
        return self.variant == self.Variant.LONG

    @property
    def match_kind(self) -> str:
        """How a match is played: to points (``MATCH_TO_POINTS``) or as a fixed number of games
        (``MATCH_OF_GAMES``)."""
        return MATCH_OF_GAMES if self.match_games is not None else MATCH_TO_POINTS

    @property
    def takes_signups(self) -> bool:
        """Whether players sign up themselves now: self sign-up, and registration is open."""
        return self.self_signup and self.status == self.Status.REGISTRATION

    @property
    def match_size(self) -> int | None:
        """The points to reach or the number of games to play, as the form asks it."""
        return self.match_games if self.match_games is not None else self.match_length

    @property
    def match_can_be_drawn(self) -> bool:
        """Whether a match of this tournament can end drawn (``MatchRules.match_can_be_drawn``):
        where none can, no page speaks of draws."""
        return self.match_rules().match_can_be_drawn

    def clock(self) -> TimeControl | None:
        """The time control, checked (``validate_rules`` refused any other value)."""
        return TimeControl.from_json(self.time_control)

    def plays_third_place(self, entrants: int) -> bool:
        """Whether the bracket has its third-place match: asked for, and with two semifinals to
        feed it (with 2 or 3 entrants there are none, and the start goes on without it)."""
        return (
            self.format == self.Format.SINGLE_ELIMINATION
            and self.third_place
            and entrants >= elimination.THIRD_PLACE_ENTRANTS
        )

    def bracket_plan(self, entrants: int) -> list[elimination.BracketMatch]:
        """The pure bracket of this elimination tournament for ``entrants``, as set."""
        if self.format == self.Format.SINGLE_ELIMINATION:
            return elimination.single(entrants, third_place=self.plays_third_place(entrants))
        if self.format == self.Format.DOUBLE_ELIMINATION:
            return elimination.double(entrants, grand_final=self.grand_final)
        return elimination.consolation(
            entrants,
            kind=self.consolation_kind,
            last_chance=self.last_chance,
        )

    def age_year(self) -> int:
        """The calendar year a player's age is counted in: the year of the start, else this
        year (the sport rules count the age reached in the year of the competition)."""
        return timezone.localdate(self.starts_at).year  # None: now

    @property
    def is_youth(self) -> bool:
        """A youth event (a maximum age under 18): its men and women are boys and girls."""
        return eligibility.is_youth(self.max_age)

    def category_text(self) -> str:
        """The category as the event calls it: men or women, boys or girls in a youth event
        ("" when open)."""
        if self.category == eligibility.MEN:
            return gettext("Boys") if self.is_youth else gettext("Men")
        if self.category == eligibility.WOMEN:
            return gettext("Girls") if self.is_youth else gettext("Women")
        return ""

    def age_group_text(self) -> str | None:
        """The ages that may play, as the federation names its groups: "9–11, admitted from 7",
        "12–14", "10 or older", "up to 11" (None: any age)."""
        low, high = self.min_age, self.max_age
        group = eligibility.youth_group(low, high)
        if group is not None:
            named = f"{group.named_from}–{group.max_age}"
            if group.min_age == group.named_from:
                return named
            return gettext("%(group)s, admitted from %(age)s") % {
                "group": named, "age": group.min_age}  # fmt: skip
        if low is not None and high is not None:
            return f"{low}–{high}"
        if high is not None:
            return gettext("up to %(age)s") % {"age": high}
        if low is not None:
            return gettext("%(age)s or older") % {"age": low}
        return None

    def checkin_opens_at(self) -> datetime | None:
        """When the check-in opens (None: the tournament has no check-in)."""
        if self.checkin_minutes is None or self.starts_at is None:
            return None
        return self.starts_at - timedelta(minutes=self.checkin_minutes)

    def game_variant(self) -> GameVariant:
        """The rules engine's variant with this tournament's switches."""
        return self.match_rules().to_variant()


class Entry(models.Model):
    """A player's registration in a tournament."""

    tournament = models.ForeignKey(
        Tournament,
        verbose_name=_("tournament"),
        on_delete=models.CASCADE,
        related_name="entries",
    )
    player = models.ForeignKey(
        Player, verbose_name=_("player"), on_delete=models.PROTECT, related_name="entries"
    )
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)
    withdrawn = models.BooleanField(_("withdrawn"), default=False)
    checked_in_at = models.DateTimeField(_("checked in at"), null=True, blank=True)
    late_entry = models.BooleanField(_("late entry"), default=False)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, null=True)
    #: Removed by the chief judge (misconduct), with the reason: not a withdrawal, though the
    #: removed player plays no more (``withdrawn`` is set too).
    removed_at = models.DateTimeField(_("removed at"), null=True, blank=True)
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("removed by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    removal_reason = models.TextField(_("reason for the removal"), blank=True, default="")

    class Meta:
        ordering = ["tournament", "seed", "player__display_name"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "player"], name="entry_one_per_player_and_tournament"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.tournament}"


class Round(models.Model):
    """A round of a round robin or Swiss tournament (brackets have rounds inside their matches)."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="rounds"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}, round {self.number}"


#: The bracket slots with a fixed name, as a reader says them (the others are codes: W1-2, L3-1).
SLOT_NAMES = {
    "GF": pgettext_lazy("bracket slot", "GF"),
    "GF-reset": pgettext_lazy("bracket slot", "GF-reset"),
    "3P": pgettext_lazy("bracket slot", "3P"),
}


def slot_name(slot: str) -> str:
    """A bracket slot as the pages print it, in the reader's language."""
    return str(SLOT_NAMES.get(slot, slot))


def forfeit_marks(forfeit: str) -> tuple[str, str] | None:
    """A forfeit's score as chess tables print it, home and away: "+" for a side that came, "−"
    for one that did not (None: not a forfeit)."""
    if not forfeit:
        return None
    return (
        "−" if forfeit in ("home", "both") else "+",
        "−" if forfeit in ("away", "both") else "+",
    )


class Match(models.Model):
    """One match between two entries (``away`` is empty for a bye), in a round or a bracket slot.

    Its result flows scheduled → reported → confirmed (or disputed → resolved) → final. In a
    bracket, ``home_source``/``away_source`` say where the sides come from (a seed, the winner or
    the loser of another slot) until they are known.
    """

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", _("Scheduled")
        REPORTED = "reported", _("Reported")
        CONFIRMED = "confirmed", _("Confirmed")
        DISPUTED = "disputed", _("Disputed")
        FINAL = "final", _("Final")

    class Forfeit(models.TextChoices):
        """Who did not come to a match decided by forfeit (an organizer's word): the other side
        wins it; when neither came, both lose it."""

        NONE = "", _("none")
        HOME = "home", _("home did not come")
        AWAY = "away", _("away did not come")
        BOTH = "both", _("neither came")

    #: The statuses of a decided result: it counts in standings, brackets and ratings.
    DECIDED = (Status.CONFIRMED, Status.FINAL)

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="matches"
    )
    round = models.ForeignKey(
        Round,
        verbose_name=_("round"),
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="matches",
    )
    bracket = models.CharField(_("bracket"), max_length=20, blank=True)
    bracket_round = models.PositiveSmallIntegerField(_("bracket round"), null=True, blank=True)
    slot = models.CharField(_("bracket slot"), max_length=20, blank=True)
    home_source = models.JSONField(_("home comes from"), null=True, blank=True)
    away_source = models.JSONField(_("away comes from"), null=True, blank=True)
    home = models.ForeignKey(
        Entry,
        verbose_name=_("home"),
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="home_matches",
    )
    away = models.ForeignKey(
        Entry,
        verbose_name=_("away"),
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="away_matches",
    )
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.SCHEDULED
    )
    score_home = models.DecimalField(
        _("home score"), max_digits=6, decimal_places=1, null=True, blank=True
    )
    score_away = models.DecimalField(
        _("away score"), max_digits=6, decimal_places=1, null=True, blank=True
    )
    winner = models.ForeignKey(
        Entry,
        verbose_name=_("winner"),
        null=True,
        blank=True,
        on_delete=models.RESTRICT,
        related_name="won_matches",
    )
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("reported by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="reported_matches",
    )
    reported_at = models.DateTimeField(_("reported at"), null=True, blank=True)
    confirmed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("confirmed by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="confirmed_matches",
    )
    confirmed_at = models.DateTimeField(_("confirmed at"), null=True, blank=True)
    #: The side whose word a reported result waits for when it is not simply the reporter's
    #: opponent: 1 home, 2 away, 0 an organizer only. A play accepted as made that its own
    #: mover's account entered waits for the mover's opponent (``results.match_result_record``).
    confirm_side = models.PositiveSmallIntegerField(
        _("waits for the word of side"), null=True, blank=True
    )
    #: The recorder offered the engine's practice hint while the match was played: the rating
    #: officer sees it before approving the tournament.
    hinted = models.BooleanField(_("recorded with practice hints"), default=False)
    #: Being recorded at the table now: a recording with entries that has not become the
    #: result. Kept by the recorder (``matches.live.drafts.mark_recording``); the result flow
    #: refuses another result meanwhile, and the pages point spectators at it.
    recording = models.BooleanField(_("being recorded at the table"), default=False)
    dispute_note = models.TextField(_("dispute"), blank=True)
    #: Decided by forfeit: no games, no score, never rated (the standings mark it +/−).
    forfeit = models.CharField(
        _("forfeit"), max_length=4, choices=Forfeit.choices, default="", blank=True
    )
    #: The side whose flag fell (its time ran out on the recorder's clock): it lost the match.
    lost_on_time = models.CharField(
        _("lost on time"),
        max_length=4,
        choices=[("", _("no")), ("home", _("home")), ("away", _("away"))],
        default="",
        blank=True,
    )
    #: When the result was first decided (confirmed or final): the match's place in rating
    #: history, kept when the result is corrected.
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True, db_index=True)
    #: Who decided the result as an official (a forfeit, a resolved dispute, a correction): a
    #: judge of an official event, or an organizer.
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("decided by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        ordering = ["tournament", "round__number", "bracket", "bracket_round", "id"]
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "slot"],
                condition=~models.Q(slot=""),
                name="match_slot_unique_in_tournament",
            ),
        ]

    def __str__(self) -> str:
        missing = _("bye") if self.round_id else _("to be decided")
        home = self.home.player if self.home else _("to be decided")
        return f"{home} – {self.away.player if self.away else missing}"

    @property
    def slot_name(self) -> str:
        return slot_name(self.slot)

    @property
    def forfeit_marks(self) -> tuple[str, str] | None:
        return forfeit_marks(self.forfeit)

    def feeder_slots(self) -> set[str]:
        """The bracket slots whose winner or loser this match's sides come from."""
        sources = (self.home_source or {}, self.away_source or {})
        return {
            source[key]
            for source in sources
            for key in ("winner_of", "loser_of")
            if source.get(key)
        }

    @property
    def is_bye(self) -> bool:
        return self.round_id is not None and self.home_id is not None and self.away_id is None


class Lots(models.Model):
    """The drawing of lots that decides the places a finished tournament's tie-breaks leave
    shared (or a stage-1 tournament's at the cut of a two-stage event): the last resort. Its
    ``seed`` fixes the draw (``standings.lot_order``: anyone may draw it again from the seed and
    the entry ids), its ``order`` keeps it, and who drew it and when are kept."""

    tournament = models.OneToOneField(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="lots"
    )
    seed = models.BigIntegerField(_("seed of the draw"))
    #: The entry ids in the order drawn (``standings.lot_order`` of the seed and the entries then):
    #: kept, so that the places stay as drawn when the ids change (a tournament imported).
    order = models.JSONField(_("order drawn"), default=list)
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("drawn by"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    drawn_at = models.DateTimeField(_("drawn at"))

    class Meta:
        verbose_name = _("drawing of lots")
        verbose_name_plural = _("drawings of lots")

    def __str__(self) -> str:
        return f"lots of {self.tournament} (seed {self.seed})"
