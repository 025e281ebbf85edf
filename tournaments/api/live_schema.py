"""The live recording's JSON as the API schema declares it: the state every answer gives
(``LiveState``, built by ``tournaments.matches.live.state``), the entry a client posts (the
union ``LiveAction``), and the spectators' long-poll ``GET …/live/next``, a plain async view
drf-spectacular does not see (``add_live_next``, a postprocessing hook).

These serializers only describe: the server renders the state itself (once per version for all
readers) and reads an entry with ``recording.entry_from_json``. The tests compare every answer
of a whole recorded match with what the served schema declares
(``tests.support.schema.undeclared_fields``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse
from drf_spectacular.utils import (
    PolymorphicProxySerializer,
    extend_schema_field,
)
from rest_framework import serializers

from games.action_schema import (
    DICE_HELP,
    DoubleAction,
    DropAction,
    OpensAction,
    PlayAction,
    ResignAction,
    TakeAction,
)
from games.models import Game
from games.viewer import Kind
from nardy_site.api_shapes import ClosedShape
from tournaments.models import Match, Tournament
from tournaments.scoring.clock import KINDS, SIDES

COLOURS = ["white", "black"]
FRAME_KINDS = list(Kind.__args__)  # type: ignore[attr-defined]


def _colour(help_text: str = "", *, allow_null: bool = False) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=COLOURS, allow_null=allow_null, help_text=help_text)


def _side(help_text: str = "", *, allow_null: bool = False) -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=SIDES, allow_null=allow_null, help_text=help_text)


def _player(help_text: str, *, allow_null: bool = False) -> serializers.IntegerField:
    """A match player: 1 (home) or 2 (away)."""
    return serializers.IntegerField(
        min_value=1, max_value=2, allow_null=allow_null, help_text=help_text
    )


def _integers(help_text: str = "") -> serializers.ListField:
    return serializers.ListField(child=serializers.IntegerField(), help_text=help_text)


# --- The state --------------------------------------------------------------------------------


class LiveCounts(serializers.Serializer[Any]):
    """Checkers of each colour (on the bar, or borne off)."""

    white = serializers.IntegerField()
    black = serializers.IntegerField()


class LivePosition(serializers.Serializer[Any]):
    """The position in the JSON of RULES.md: each colour's checkers on its own points 1..24."""

    variant = serializers.ChoiceField(choices=Tournament.Variant.choices)
    turn = _colour("The colour on roll")
    white = _integers("White's checkers on White's points 1..24")
    black = _integers("Black's checkers on Black's points 1..24")
    bar = LiveCounts()
    off = LiveCounts()


class LivePlay(serializers.Serializer[Any]):
    play = serializers.CharField(help_text="The play in the mover's numbering: 24/18 13/9")
    position_id = serializers.CharField(help_text="The gnubg Position ID after it")


class LiveScore(serializers.Serializer[Any]):
    home = serializers.FloatField(help_text="Points: whole, or a half point for a draw")
    away = serializers.FloatField(help_text="Points: whole, or a half point for a draw")
    length = serializers.IntegerField(allow_null=True, help_text="Points to win; null: games")
    games = serializers.IntegerField(
        allow_null=True, help_text="A fixed number of games; null: a match to points"
    )
    crawford_game = serializers.IntegerField(
        allow_null=True, help_text="The number of the Crawford game, once it has started"
    )


class LiveMay(serializers.Serializer[Any]):
    """Which entries may come next."""

    first = serializers.BooleanField(help_text="Who moves first in the game about to start")
    opening = serializers.BooleanField(
        help_text="The opening throw, one die each, of the game about to start (opening_roll)"
    )
    roll = serializers.BooleanField()
    double = serializers.BooleanField(
        help_text="False also where dave cannot change the match: in a match to N points when "
        "each player needs no more than the stake (a match to 1, 2-2 to 3)"
    )
    answer = serializers.BooleanField(help_text="Take or drop the dave offered")
    resign = serializers.BooleanField()


