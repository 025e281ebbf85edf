"""A game action's JSON as the API schema declares it: the shapes ``games.rules.action_to_json``
writes and ``action_from_json`` reads (a play, dave offered, taken or dropped, a resignation),
and ``GameActionField``, their union (the component ``GameAction``).

One declaration of each shape, for every place the API sends or takes game actions: a game's
stored record (``tournaments.api.serializers.GameSerializer``), the games of a result or of a
record to check (``games.api.GameRecordIn``), and the live recording's entries
(``tournaments.api.live_schema.LiveActionField``, which adds the shapes that are only entries).
These serializers only describe: the rules read the JSON (``action_from_json``)."""

from __future__ import annotations

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from nardy_site.api_shapes import ClosedShape, TrueField

COLOURS = ["white", "black"]
DICE_HELP = 'Two dice: "64" (a client may also send "6-4" or "6 4")'


class PlayAction(ClosedShape):
    """A turn: the roll and its play."""

    dice = serializers.CharField(help_text=DICE_HELP)
    play = serializers.CharField(
        allow_blank=True, help_text='The play in the mover\'s numbering, "" when none is legal'
    )
    accepted = serializers.BooleanField(
        required=False,
        help_text="Only true: the opponent accepted the play as made, where the tournament "
        "allows it",
    )


class DoubleAction(ClosedShape):
    """Dave offered."""

    double = TrueField(help_text="Offer dave")


class TakeAction(ClosedShape):
    """Dave taken."""

    take = TrueField(help_text="Take the dave offered")


class DropAction(ClosedShape):
    """Dave dropped: the game ends."""

    drop = TrueField(help_text="Drop the dave offered")


class ResignAction(ClosedShape):
    """A resignation: the game ends at its value."""

    resign = serializers.ChoiceField(choices=COLOURS, help_text="The colour that resigns")
    value = serializers.IntegerField(
        min_value=1,
        max_value=3,
        required=False,
        help_text="1 oyn (the default), 2 mars, 3 koks; the server always writes it",
    )


class OpensAction(ClosedShape):
    """The opening throw (one die each, art. 26.3) made this colour move first: only as a
    game's first action, where the game plays the opening throw."""

    opens = serializers.ChoiceField(
        choices=COLOURS, help_text="The colour whose die was higher: it moves first"
    )


#: The shapes of a game action, in the order a client tries them.
GAME_ACTIONS: list[type[ClosedShape]] = [
    PlayAction,
    DoubleAction,
    TakeAction,
    DropAction,
    ResignAction,
    OpensAction,
]


@extend_schema_field(
    # No discriminator: the shapes share no tag field, each is told by its own keys (closed
    # objects, so that exactly one matches).
    PolymorphicProxySerializer(
        component_name="GameAction", serializers=GAME_ACTIONS, resource_type_field_name=None
    )
)
class GameActionField(serializers.DictField):
    """A game action: any object passes here, the rules read it (``action_from_json``) and
    refuse what is not an action."""
