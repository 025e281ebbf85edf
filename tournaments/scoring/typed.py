"""A final score typed by hand (``score_from_typed``), refused with a clear ``ValueError`` when
no match under the rules can end that way. Pure: no Django."""

from __future__ import annotations

from fractions import Fraction

from games.rules.errors import RulesError, Template
from tournaments.scoring.match import MatchScoreResult
from tournaments.scoring.rules import MatchRules, Number, Player, as_fraction, written

# Why a typed score is refused (games.rules.errors).
NEGATIVE = Template("score-negative", "a score cannot be negative: %(score)s")
WHOLE_OR_HALF = Template("score-whole-or-half", "a score is whole or ends in ½, not %(score)s")
NO_HALVES = Template(
    "score-no-halves",
    "a score of %(score)s is impossible: scores are whole numbers unless drawn games count ½–½",
)
HALVES_APART = Template(
    "score-halves-apart",
    "%(score)s is impossible: a drawn game gives both players ½, so both scores are whole or "
    "both end in ½",
)
NOT_OVER = Template(
    "score-not-over",
    "%(score)s: neither player reached %(length)s, so a match to %(length)s points is not over",
    count="length",
)
LEVEL_WITH_DRAWS = Template(
    "score-level-with-draws",
    "%(score)s: a match to %(length)s points cannot end level; when drawn games bring both "
    "players to %(length)s level, play goes on until a game is won",
    count="length",
)
BOTH_REACHED = Template(
    "score-both-reached",
    "%(score)s: both players reached %(length)s, but a match to %(length)s points ends as soon "
    "as one player reaches %(length)s",
    count="length",
)
BOTH_REACHED_BY_DRAWS = Template(
    "score-both-reached-by-draws",
    "%(score)s: both players reached %(length)s, which only drawn games leaving them level can "
    "do; then one game decides, and a game brings at most %(most)s",
)
OUT_OF_REACH = Template(
    "score-out-of-reach",
    "%(score)s: %(high)s is out of reach; the match ends as soon as a player reaches "
    "%(length)s, and one game brings at most %(most)s",
)
TOO_FEW_POINTS = Template(
    "score-too-few-points",
    "%(score)s is too few points for %(games)s games: every game gives out at least 1 point in all",
    count="games",
)
TOO_MANY_POINTS = Template(
    "score-too-many-points",
    "%(score)s needs more than %(games)s games: a game brings at most %(most)s points",
    count="games",
)
NO_SPLIT = Template(
    "score-no-split",
    "%(score)s cannot come out of %(games)s games: a game won brings its winner 1 to %(most)s "
    "points",
    count="games",
)
NO_SPLIT_WITH_DRAWS = Template(
    "score-no-split-with-draws",
    "%(score)s cannot come out of %(games)s games: a game won brings its winner 1 to %(most)s "
    "points, a drawn game %(draw)s to each",
    count="games",
)


def score_from_typed(rules: MatchRules, score1: Number, score2: Number) -> MatchScoreResult:
    """A final match score typed by hand, checked against what a match under ``rules`` can give.

    Rejected with a ``ValueError`` that says why:

    * a negative score; a half point where no draw counts ½ (halves exist only with Federation
      draws counted ½–½, and then both scores carry the same half, since every draw gives both);
    * to N points: neither player has N (the match is not over); level scores; both players at
      N or more, unless drawn games took both to N level and one more game decided it (then the
      difference is one game's points); a winner beyond what the last game can bring
      (the winner was below N before it);
    * a fixed number of games G: fewer points than G games give out (each game gives at least 1
      in all, a draw ½ + ½ or 1 + 1), more than G games can give, or no split
      into G games: every won game gives its winner 1 to the most one game can bring.

    The checks are on totals: that one total can be split into the particular values a game can
    take (with dave 1, 2, 4, 8 …, so 3 points from one game are impossible) and which game was the
    Crawford game are not reconstructed. A typed score has no known games: ``games_counted`` is
    G for a fixed number of games, else None.
    """
    one, two = as_fraction(score1), as_fraction(score2)
    for value in (one, two):
        if value < 0:
            raise RulesError(NEGATIVE(score=written(value)))
    _check_halves(rules, one, two)
    if rules.length is not None:
        _check_to_points(rules, rules.length, one, two)
        winner: Player | None = 1 if one > two else 2
    else:
        assert rules.games is not None
        _check_fixed_games(rules, rules.games, one, two)
        winner = None if one == two else 1 if one > two else 2
    return MatchScoreResult(one, two, winner, rules.games, None, True)


def _check_halves(rules: MatchRules, one: Fraction, two: Fraction) -> None:
    halves = rules.draws and rules.draw_counts == "half"
    for value in (one, two):
        if value.denominator == 1:
            continue
        if halves and value.denominator == 2:
            continue
        if halves:
            raise RulesError(WHOLE_OR_HALF(score=written(value)))
        raise RulesError(NO_HALVES(score=written(value)))
    if one.denominator != two.denominator:
        raise RulesError(HALVES_APART(score=f"{written(one)}–{written(two)}"))


def _check_to_points(rules: MatchRules, length: int, one: Fraction, two: Fraction) -> None:
    high, low = max(one, two), min(one, two)
    most = rules.most_for_a_game()
    shown = f"{written(one)}–{written(two)}"
    if high < length:
        raise RulesError(NOT_OVER(score=shown, length=length))
    if high == low:
        if rules.draws:
            raise RulesError(LEVEL_WITH_DRAWS(score=shown, length=length))
        raise RulesError(BOTH_REACHED(score=shown, length=length))
    if low >= length:
        if not rules.draws:
            raise RulesError(BOTH_REACHED(score=shown, length=length))
        # Only drawn games bring both players to N, level; the next game won ends the match.
        if high - low > most:
            raise RulesError(BOTH_REACHED_BY_DRAWS(score=shown, length=length, most=most))
        return
    if high - most >= length:
        raise RulesError(OUT_OF_REACH(score=shown, high=written(high), length=length, most=most))


def _check_fixed_games(rules: MatchRules, games: int, one: Fraction, two: Fraction) -> None:
    shown = f"{written(one)}–{written(two)}"
    most = rules.most_for_a_game()
    total = one + two
    if total < games:
        raise RulesError(TOO_FEW_POINTS(score=shown, games=games))
    # A draw gives out 2 × ½ or 2 × 1; a won game up to ``most``, which is at least 2.
    if total > games * most:
        raise RulesError(TOO_MANY_POINTS(score=shown, games=games, most=most))
    draw = rules.draw_value
    for draws in range(games + 1 if rules.draws else 1):
        won1, won2 = one - draws * draw, two - draws * draw
        if won1 < 0 or won2 < 0 or won1.denominator != 1 or won2.denominator != 1:
            continue
        if _split_into_wins(int(won1), int(won2), games - draws, most):
            return
    if rules.draws:
        raise RulesError(
            NO_SPLIT_WITH_DRAWS(score=shown, games=games, most=most, draw=written(draw))
        )
    raise RulesError(NO_SPLIT(score=shown, games=games, most=most))


def _split_into_wins(points1: int, points2: int, games: int, most: int) -> bool:
    """Whether ``games`` won games can give the players these points, 1 to ``most`` a game."""

    def wins_needed(points: int) -> tuple[int, int]:
        # The fewest and the most games a player can have won to make ``points``.
        if points == 0:
            return 0, 0
        return -(-points // most), points

    low1, high1 = wins_needed(points1)
    low2, high2 = wins_needed(points2)
    return max(low1, games - high2) <= min(high1, games - low2)
