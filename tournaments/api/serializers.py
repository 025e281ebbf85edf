"""What the API shows of each thing: plain fields, no logic."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any, TypeVar

from django.db import models
from django.utils.text import capfirst
from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from games.action_schema import GameActionField
from games.models import Game
from nardy_site.api_shapes import ClosedShape, TrueField
from tournaments.clubs.models import Club
from tournaments.declarations import settings_of
from tournaments.models import DEFAULT_TIEBREAKS, Entry, Match, Player, Round, Tournament
from tournaments.norms.models import EventStatus
from tournaments.officials.selectors import removal_text
from tournaments.ratings.models import RatingAudit, RatingChange, RatingHold
from tournaments.regions import REGION_CODES
from tournaments.scoring.clock import KINDS, MAX_BASE_SECONDS, MAX_PER_MOVE_SECONDS
from tournaments.scoring.events import EVENT_PRESET_NAMES, EVENT_PRESETS
from tournaments.seasons.models import Season, validate_place_points
from tournaments.seasons.table import MAX_PLACE_POINTS
from tournaments.services import start_notices
from tournaments.words import TIEBREAKS

#: The API's one precision: every score, point, rating and tie-break is a JSON number (never a
#: string), scores and points to one decimal place (halves exist; the database keeps them so),
#: ratings, their changes and tie-breaks to two (as the site shows them).
POINTS_PLACES = 1
RATING_PLACES = 2
PLACES_IN_WORDS = {POINTS_PLACES: "one decimal place", RATING_PLACES: "two decimal places"}


class Number(serializers.DecimalField):
    """A JSON number rounded to ``places`` decimal places, whatever it is computed as (a
    ``Decimal``, a float); read from a number or, as before, a numeric string. Its description
    in the schema says its precision."""

    places = POINTS_PLACES

    def __init__(self, **kwargs: Any) -> None:
        kwargs.pop("decimal_places", None)  # a model field's: the API's precision is ours
        kwargs.setdefault("max_digits", None)
        precision = f"A number to {PLACES_IN_WORDS[self.places]}."
        said = str(kwargs.get("help_text") or "").rstrip(".")
        kwargs["help_text"] = f"{said}. {precision}" if said else precision
        super().__init__(decimal_places=self.places, coerce_to_string=False, **kwargs)

    def to_representation(self, value: Any) -> Any:
        if isinstance(value, Fraction):  # standings and season tables count in fractions
            value = Decimal(value.numerator) / Decimal(value.denominator)
        return super().to_representation(value)


class Points(Number):
    """A score or points: one decimal place."""

    places = POINTS_PLACES


class RatingNumber(Number):
    """A rating, a rating's change or a tie-break: two decimal places."""

    places = RATING_PLACES


_Model = TypeVar("_Model", bound=models.Model)


# A model serializer whose model decimals (scores, points) are ``Points``. (A comment, not a
# docstring: the schema would show a docstring as the description of every subclass.)
class NumbersAsNumbers(serializers.ModelSerializer[_Model]):
    serializer_field_mapping = {
        **serializers.ModelSerializer.serializer_field_mapping,
        models.DecimalField: Points,
    }


class PlayerSerializer(serializers.ModelSerializer[Player]):
    home_club = serializers.SlugRelatedField(
        slug_field="slug",
        read_only=True,
        allow_null=True,
        help_text="The slug of the club that made the record: its owners and organizers decide "
        "who the player is (claims, merges); null: staff decide",
    )

    class Meta:
        model = Player
        fields = ["id", "display_name", "club", "country", "home_club"]
        read_only_fields = ["club"]


class PlayerProfileSerializer(serializers.ModelSerializer[Player]):
    """A player's profile: personal, so only for the player and those who decide who they are
    (``tournaments.policy``'s ``profile.read``), never in the public lists."""

    region = serializers.ChoiceField(
        choices=sorted(REGION_CODES),
        allow_blank=True,
        required=False,
        help_text="The subject of the Russian Federation the player represents, its ISO 3166-2:RU "
        'code, or "" (not given). Published, with the birth year and the rank, in the protocol '
        "and the standings by region of an official event the player enters",
    )

    class Meta:
        model = Player
        fields = [
            "id",
            "display_name",
            "gender",
            "birth_year",
            "region",
            "sport_rank",
            "sport_rank_since",
        ]
        read_only_fields = ["id", "display_name"]
        extra_kwargs = {
            "sport_rank": {
                "help_text": 'The sport rank or title (ЕВСК), "" for none: 3y, 2y, 1y (youth), '
                "3, 2, 1 (adult), kms, ms, msmk"
            },
            "sport_rank_since": {
                "help_text": "The date the rank was given (null: not given; dropped without a rank)"
            },
            "gender": {
                "help_text": 'male, female, or "" (not given): asked by a tournament for men '
                "or for women"
            },
            "birth_year": {
                "help_text": "null: not given. Asked by a tournament with a minimum age, which "
                "counts the age in the calendar year"
            },
        }