class LiveGame(serializers.Serializer[Any]):
    """A game the recording finished."""

    number = serializers.IntegerField(help_text="1-based")
    white = _player("The match player who played White")
    entries = serializers.IntegerField(help_text="How many entries the game took")
    winner = _colour("The colour that won; null: drawn", allow_null=True)
    ending = serializers.ChoiceField(choices=Game.Ending.choices)
    value = serializers.IntegerField(help_text="1 oyn, 2 mars, 3 koks; 0 a draw")
    stake = serializers.IntegerField()
    winner_player = _player("The match player who won; null: drawn", allow_null=True)


@extend_schema_field(
    {
        "type": "array",
        "items": {"oneOf": [{"type": "integer"}, {"type": "boolean"}]},
        "minItems": 4,
        "maxItems": 4,
        "description": "[source, target, hit, child]: a single step in the mover's own "
        "numbering (25 the bar, 0 off), whether it hits, and the node it leads to",
    }
)
class StepEdgeField(serializers.ListField):
    """One edge of the steps' graph (``games.rules.steps.Edge``): a tuple of mixed types."""


class LiveStepNode(serializers.Serializer[Any]):
    """A node of the graph of single steps to the legal plays (``games.rules.steps``): node 0
    is the start."""

    steps = serializers.ListField(child=StepEdgeField(), help_text="The steps that may come next")
    play = serializers.IntegerField(
        allow_null=True,
        help_text="A play complete here: its index in legal_plays (the empty play: 0)",
    )


class LiveLayoutHomes(serializers.Serializer[Any]):
    white = _integers()
    black = _integers()


class LiveLayout(serializers.Serializer[Any]):
    """The variant's geometry in White's numbering (``games.viewer.Layout``)."""

    top = _integers("The top row, left to right")
    bottom = _integers("The bottom row, left to right")
    black_numbers = _integers("Black's own number of each of White's points 1..24")
    homes = LiveLayoutHomes()
    bar = serializers.BooleanField(help_text="The variant has a bar (Short Nardy)")


class LiveFrameBoard(serializers.Serializer[Any]):
    points = _integers("White's points 1..24: + White's checkers, - Black's")
    bar = LiveCounts()
    off = LiveCounts()


class LiveResult(serializers.Serializer[Any]):
    winner = _colour(allow_null=True)
    winner_player = _player("The match player who won; null: drawn", allow_null=True)
    ending = serializers.ChoiceField(choices=Game.Ending.choices)
    value = serializers.IntegerField()
    points = serializers.IntegerField()


class LiveFrame(serializers.Serializer[Any]):
    """The board as it stands (``games.viewer.Frame``)."""

    game = serializers.IntegerField()
    step = serializers.IntegerField(help_text="Actions of the game so far (their count + 1: end)")
    kind = serializers.ChoiceField(choices=FRAME_KINDS)
    side = _colour("Who acted", allow_null=True)
    turn = _colour("Who is on roll in the position shown")
    numbering = _colour("Whose point numbers the play is written in")
    board = LiveFrameBoard()
    dice = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    play = serializers.CharField(allow_null=True)
    moved = _integers("The points (White's numbering) a turn's checkers left or reached")
    stake = serializers.IntegerField()
    owner = _colour("Who alone may offer dave", allow_null=True)
    offered = serializers.IntegerField(allow_null=True, help_text="The stake offered")
    crawford = serializers.BooleanField()
    white_player = _player("The match player playing White")
    score_before = serializers.ListField(child=serializers.FloatField())
    score_after = serializers.ListField(child=serializers.FloatField())
    description = serializers.CharField()
    result = LiveResult(allow_null=True)
    accepted = serializers.BooleanField(
        required=False, help_text="Only on a play the opponent accepted as made: true"
    )


class LiveBoard(serializers.Serializer[Any]):
    """What the board drawing shows (``games.viewer.BoardReplay``, one frame)."""

    variant = serializers.ChoiceField(choices=Tournament.Variant.choices)
    layout = LiveLayout()
    names = serializers.ListField(child=serializers.CharField(), help_text="Home, away")
    length = serializers.IntegerField(allow_null=True)
    crawford = serializers.BooleanField(help_text="The match plays the Crawford rule")
    dave = serializers.BooleanField(help_text="Stakes can be raised at all")
    frames = serializers.ListField(child=LiveFrame())


class LiveClocks(serializers.Serializer[Any]):
    home = serializers.IntegerField(help_text="Whole seconds left")
    away = serializers.IntegerField(help_text="Whole seconds left")
    running = _side("Whose clock runs", allow_null=True)


