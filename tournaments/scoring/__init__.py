"""A match's score from its games, and the tournament points the match is worth. Pure: no Django.

The game and match arithmetic lives once, in ``games.rules.game``: a game's points are
``Outcome.points`` (value × stake) and ``MatchScore`` credits them, knows when a match to N points
is over and which game is the Crawford game. This module adds what a tournament decides on top:

* ``MatchRules``: the per-tournament match rules (to N points or a fixed number of games, the
  switches of the game, how a Federation draw counts) and the engine ``Variant`` they give.
* ``match_score`` (game outcomes) and ``match_replay`` (game records, replayed by the engine):
  the score, who won, the Crawford game, whether the match is over.
* ``score_from_typed``: a final score typed by hand, rejected with a clear ``ValueError`` when no
  match under these rules can end that way.
* ``match_points``: the tournament (match) points of a finished match, for the standings.

Numbers are ``fractions.Fraction`` everywhere (scores, draw credits, match points). A drawn game
can be worth ½, and standings compare sums for equality (shared ranks, tie-breaks): Fractions are
exact, so ½ + ½ == 1 always and a tie is a tie; floats would be exact for halves too but not for
every configurable value (a draw worth 0.1 sums to 0.30000000000000004), and Decimal carries a
rounding context. ``as_fraction`` takes an int, a Fraction, a Decimal (the database's type), a
float or a string such as ``"2.5"`` or ``"5/2"``.

Drawn games (the Nard Federation rule of Long Nardy, RULES.md): a drawn game gives each player
``½`` or ``1`` (``MatchRules.draw_counts``) and nothing to either as a winner.

* In a fixed number of games, the draw credit simply adds to both scores; the match is drawn when
  the scores are level after the last game (the only way a match can be drawn).
* In a match to N points, the draw credit adds to both scores and the match goes on. The match is
  over after a game when a player has N points or more **and** more than the opponent. So a drawn
  game ends the match only when it takes one player to N while the other stays behind (4½–2½ →
  5–3 to 5 with ½ a draw); when it takes both to N with level scores (4–4 → 5–5, 1 a draw), play
  goes on and the next game that is won decides the match. A match to N is never drawn.
* Because a draw gives both players the same credit D, a match to N with draw credit D is, for
  the games that are won, a match to N − D: who leads is unchanged, and a player is at N (or at
  N − 1, which starts the Crawford game) exactly when its won points reach ⌈N − D⌉ (or
  ⌈N − D⌉ − 1; won points are whole). So the engine's ``MatchScore`` keeps the won points and the
  Crawford game, with its ``length`` set to ⌈N − D⌉ after each draw. With halves a player can
  stand at N − ½: it is past N − 1, so the Crawford rule has started for it.

The modules: ``rules`` (the match rules and the numbers), ``match`` (a match's score from its
games), ``typed`` (a typed score checked), ``points`` (the tournament points of a match), and
``clock`` (the time control of a match and its clocks: the match rules of the clock, which the
tournament keeps beside the others and the recorder runs).
"""

from tournaments.scoring.match import (
    MatchScoreResult,
    PlayedGame,
    match_progress,
    match_replay,
    match_score,
)
from tournaments.scoring.points import (
    MatchPoints,
    match_points,
)
from tournaments.scoring.rules import (
    DEFAULT_TOP_STAKE,
    MAX_MATCH_LENGTH,
    DrawCounts,
    MatchRules,
    Number,
    Player,
    VariantName,
    as_fraction,
    written,
)
from tournaments.scoring.typed import (
    score_from_typed,
)

__all__ = [
    "DEFAULT_TOP_STAKE",
    "DrawCounts",
    "MAX_MATCH_LENGTH",
    "MatchPoints",
    "MatchRules",
    "MatchScoreResult",
    "Number",
    "PlayedGame",
    "Player",
    "VariantName",
    "as_fraction",
    "match_points",
    "match_progress",
    "match_replay",
    "match_score",
    "score_from_typed",
    "written",
]