class PlayerIn(serializers.Serializer[Any]):
    """A new player: ``club`` is the slug of its home club, one the caller organizes (without
    it, the caller's club when they organize exactly one)."""

    display_name = serializers.CharField(max_length=100)
    club = serializers.SlugRelatedField(
        slug_field="slug",
        queryset=Club.objects.all(),
        required=False,
        allow_null=True,
        help_text="The slug of the player's home club, one you organize",
    )
    country = serializers.CharField(max_length=2, required=False, allow_blank=True, default="")


@extend_schema_field(
    {
        "type": "object",
        "nullable": True,
        "description": "A clock per player for the whole match (null: no clock): base_seconds "
        "each, and per_move_seconds added after every move (increment) or waited before the "
        "clock runs (delay). Running out of time loses the match.",
        "properties": {
            "kind": {"type": "string", "enum": list(KINDS)},
            "base_seconds": {"type": "integer", "minimum": 1, "maximum": MAX_BASE_SECONDS},
            "per_move_seconds": {"type": "integer", "minimum": 0, "maximum": MAX_PER_MOVE_SECONDS},
        },
        "required": ["kind", "base_seconds", "per_move_seconds"],
        "additionalProperties": False,
    }
)
class TimeControlField(serializers.JSONField):
    """The tournament's ``time_control``: null or the object of ``TimeControl.as_json``, checked
    by the tournament's services with the other rules."""


class TournamentFields(NumbersAsNumbers[Tournament]):
    """A serializer of a tournament's fields: each setting's help (on its declaration) is its
    field's description, but a choice that is never empty keeps its bare reference to its enum
    in the schema (a description beside it would wrap the reference in ``allOf``, and change
    the types that clients generated from the schema have)."""

    def build_standard_field(
        self, field_name: str, model_field: Any
    ) -> tuple[type, dict[str, Any]]:
        field_class, kwargs = super().build_standard_field(field_name, model_field)
        if "choices" in kwargs and not kwargs.get("allow_blank") and not kwargs.get("allow_null"):
            kwargs.pop("help_text", None)
        return field_class, kwargs


class TournamentSerializer(TournamentFields):
    organizer = serializers.CharField(source="organizer.username", read_only=True, default=None)
    rated = serializers.BooleanField(
        read_only=True, help_text="Its results count on its rating list (an officer approved it)"
    )
    rated_by = serializers.CharField(
        source="rated_by.username",
        read_only=True,
        allow_null=True,
        default=None,
        help_text="The rating officer who approved it (null: rated before approvals existed)",
    )
    time_control = TimeControlField(required=False, allow_null=True)
    # By its code, as the table of norms names it (the model's field would take its id).
    event_status = serializers.SlugRelatedField(
        slug_field="code",
        queryset=EventStatus.objects.all(),
        required=False,
        allow_null=True,
        help_text=f"{Tournament._meta.get_field('event_status').help_text} By its code (e.g. "
        "championship-of-russia); null: none.",
    )
    # A list of known names: the model's JSONField would take any JSON (null, a number …).
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(choices=TIEBREAKS),
        required=False,
        help_text="In order. Not given at creation: the format's own order ("
        + "; ".join(f"{kind}: {', '.join(order)}" for kind, order in DEFAULT_TIEBREAKS.items())
        + ")",
    )
    club = serializers.SlugRelatedField(
        slug_field="slug",
        queryset=Club.objects.all(),
        required=False,
        allow_null=True,
        help_text="The club that runs it (its owners and organizers may run it too)",
    )
    season = serializers.PrimaryKeyRelatedField(
        queryset=Season.objects.all(),
        required=False,
        allow_null=True,
        help_text="The id of the club's season it counts in",
    )
    parent = serializers.SlugRelatedField(
        slug_field="slug",
        read_only=True,
        allow_null=True,
        help_text="The two-stage event this tournament is a stage of (null: none)",
    )
    accepted_moves_allowed = serializers.BooleanField(
        source="allows_accepted_moves",
        read_only=True,
        help_text="Whether a play the opponent accepted as made stands: accepted_moves, or when "
        "it is null the game's rule (Long Nardy yes, Short Nardy no)",
    )
    preset = serializers.ChoiceField(
        choices=EVENT_PRESET_NAMES,
        write_only=True,
        required=False,
        help_text="Creation only: a federation event whose settings fill those the request "
        "does not give: its game, clock, match length, format and elimination ("
        + "; ".join(
            f"{preset.name}: {preset.variant}, {preset.control.base_seconds // 60}'+"
            f'{preset.control.per_move_seconds}", to {preset.match_length}, {preset.format}'
            + (f", out after {preset.out_after_losses} losses" if preset.out_after_losses else "")
            for preset in EVENT_PRESETS
        )
        + "). Each given setting wins over the preset's; given match_games alone, the match "
        "is of games",
    )
    notices = serializers.SerializerMethodField(
        help_text="What the start leaves out of the settings, and why (e.g. no third-place match "
        "with fewer than 4 players): before the start, what it will do; after it, what it did"
    )

    class Meta:
        model = Tournament
        #: Every declared setting (``tournaments.declarations``) is a field, with its model
        #: field's type, limits and help; the rest is read only.
        fields = [
            "id", "slug", "status", "organizer", "discipline",
            *(item.name for item in settings_of(Tournament)),
            "accepted_moves_allowed", "rated", "rated_by", "rated_at", "created_at", "notices",
            "club", "season", "parent", "stage", "group", "preset",
        ]  # fmt: skip
        read_only_fields = [
            "id", "status", "organizer", "discipline", "rated_at", "created_at", "stage", "group",
        ]  # fmt: skip
        extra_kwargs = {
            "slug": {"required": False},
            "discipline": {
                "help_text": "The discipline of the sport rules (art. 7), which follows from the "
                "game, pairs and clock (a clock of at most 10 minutes a player is blitz); each "
                "is rated on a list of its own"
            },
        }

    def get_notices(self, tournament: Tournament) -> list[str]:
        known: dict[int, list[str]] | None = self.context.get("notices")
        return known[tournament.pk] if known is not None else start_notices(tournament)