class LiveTimeControl(serializers.Serializer[Any]):
    kind = serializers.ChoiceField(choices=KINDS)
    base_seconds = serializers.IntegerField()
    per_move_seconds = serializers.IntegerField()


class LiveClockLeft(serializers.Serializer[Any]):
    home = serializers.FloatField(help_text="Seconds, to the millisecond")
    away = serializers.FloatField(help_text="Seconds, to the millisecond")


class LiveClock(serializers.Serializer[Any]):
    """The clocks in detail, for a page to tick on from (``broadcast.clock_fields``)."""

    control = LiveTimeControl()
    on_turn = _side("Whose turn it is while the clocks run or are paused", allow_null=True)
    delay_left = serializers.FloatField(help_text="The delay the running side still waits")
    paused = serializers.BooleanField(help_text="A judge paused the clocks")
    flagged = _side("The side whose flag fell", allow_null=True)
    flagged_at = serializers.FloatField(allow_null=True, help_text="When (the server's time)")
    left = LiveClockLeft()
    read_at = serializers.FloatField(help_text="The moment read (seconds, the server's time)")


class LiveHint(serializers.Serializer[Any]):
    best = serializers.CharField(help_text="The play the engine would have made")
    loss = serializers.FloatField(help_text="The equity the play entered lost")


class LiveState(serializers.Serializer[Any]):
    """Where the recording stands (``tournaments.matches.live.state``)."""

    ply = serializers.IntegerField(help_text="How many entries the recording holds")
    game = serializers.IntegerField(help_text="The game on the board (1-based)")
    variant = serializers.ChoiceField(choices=Tournament.Variant.choices)
    position = LivePosition()
    on_roll = _colour()
    dice = serializers.CharField(allow_null=True, help_text='A roll waiting for its play: "64"')
    legal_plays = serializers.ListField(child=LivePlay(), help_text="Of the roll waiting")
    score = LiveScore()
    stake = serializers.IntegerField()
    finished = serializers.BooleanField(help_text="The match is decided (or reported)")
    winner = _player("The match player who won the match", allow_null=True)
    lost_on_time = _side("The side whose flag fell", allow_null=True)
    white = _player("The match player playing White")
    first = _colour(
        "The colour that moves (or moved) first in the game on the board: White, unless the "
        "opening throw made it Black"
    )
    opening_roll = serializers.BooleanField(
        help_text="Long Nardy's opening roll (the sport rules, art. 26.3): a game opens with one "
        'die each ({"opening": {"white": 3, "black": 5}}), the higher moves first with both '
        "numbers, never a double. (Short Nardy's first roll is never a double either; its "
        'recorder asks who moves first, {"first": 1}, that player playing White.)'
    )
    crawford = serializers.BooleanField(help_text="This game is the Crawford game")
    last_turn = serializers.BooleanField(
        help_text="Black's last turn under the Federation's draw rule (Long Nardy)"
    )
    holder = _colour("Who alone may offer dave", allow_null=True)
    offered = serializers.IntegerField(allow_null=True, help_text="The stake offered")
    may = LiveMay()
    max_value = serializers.IntegerField(help_text="The highest game value: 2 mars, 3 koks")
    accepted_moves = serializers.BooleanField(
        help_text='A play the opponent accepts as made stands ({"accepted": true})'
    )
    games = serializers.ListField(child=LiveGame(), help_text="The games finished")
    draft = serializers.IntegerField(allow_null=True, help_text="The recording's id")
    revision = serializers.IntegerField(help_text="Raised by every write, never lowered")
    recording = serializers.BooleanField(help_text="The match is being recorded now")
    take_back_until = serializers.DateTimeField(
        allow_null=True,
        help_text="The recording decided the match: until then its players may take the "
        "deciding entry back (POST …/undo); an organizer may later",
    )
    match = serializers.IntegerField(help_text="The match's id")
    match_status = serializers.ChoiceField(choices=Match.Status.choices)
    names = serializers.ListField(child=serializers.CharField(), help_text="Home, away")
    steps = serializers.ListField(
        child=LiveStepNode(),
        allow_null=True,
        help_text="The roll's single steps to a legal play (games.rules.steps); null: no roll",
    )
    board = LiveBoard()
    clocks = LiveClocks(allow_null=True, help_text="A timed match's clocks; null: no clock")
    clock = LiveClock(allow_null=True, help_text="A timed match's clocks in detail; null: none")
    hint = LiveHint(
        allow_null=True,
        required=False,
        help_text="Only in the answer to an entry, in a Long Nardy match of a tournament that "
        "is not rated: the play the engine would have made instead of the play entered and the "
        "equity lost; null when there is none (or the play was as good)",
    )


