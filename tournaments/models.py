from datetime import datetime, timedelta
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.rules import Variant as GameVariant
from tournaments import eligibility
from tournaments.fields import country_field
from tournaments.formats import elimination
from tournaments.formats.swiss import MAX_OUT_AFTER_LOSSES
from tournaments.names import search_key
from tournaments.rows import lock
from tournaments.scoring import DEFAULT_TOP_STAKE, MAX_MATCH_LENGTH, MatchRules
from tournaments.scoring.clock import TimeControl


def birth_year_not_ahead(year: int) -> None:
    """A birth year is no later than this year."""
    this_year = timezone.localdate().year
    if year > this_year:
        raise ValidationError(
            _("A birth year is %(year)s at the latest."),
            code="max_value",
            params={"year": this_year},
        )


class Player(models.Model):
    """A person who plays (or a pair: ``Pair``). Who they are (the account linked, a merge with
    a duplicate, a pair's name) is decided by staff and by the runners of their ``home_club``,
    the club that made the record (``tournaments.policy``, ``players.ownership``): entering them
    in a tournament gives no such right."""

    class Gender(models.TextChoices):
        MALE = eligibility.MALE, _("Male")
        FEMALE = eligibility.FEMALE, _("Female")

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
    #: optional, personal (shown to the player and to who decides who they are, never public).
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

    class FirstStage(models.TextChoices):
        NONE = "", _("None: one stage")
        GROUPS = "groups", _("Round-robin groups")
        SWISS = "swiss", _("A Swiss")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("slug"), max_length=200, unique=True)
    variant = models.CharField(_("variant"), max_length=10, choices=Variant.choices)
    format = models.CharField(
        _("format"), max_length=30, choices=Format.choices, default=Format.ROUND_ROBIN
    )
    status = models.CharField(
        _("status"), max_length=20, choices=Status.choices, default=Status.DRAFT
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

    # Match rules: a match is played to N points or as a fixed number of games.
    match_length = models.PositiveSmallIntegerField(
        _("match to points"),
        null=True,
        blank=True,
        default=5,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_MATCH_LENGTH)],
    )
    match_games = models.PositiveSmallIntegerField(
        _("fixed number of games"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_MATCH_LENGTH)],
    )
    koks = models.BooleanField(_("koks (triple game, Short Nardy)"), default=False)
    no_hit_and_hide = models.BooleanField(_("no hit-and-hide (Short Nardy)"), default=False)
    federation_draw = models.BooleanField(_("Federation draw rule (Long Nardy)"), default=False)
    #: The pairs discipline (Short Nardy only): every entry is a pair (``Pair``), two players
    #: who may consult each other and play as one side; pairs are rated on a list of their own.
    pairs = models.BooleanField(_("pairs"), default=False)
    #: An incomplete or illegal play stands when the opponent accepts it (seed 001). Empty: as
    #: the game's rules, allowed in Long Nardy (seed 001 says so) and not in Short Nardy (its
    #: seeds do not have it): ``allows_accepted_moves``.
    accepted_moves = models.BooleanField(
        _("moves the opponent accepts"), null=True, blank=True, default=None
    )
    draw_counts = models.CharField(
        _("a drawn game counts"), max_length=4, choices=DrawCounts.choices, default=DrawCounts.HALF
    )
    block_check = models.CharField(
        _("six-block check (Long Nardy)"),
        max_length=4,
        choices=BlockCheck.choices,
        default=BlockCheck.STEP,
    )
    dave = models.BooleanField(_("dave (doubling)"), default=True)
    dave_progression = models.CharField(
        _("dave progression"),
        max_length=10,
        choices=Progression.choices,
        default=Progression.GEOMETRIC,
    )
    max_stake = models.PositiveIntegerField(
        _("highest stake"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(DEFAULT_TOP_STAKE)],
    )
    crawford = models.BooleanField(_("Crawford rule"), default=True)
    #: A clock per player for the whole match, as ``TimeControl.as_json`` gives it (the API's
    #: contract), or None: no clock. Running out of time loses the match.
    time_control = models.JSONField(_("time control"), null=True, blank=True, default=None)

    # Format options.
    swiss_rounds = models.PositiveSmallIntegerField(_("Swiss rounds"), null=True, blank=True)
    #: A Swiss player is paired no more once they have lost this many matches (the federation's
    #: own cups: 3); with no ``swiss_rounds`` the Swiss goes on while two players remain.
    swiss_out_after_losses = models.PositiveSmallIntegerField(
        _("out after lost matches (Swiss)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(1), MaxValueValidator(MAX_OUT_AFTER_LOSSES)],
    )
    third_place = models.BooleanField(_("third-place match"), default=False)
    grand_final = models.CharField(
        _("grand final"), max_length=10, choices=GrandFinal.choices, default=GrandFinal.RESET
    )
    consolation_kind = models.CharField(
        _("consolation bracket"),
        max_length=20,
        choices=ConsolationKind.choices,
        default=ConsolationKind.FIRST_ROUND,
    )
    last_chance = models.BooleanField(_("last-chance bracket"), default=False)

    # Two stages: groups (round robins) or a Swiss first, then ``format``'s bracket for the top
    # players. The stages are tournaments of their own, with this one as their ``parent``.
    first_stage = models.CharField(
        _("first stage"), max_length=10, choices=FirstStage.choices, default="", blank=True
    )
    groups = models.PositiveSmallIntegerField(
        _("groups"), null=True, blank=True, validators=[MinValueValidator(2), MaxValueValidator(26)]
    )
    advance = models.PositiveSmallIntegerField(
        _("players who go on"), null=True, blank=True, validators=[MinValueValidator(1)]
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

    # Who may play (the sport rules' events are for men or for women, from an age).
    category = models.CharField(
        _("category"), max_length=5, choices=Category.choices, blank=True, default=""
    )
    min_age = models.PositiveSmallIntegerField(
        _("minimum age"),
        null=True,
        blank=True,
        validators=[
            MinValueValidator(eligibility.MIN_AGE_LOWEST),
            MaxValueValidator(eligibility.MIN_AGE_HIGHEST),
        ],
    )

    # Sign-up and check-in.
    self_signup = models.BooleanField(_("players sign up themselves"), default=False)
    capacity = models.PositiveIntegerField(
        _("places"), null=True, blank=True, validators=[MinValueValidator(2)]
    )
    signup_approval = models.BooleanField(_("sign-ups need approval"), default=False)
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    checkin_minutes = models.PositiveSmallIntegerField(
        _("check-in opens (minutes before the start)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(5), MaxValueValidator(24 * 60)],
    )

    # Standings and ratings.
    tiebreaks = models.JSONField(_("tie-break order"), default=list, blank=True)
    points_win = models.DecimalField(
        _("points for a win"), max_digits=4, decimal_places=1, default=1
    )
    points_draw = models.DecimalField(
        _("points for a draw"), max_digits=4, decimal_places=1, default=Decimal("0.5")
    )
    points_loss = models.DecimalField(
        _("points for a loss"), max_digits=4, decimal_places=1, default=0
    )
    points_bye = models.DecimalField(
        _("points for a bye"), max_digits=4, decimal_places=1, default=1
    )
    rating_system = models.CharField(
        _("rating system"), max_length=10, choices=RatingSystem.choices, default=RatingSystem.FIBS
    )
    #: Casual: the tournament does not ask to be rated, and in Long Nardy the recorder gives
    #: the engine's practice hint; one that asks never does (``live.services.hints_given``).
    casual = models.BooleanField(_("casual: not asking to be rated"), default=False)
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

    @classmethod
    def lock_for_change(cls, pk: int) -> None:
        """Lock the tournament's row for a write, raising its revision on the way (one UPDATE):
        writers wait for each other here, and what the pages cached of it is retired."""
        lock(cls, pk)

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
        )

    @property
    def allows_accepted_moves(self) -> bool:
        """Whether a play the opponent accepted as made stands (``accepted_moves``, or by the
        game: yes in Long Nardy, no in Short Nardy)."""
        if self.accepted_moves is not None:
            return self.accepted_moves
        return self.variant == self.Variant.LONG

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