class EntrySerializer(serializers.ModelSerializer[Entry]):
    player = PlayerSerializer(read_only=True)
    members = serializers.SerializerMethodField(
        help_text="A pair's entry: its two players (the entry's player is the pair's record)"
    )
    removal = serializers.SerializerMethodField(
        help_text="A removed entry (withdrawn is true too): what the lists say instead of "
        '"withdrawn", "removed by the chief judge: <reason>" (another event: by the '
        "organizers); null: not removed"
    )

    class Meta:
        model = Entry
        fields = ["id", "player", "members", "seed", "withdrawn", "late_entry", "removed_at",
                  "removal_reason", "removal"]  # fmt: skip
        read_only_fields = ["removed_at", "removal_reason"]

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_removal(self, entry: Entry) -> str | None:
        if entry.removed_at is None:
            return None
        return removal_text(entry, entry.tournament)

    @extend_schema_field(PlayerSerializer(many=True, allow_null=True))
    def get_members(self, entry: Entry) -> list[dict[str, Any]] | None:
        pair = getattr(entry.player, "pair", None)
        if pair is None:
            return None
        return PlayerSerializer([pair.first, pair.second], many=True).data  # type: ignore[return-value]


class RoundSerializer(serializers.ModelSerializer[Round]):
    class Meta:
        model = Round
        fields = ["id", "number"]


def _if_needed() -> TrueField:
    return TrueField(
        required=False,
        help_text="Only true, on the home side of a bracket reset: the match is played only if "
        "the away side won the match before",
    )


class SeedSource(ClosedShape):
    """The side is a seed of the draw."""

    seed = serializers.IntegerField(min_value=1, help_text="The seed (1-based)")
    if_needed = _if_needed()


class WinnerOfSource(ClosedShape):
    """The side is the winner of another slot of the bracket."""

    winner_of = serializers.CharField(help_text="That match's slot")
    if_needed = _if_needed()


class LoserOfSource(ClosedShape):
    """The side is the loser of another slot of the bracket (a double elimination's drop)."""

    loser_of = serializers.CharField(help_text="That match's slot")
    if_needed = _if_needed()


@extend_schema_field(
    PolymorphicProxySerializer(
        component_name="BracketSource",
        serializers=[SeedSource, WinnerOfSource, LoserOfSource],
        resource_type_field_name=None,
    )
)
class BracketSourceField(serializers.JSONField):
    """``Match.home_source``/``away_source``: where a bracket side comes from, as
    ``tournaments.services.pairing.bracket_create`` writes it; null outside a bracket."""