class LiveSyncState(LiveState):
    """The state after a sync's last entry."""

    clamped = serializers.ListField(
        child=serializers.IntegerField(),
        help_text="The entries (their index in the sync, from 0) whose phone time could not be: "
        "before the entry they follow, or after the sync reached the server. Each took the "
        "nearest time that could be and is marked for the judge",
    )


# --- The entry ---------------------------------------------------------------------------------


class LiveRollAction(ClosedShape):
    """A roll whose play comes next."""

    dice = serializers.CharField(help_text=f"{DICE_HELP}: the roll whose play comes next")


class LiveFirstAction(ClosedShape):
    """Who moves first in the game about to start."""

    first = _player("The match player who moves first, playing White, in the game to start")


class LiveOpeningDice(serializers.Serializer[Any]):
    white = serializers.IntegerField(min_value=1, max_value=6, help_text="White's die")
    black = serializers.IntegerField(min_value=1, max_value=6, help_text="Black's die")


class LiveOpeningAction(ClosedShape):
    """The opening throw of the game about to start: one die each, White's first. The higher
    moves first and plays both numbers; equal dice are thrown again (refused)."""

    opening = LiveOpeningDice(help_text="White's die and Black's")


class LiveFlagAction(ClosedShape):
    """A flag fall in a timed match."""

    flag = _side("The side whose time ran out (by the server's clock): it loses the match")


@extend_schema_field(
    # No discriminator: the shapes share no tag field, each is told by its own keys (closed
    # objects, so that exactly one matches).
    PolymorphicProxySerializer(
        component_name="LiveAction",
        serializers=[
            PlayAction,
            LiveRollAction,
            DoubleAction,
            TakeAction,
            DropAction,
            ResignAction,
            LiveFirstAction,
            LiveOpeningAction,
            OpensAction,
            LiveFlagAction,
        ],
        resource_type_field_name=None,
    )
)
class LiveActionField(serializers.DictField):
    """An entry: any object passes here, the rules read it (``recording.entry_from_json``) and
    refuse what is not an entry (400)."""


# --- The kit of a phone that records offline -------------------------------------------------


def _choices(field: str) -> Any:
    return Tournament._meta.get_field(field).choices


class KitRules(serializers.Serializer[Any]):
    """The match rules (``tournaments.scoring.MatchRules``), as the board reads them."""

    # The tournament's own choices: one enum each in the schema, as the tournament's fields have.
    variant = serializers.ChoiceField(choices=Tournament.Variant.choices)
    length = serializers.IntegerField(allow_null=True, help_text="Points to win; null: games")
    games = serializers.IntegerField(allow_null=True, help_text="Games, all counted; null: points")
    koks = serializers.BooleanField()
    no_hit_and_hide = serializers.BooleanField()
    federation_draw = serializers.BooleanField()
    draw_counts = serializers.ChoiceField(choices=_choices("draw_counts"))
    block_check = serializers.ChoiceField(choices=_choices("block_check"))
    dave = serializers.BooleanField()
    progression = serializers.ChoiceField(choices=_choices("dave_progression"))
    max_stake = serializers.IntegerField(allow_null=True)
    crawford = serializers.BooleanField()
    accepted_moves = serializers.BooleanField()
    opening_roll = serializers.BooleanField()


class KitOutcome(serializers.Serializer[Any]):
    winner = _colour("The colour that won; null: drawn", allow_null=True)
    ending = serializers.ChoiceField(choices=Game.Ending.choices)
    value = serializers.IntegerField(help_text="1 oyn, 2 mars, 3 koks; 0 a draw")
    stake = serializers.IntegerField()


class KitGameDone(KitOutcome):
    """A finished game's checkpoint (``recording.GameDone``)."""

    white = _player("The match player who played White")
    entries = serializers.IntegerField(help_text="How many entries the game took")


