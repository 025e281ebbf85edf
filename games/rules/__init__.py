"""The rules of Long Nardy and Short Nardy (backgammon): pure Python, no Django.

>>> from games.rules import LongNardy, Position, legal_plays
>>> [str(legal.play) for legal in legal_plays(Position.initial(LongNardy()), (3, 3))]
['24/18(2)', '24/21 24/15']
"""

from games.rules.errors import IllegalPlayError, NotationError, RulesError
from games.rules.game import (
    Action,
    Double,
    Drop,
    Ending,
    GameError,
    GameReplay,
    MatchGame,
    MatchResult,
    Opens,
    Outcome,
    Resign,
    Take,
    Turn,
    action_from_json,
    action_to_json,
    actions_as_made,
    game_value,
    replay_game,
    replay_match,
)
from games.rules.moves import LegalPlay, check_play, legal_plays, most_dice_playable
from games.rules.notation import Move, Play, parse_dice
from games.rules.position import Colour, Position
from games.rules.variants import DaveRules, LongNardy, ShortNardy, Variant, variant_named

__all__ = [
    "Action",
    "Colour",
    "DaveRules",
    "Double",
    "Drop",
    "Ending",
    "GameError",
    "GameReplay",
    "IllegalPlayError",
    "LegalPlay",
    "LongNardy",
    "MatchGame",
    "MatchResult",
    "Move",
    "NotationError",
    "Outcome",
    "Play",
    "Position",
    "Opens",
    "Resign",
    "RulesError",
    "ShortNardy",
    "Take",
    "Turn",
    "Variant",
    "action_from_json",
    "action_to_json",
    "actions_as_made",
    "check_play",
    "game_value",
    "legal_plays",
    "most_dice_playable",
    "parse_dice",
    "replay_game",
    "replay_match",
    "variant_named",
]