class MatchSerializer(NumbersAsNumbers[Match]):
    round = serializers.IntegerField(
        source="round.number",
        read_only=True,
        default=None,
        allow_null=True,
        help_text="The round's number; null: a bracket's match",
    )
    home = serializers.CharField(
        source="home.player.display_name",
        read_only=True,
        default=None,
        allow_null=True,
        help_text="The home player's name; null: not known yet",
    )
    away = serializers.CharField(
        source="away.player.display_name",
        read_only=True,
        default=None,
        allow_null=True,
        help_text="The away player's name; null: a bye, or not known yet",
    )
    home_source = BracketSourceField(
        read_only=True, allow_null=True, help_text="Where the home side comes from in a bracket"
    )
    decided_by = serializers.CharField(
        source="decided_by.username",
        read_only=True,
        default=None,
        allow_null=True,
        help_text="The username of who decided the result as an official (a judge of an "
        "official event, or an organizer): a forfeit, a resolved dispute, a correction, a "
        "result they gave; null: the players' own (reported and confirmed)",
    )
    away_source = BracketSourceField(
        read_only=True, allow_null=True, help_text="Where the away side comes from in a bracket"
    )

    class Meta:
        model = Match
        fields = [
            "id", "round", "bracket", "bracket_round", "slot", "home_source", "away_source",
            "home_id", "away_id", "home", "away", "status", "score_home", "score_away",
            "winner_id", "forfeit", "lost_on_time", "reported_at", "confirmed_at", "decided_at",
            "dispute_note", "confirm_side", "hinted", "decided_by",
        ]  # fmt: skip
        read_only_fields = ["lost_on_time", "confirm_side", "hinted"]
        extra_kwargs = {
            "confirm_side": {
                "help_text": "Whose word a reported result waits for when it is not simply the "
                "reporter's opponent: 1 home, 2 away, 0 an organizer only (a play accepted as "
                "made that its own mover's account entered waits for the opponent)"
            },
            "hinted": {
                "help_text": "The recorder gave the engine's practice hint in this match (a "
                "casual tournament): shown to rating officers before they approve it"
            },
        }


class GameTime(serializers.Serializer[Any]):
    """When an action was entered at the table (``games.models.Game.times``)."""

    at = serializers.DateTimeField(help_text="The moment, by the server's clock")
    home = serializers.FloatField(
        required=False, help_text="In a timed match: the home player's seconds left then"
    )
    away = serializers.FloatField(
        required=False, help_text="In a timed match: the away player's seconds left then"
    )
    phone_at = serializers.DateTimeField(
        required=False,
        help_text="Recorded offline and synced (POST …/live/sync): the phone's own time",
    )
    clamped = serializers.BooleanField(
        required=False,
        help_text="The phone's time (of this action, or of a roll since the action before) "
        "could not be, and ``at`` is the nearest that could: marked for the judge",
    )


@extend_schema_field(GameTime(many=True))
class GameTimesField(serializers.JSONField):
    """``Game.times`` as stored: one ``GameTime`` an action (passed on as it is)."""


class GameSerializer(serializers.ModelSerializer[Game]):
    actions = serializers.ListField(
        child=GameActionField(),
        help_text="The engine's actions as games.rules.action_to_json writes them; empty when "
        "only the outcome was recorded",
    )
    times = GameTimesField(
        help_text="When each action was entered, one for each of actions; empty when the "
        "record was not entered live"
    )

    class Meta:
        model = Game
        fields = [
            "number", "white", "actions", "winner", "ending", "value", "stake", "points", "times",
        ]  # fmt: skip


class StandingSerializer(serializers.Serializer[object]):
    rank = serializers.IntegerField(source="row.rank")
    entry_id = serializers.IntegerField(source="entry.pk")
    player = serializers.CharField(source="entry.player.display_name")
    player_id = serializers.IntegerField(
        source="entry.player.pk", help_text="The player (a pair in a pairs tournament)"
    )
    match_points = Points(source="row.match_points")
    wins = serializers.IntegerField(source="row.wins")
    draws = serializers.IntegerField(source="row.draws")
    losses = serializers.IntegerField(source="row.losses")
    game_points_for = Points(source="row.game_points_for")
    game_points_against = Points(source="row.game_points_against")
    tiebreaks = serializers.DictField(
        child=RatingNumber(), source="row.tiebreaks", help_text="By tie-break, in their order"
    )
    out = serializers.BooleanField(
        help_text="Out of a Swiss after its number of lost matches: paired no more."
    )
    withdrawn = serializers.BooleanField(
        source="entry.withdrawn", help_text="Withdrawn, or removed: paired no more"
    )
    removal = serializers.SerializerMethodField(
        help_text='Removed rather than withdrawn: "removed by the chief judge: <reason>" '
        "(another event: by the organizers); null: not removed"
    )
    forfeits_won = serializers.IntegerField(
        source="row.forfeits_won", help_text="Of the wins, those by forfeit (+)"
    )
    forfeits_lost = serializers.IntegerField(
        source="row.forfeits_lost", help_text="Of the losses, those by forfeit (−)"
    )
    lot = serializers.IntegerField(
        source="row.lot",
        allow_null=True,
        help_text="Level with others after every tie-break: its number in the lots drawn for "
        "them, which decided their places (null: not decided by lots; see tournaments/{slug}/lots)",
    )

    @extend_schema_field(serializers.CharField(allow_null=True))
    def get_removal(self, standing: Any) -> str | None:
        entry = standing.entry
        if entry.removed_at is None:
            return None
        return removal_text(entry, self.context.get("tournament") or entry.tournament)