class KitGame(serializers.Serializer[Any]):
    """The engine's state of the game on the board (``GameState.checkpoint``)."""

    position = LivePosition()
    crawford = serializers.BooleanField()
    from_start = serializers.BooleanField()
    stake = serializers.IntegerField()
    holders = serializers.ListField(child=_colour(), help_text="Who may offer dave")
    offered = serializers.BooleanField()
    turns = serializers.IntegerField()
    last_turn = serializers.BooleanField()
    outcome = KitOutcome(allow_null=True)
    last_play = serializers.CharField(allow_null=True)
    first = _colour()
    opened = serializers.BooleanField()


class KitCurrent(serializers.Serializer[Any]):
    """The game on the board as the draft's checkpoint (``Recording.checkpoint``)."""

    number = serializers.IntegerField(help_text="The game's number (1-based)")
    white = _player("The match player playing White")
    entries = serializers.IntegerField()
    actions = serializers.IntegerField()
    last = LiveActionField(allow_null=True, help_text="The game's last action")
    dice = serializers.CharField(allow_null=True, help_text="A roll waiting for its play")
    game = KitGame()
    lost_on_time = _player("The match player whose flag fell", allow_null=True)


class KitClockState(serializers.Serializer[Any]):
    """The clocks after their last event (``clock.Clock.to_json``)."""

    left = LiveClockLeft()
    on_turn = _side(allow_null=True)
    paused = serializers.BooleanField()
    turn_used = serializers.FloatField()
    last = serializers.FloatField(allow_null=True, help_text="The last event (server's time)")
    flagged = _side(allow_null=True)
    flagged_at = serializers.FloatField(allow_null=True)


class KitClock(serializers.Serializer[Any]):
    control = LiveTimeControl()
    clock = KitClockState()


class LiveKit(serializers.Serializer[Any]):
    """What a phone keeps to go on recording with no network (``board.kit_json``): the page
    runs the rules engine on it (Pyodide) for the entries it holds until it can sync."""

    version = serializers.IntegerField(help_text="The kit's shape; a newer one is fetched again")
    match = serializers.IntegerField(help_text="The match's id")
    draft = serializers.IntegerField(allow_null=True, help_text="The draft's id; null: none yet")
    ply = serializers.IntegerField(help_text="The draft's entries: the ply a sync goes on from")
    revision = serializers.IntegerField(help_text="The draft's revision")
    rules = KitRules()
    done = serializers.ListField(child=KitGameDone(), help_text="The finished games")
    current = KitCurrent(allow_null=True, help_text="The game on the board; null: no entry yet")
    clock = KitClock(allow_null=True, help_text="A timed match's clocks; null: no clock")


# --- Reading ---------------------------------------------------------------------------------

#: Who may read a match's state: anyone (who may see the match), signed in or not.
READ_BY_ANYONE: list[Any] = [{"tokenAuth": []}, {"cookieAuth": []}, {}]


def add_live_next(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    """A postprocessing hook (``SPECTACULAR_SETTINGS``): the spectators' long-poll ``GET
    …/live/next`` (``tournaments.api.live.live_next``, an async Django view), declared as its
    sibling ``GET …/live`` is, with the wait said."""
    path = reverse("api-live-next", args=[0]).replace("/0/", "/{id}/")
    answers = result["paths"].get(path.replace("/next", ""), {}).get("get")
    if answers is None:  # a schema of some other part of the site
        return result
    operation = {
        "operationId": "v1_matches_live_next_retrieve",
        "summary": "The next state of the recording (long-poll)",
        "description": "With If-None-Match: the state as soon as it differs from the one the "
        "client has, or 304 when it did not change within the wait (up to "
        f"{settings.LIVE_FOLLOW_WAIT_SECONDS:g} s). Without it, or with another ETag: the "
        "state at once. A plain view, it reads the session, not a token: with a token, a match "
        "that only its organizers see (a tournament in draft) is followed with GET …/live.",
        "parameters": answers["parameters"],
        "tags": answers["tags"],
        "security": [{"cookieAuth": []}, {}],
        "responses": {code: answers["responses"][code] for code in ("200", "304", "404")},
    }
    result["paths"][path] = {"get": operation}
    return result