class LotsSerializer(serializers.Serializer[object]):
    """The lots drawn for the places a finished tournament's tie-breaks left shared."""

    seed = serializers.IntegerField(
        help_text='Fixes the draw: each entry\'s lot is the SHA-256 (hex) of "<seed>:<entry id>", '
        "the lowest drawn first (the ids it was drawn with: an imported tournament keeps the order)"
    )
    drawn_by = serializers.CharField(
        source="drawn_by.username", allow_null=True, default=None, help_text="Who drew them"
    )
    drawn_at = serializers.DateTimeField()
    order = serializers.ListField(
        child=serializers.IntegerField(), help_text="The entry ids in the order drawn"
    )


class RatingRowSerializer(serializers.Serializer[object]):
    rank = serializers.IntegerField()
    player_id = serializers.IntegerField(source="player.pk")
    player = serializers.CharField(source="player.display_name")
    rating = RatingNumber()
    experience = serializers.IntegerField()
    matches = serializers.IntegerField()
    last_change = RatingNumber()
    last_match_at = serializers.DateTimeField()


class RatingChangeSerializer(serializers.ModelSerializer[RatingChange]):
    tournament = serializers.CharField(source="match.tournament.slug")
    approved_by = serializers.CharField(
        source="match.tournament.rated_by.username",
        read_only=True,
        allow_null=True,
        default=None,
        help_text="The rating officer who approved the event (null: rated before approvals)",
    )
    score = Points(help_text="1 won, 0 lost, 0.5 drawn")
    before = RatingNumber()
    after = RatingNumber()
    delta = RatingNumber()

    class Meta:
        model = RatingChange
        fields = [
            "match_id", "tournament", "approved_by", "finished_at", "score", "before", "after",
            "delta", "experience_before", "experience_after",
        ]  # fmt: skip


class RatingAuditSerializer(serializers.ModelSerializer[RatingAudit]):
    actor = serializers.CharField(
        source="actor.username", read_only=True, allow_null=True, default=None
    )
    tournament = serializers.CharField(
        source="tournament.slug", read_only=True, allow_null=True, default=None
    )

    class Meta:
        model = RatingAudit
        fields = ["id", "at", "action", "actor", "tournament", "match_id", "note"]


class RatingHoldSerializer(serializers.ModelSerializer[RatingHold]):
    tournament = serializers.CharField(source="match.tournament.slug", read_only=True)
    confirmed_by = serializers.CharField(
        source="confirmed_by.username", read_only=True, allow_null=True, default=None
    )
    largest = RatingNumber(help_text="The largest change the match would make, when held")

    class Meta:
        model = RatingHold
        fields = [
            "id", "match_id", "tournament", "status", "largest", "created_at", "confirmed_by",
            "confirmed_at",
        ]  # fmt: skip


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "number", "minimum": 0, "maximum": 1000},
        "minItems": 1,
        "maxItems": MAX_PLACE_POINTS,
    }
)
class PlacePointsField(serializers.JSONField):
    """``Season.place_points``: a list of numbers, checked by the model's validator (never
    rising); passed on as stored (whole numbers stay whole)."""


class SeasonSerializer(NumbersAsNumbers[Season]):
    club = serializers.CharField(source="club.slug", read_only=True)
    place_points = PlacePointsField(
        required=False,
        label=capfirst(Season._meta.get_field("place_points").verbose_name),
        help_text=Season._meta.get_field("place_points").help_text,
        validators=[validate_place_points],
    )

    class Meta:
        model = Season
        fields = [
            "id", "club", "name", "slug", "starts_on", "ends_on", "scoring", "place_points",
            "win_points", "best_of",
        ]  # fmt: skip
        read_only_fields = ["id", "slug"]
