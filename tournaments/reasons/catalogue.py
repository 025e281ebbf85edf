"""The catalogue of reasons: the translatable sentence of every code the rules engine and the
scoring give (``games.rules.errors.Template``), with the same named values as its English. A
new template in ``games.rules`` or ``tournaments.scoring`` gets its line here, and its Russian in
``locale/ru``: tests/tournaments/test_reasons.py fails until both are there.

One sentence a line, as long as it is: a catalogue is read by its sentences."""

# ruff: noqa: E501

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy, pgettext_lazy

# fmt: off
CATALOGUE: dict[str, Promise] = {
    # --- games.rules.moves -----------------------------------------------------------------------
    "bar-first": _("a checker on the bar must enter first"),
    "no-checker-on-bar": _("no checker on the bar"),
    "no-checker-on-point": _("no checker on point %(point)s"),
    "point-held": _("point %(point)s is held by the opponent"),
    "head-once": _("a second checker may not leave the head on this turn"),
    "bear-off-not-home": ngettext_lazy(
        "cannot bear off: %(n)s checker is outside the home",
        "cannot bear off: %(n)s checkers are outside the home",
        "n",
    ),
    "bear-off-higher": _("cannot bear off from %(point)s with a %(die)s: a checker stands on a higher point"),
    "hit-and-hide": _("the checker on %(source)s has hit and may not stop on %(target)s beside its own checkers (no hit-and-hide)"),
    "too-few-dice": _("%(most)s of %(all)s dice can be played, this play uses %(used)s"),
    "higher-die": _("only one die can be played: it must be the %(die)s"),
    "cannot-play": _("the dice %(dice)s cannot play %(play)s"),
    "cannot-play-nothing": _("the dice %(dice)s cannot play nothing"),
    "not-downward": _("%(move)s does not run from a higher point to a lower one"),
    "six-block": _("six-block on points %(first)s–%(last)s with no opponent checker ahead"),
    "hits-nothing": _("%(move)s* hits nothing: no opponent checker alone on point %(point)s"),
    "hit-unmarked": _("%(move)s hits a checker on point %(point)s but is not marked with *"),
    "none-to-move-on-bar": _("there is no checker of the player to move on the bar"),
    "none-to-move-on-point": _("there is no checker of the player to move on point %(point)s"),
    "no-dice-left": _("no dice of the roll left take a checker from %(source)s to %(target)s where a checker can stand"),
    "the-bar": pgettext_lazy("place on the board", "the bar"),
    "off-the-board": pgettext_lazy("place on the board", "off"),
    "point": pgettext_lazy("place on the board", "point %(point)s"),
    # --- games.rules.game ------------------------------------------------------------------------
    "dave-offered-first": _("dave was offered: take or drop comes before the roll"),
    "no-opening-double": _("the first roll of a game is never a double"),
    "dave-offered-already": _("dave was already offered: take or drop comes next"),
    "no-dave": _("dave is not played in this game"),
    "no-dave-crawford": _("no dave in the Crawford game"),
    "no-dave-opening": _("no dave before the opening throw"),
    "no-dave-last-turn": _("no dave on the last turn after White has borne off"),
    "white-not-holder": _("white does not hold the right to offer dave"),
    "black-not-holder": _("black does not hold the right to offer dave"),
    "stake-cap": _("the stake may not exceed %(stake)s"),
    "dave-not-offered": _("no dave was offered"),
    "resign-value": _("a resignation concedes 1 to %(most)s game values, not %(value)s"),
    "game-over": _("the game is already over"),
    "match-over": _("the match is already over"),
    "no-accepting": _("an opponent may not accept an illegal play in these rules"),
    "action-not-object": _("a game action is a JSON object, not %(data)s"),
    "action-roll": _("a roll is %(example)s, not %(data)s"),
    "action-accepted": _("a play accepted as made says %(example)s, not %(data)s"),
    "action-resign": _("a resignation is %(example)s, not %(data)s"),
    "action-unknown": _("unknown game action %(data)s"),
    "at-turn": _("turn %(turn)s, %(colour)s%(play)s: %(reason)s"),
    "at-game-turn": _("game %(game)s, turn %(turn)s, %(colour)s%(play)s: %(reason)s"),
    "colour-white": pgettext_lazy("colour", "white"),
    "colour-black": pgettext_lazy("colour", "black"),
    # --- tournaments.matches.live.recording ------------------------------------------------------
    "first-before-roll": _("who moves first is chosen before the game's first roll"),
    "roll-entered": _("the roll is entered already: play it, or undo it"),
    "other-roll": _("the roll entered is %(rolled)s, not %(given)s"),
    "dave-after-roll": _("dave is offered before the roll, not after it"),
    "dave-cannot-matter": _(
        "no dave: whoever wins this game wins the match at the present stake, so raising it "
        "changes nothing"
    ),
    "entry-first": _("who moves first is %(example)s or 2, not %(data)s"),
    "entry-flag": _("a flag fall is %(example)s, not %(data)s"),
    "at-entry": _("game %(game)s, turn %(turn)s: %(reason)s"),
    # --- games.rules.matfile ---------------------------------------------------------------------
    "mat-no-game": _("no game found: a match file has lines like %(example)s"),
    "mat-no-length": _("no %(example)s line before the first game"),
    "mat-accepted-places": _("%(key)s lists %(example)s places, not %(value)s"),
    "mat-on-or-off": _("header %(key)s is %(on)s or %(off)s, not %(value)s"),
    "mat-not-a-number": _("%(key)s is a number, not %(value)s"),
    "mat-one-or-other": _("%(key)s is %(one)s or %(other)s, not %(value)s"),
    "mat-variation": _("unsupported variation %(variation)s: %(long)s, %(short)s or %(backgammon)s"),
    "mat-score-line": _("expected the score line %(example)s"),
    "mat-too-many-entries": _("more than two entries on one line: %(text)s"),
    "mat-unreadable": _("cannot read %(text)s"),
    "mat-digits": _("%(what)s has too many digits"),
    "mat-after-result": _("nothing may follow the result of the game"),
    "mat-no-dave-to-answer": _("%(entry)s answers no dave offered by the opponent"),
    "mat-resigned-already": _("the game was already resigned"),
    "mat-unreadable-entry": _("cannot read this entry"),
    "mat-roll-after-end": _("no roll may follow the end of the game"),
    "mat-other-roller": _("player %(roller)s is on roll, not player %(player)s"),
    "mat-not-dice": _("dice are two numbers 1..6, not %(dice)s"),
    "mat-dave-before-roll": _("dave is offered by the player on roll, before rolling"),
    "mat-next-stake": _("the next stake is %(expected)s, not %(stake)s"),
    "mat-unrecorded": _("an unrecorded turn is only allowed just before a resignation"),
    "mat-match-over": ngettext_lazy(
        "the match to %(length)s points was already over",
        "the match to %(length)s points was already over",
        "length",
    ),
    "at-line": _("line %(line)s: %(reason)s"),
    "at-move": _("game %(game)s, move %(move)s, player %(player)s: %(play)s: %(reason)s"),
    "mat-the-match-length": pgettext_lazy("number in a match file", "the match length"),
    "mat-the-score": pgettext_lazy("number in a match file", "the score"),
    "mat-a-move-number": pgettext_lazy("number in a match file", "a move number"),
    "mat-the-stake": pgettext_lazy("number in a match file", "the stake"),
    "mat-the-points": pgettext_lazy("number in a match file", "the number of points"),
    "mat-cube-limit": pgettext_lazy("number in a match file", "CubeLimit"),
    # --- games.rules.notation --------------------------------------------------------------------
    "play-not-text": _("a play is text, not %(type)s"),
    "unreadable-move": _("cannot read %(token)s in play %(play)s"),
    "not-toward-home": _("%(token)s does not move toward home in play %(play)s"),
    "repeats": _("a move repeats 1 to 4 times: %(token)s"),
    "too-many-moves": _("a roll moves at most 4 times: %(play)s"),
    "no-point-in-play": _("no point %(point)s in play %(play)s"),
    "not-dice": _("dice are two numbers 1..6: %(dice)s"),
    # --- games.rules.position --------------------------------------------------------------------
    "no-point": _("no point %(point)s"),
    "position-id-length": _("a Position ID has 14 characters: %(id)s"),
    "position-id-base64": _("not a Position ID (bad base64): %(id)s"),
    "position-id-too-many": _("too many checkers in Position ID %(id)s"),
    "position-id-side-too-many": _("more than 15 checkers for one side in %(id)s"),
    "position-id-trailing": _("trailing bits in Position ID %(id)s"),
    "position-variant": _("position is for %(position)s, not %(variant)s"),
    "position-json": _("not a position in JSON form: %(error)s"),
    "position-point-counts": _("each side needs a list of 24 point counts"),
    "position-negative-counts": _("checker counts must be whole numbers, not negative"),
    "position-side-counts": _("a side is 26 non-negative counts: off, points 1..24, bar"),
    "position-fifteen": _("each side has 15 checkers, not %(n)s"),
    "no-bar": _("Long Nardy has no bar"),
    "position-both-sides": _("point %(point)s holds checkers of both sides"),
    # --- games.rules.variants --------------------------------------------------------------------
    "unknown-progression": _("unknown dave progression %(value)s"),
    "max-stake-at-least-one": _("%(field)s must be at least 1"),
    "unknown-block-check": _("unknown block check %(value)s"),
    "unknown-variant": _("unknown variant %(value)s: expected %(long)s or %(short)s"),
    # --- games.services --------------------------------------------------------------------------
    "white-side-1-or-2": _("White is side 1 or 2"),
    "match-decided": ngettext_lazy(
        "the match to %(length)s points was already decided",
        "the match to %(length)s points was already decided",
        "length",
    ),
    "file-other-game": _("the file is a %(file)s match, the tournament plays %(tournament)s"),
    "variant-long": pgettext_lazy("variant in a sentence", "Long Nardy"),
    "variant-short": pgettext_lazy("variant in a sentence", "Short Nardy"),
    # --- tournaments.scoring.rules ---------------------------------------------------------------
    "not-a-number": _("%(value)s is not a number"),
    "length-or-games": _("a match is played to N points or as a fixed number of games: set exactly one of %(length)s and %(games)s"),
    "length-at-least-one": _("a match is played to at least 1 point, not %(length)s"),
    "games-at-least-one": _("a match has at least 1 game, not %(games)s"),
    "draw-counts": _("a drawn game counts %(half)s or %(one)s, not %(value)s"),
    # --- tournaments.scoring.match ---------------------------------------------------------------
    "at-game": _("game %(game)s: %(reason)s"),
    "only-games": ngettext_lazy(
        "the match has only %(games)s games",
        "the match has only %(games)s games",
        "games",
    ),
    "white-1-or-2": _("White is match player 1 or 2, not %(white)s"),
    "game-unfinished": _("game %(game)s is unfinished: only finished games count"),
    "winner-unless-drawn": _("a game has a winner unless it is drawn"),
    "game-drawn": _("game %(game)s is drawn, but a game can be drawn only under the Federation draw rule of Long Nardy"),
    "game-worth-koks": _("game %(game)s is worth %(value)s: a game is worth 1 (oyn), 2 (mars) or 3 (koks)"),
    "game-worth": _("game %(game)s is worth %(value)s: a game is worth 1 (oyn), 2 (mars)"),
    "drop-one-oyn": _("a declined dave loses one oyn, not %(value)s"),
    "stake-below-one": _("game %(game)s has stake %(stake)s: a stake is at least 1"),
    "stake-without-dave": _("game %(game)s has stake %(stake)s, but dave is not played"),
    "stake-crawford": _("game %(game)s is the Crawford game: no dave, so its stake is 1, not %(stake)s"),
    "stake-above-top": _("game %(game)s has stake %(stake)s, above the highest stake %(top)s"),
    "stake-skipped-geometric": _("game %(game)s has stake %(stake)s, which the geometric dave skips"),
    "stake-skipped-arithmetic": _("game %(game)s has stake %(stake)s, which the arithmetic dave skips"),
    # --- tournaments.scoring.typed ---------------------------------------------------------------
    "score-negative": _("a score cannot be negative: %(score)s"),
    "score-whole-or-half": _("a score is whole or ends in ½, not %(score)s"),
    "score-no-halves": _("a score of %(score)s is impossible: scores are whole numbers unless drawn games count ½–½"),
    "score-halves-apart": _("%(score)s is impossible: a drawn game gives both players ½, so both scores are whole or both end in ½"),
    "score-not-over": ngettext_lazy(
        "%(score)s: neither player reached %(length)s, so a match to %(length)s points is not over",
        "%(score)s: neither player reached %(length)s, so a match to %(length)s points is not over",
        "length",
    ),
    "score-level-with-draws": ngettext_lazy(
        "%(score)s: a match to %(length)s points cannot end level; when drawn games bring both players to %(length)s level, play goes on until a game is won",
        "%(score)s: a match to %(length)s points cannot end level; when drawn games bring both players to %(length)s level, play goes on until a game is won",
        "length",
    ),
    "score-both-reached": ngettext_lazy(
        "%(score)s: both players reached %(length)s, but a match to %(length)s points ends as soon as one player reaches %(length)s",
        "%(score)s: both players reached %(length)s, but a match to %(length)s points ends as soon as one player reaches %(length)s",
        "length",
    ),
    "score-both-reached-by-draws": _("%(score)s: both players reached %(length)s, which only drawn games leaving them level can do; then one game decides, and a game brings at most %(most)s"),
    "score-out-of-reach": _("%(score)s: %(high)s is out of reach; the match ends as soon as a player reaches %(length)s, and one game brings at most %(most)s"),
    "score-too-few-points": ngettext_lazy(
        "%(score)s is too few points for %(games)s games: every game gives out at least 1 point in all",
        "%(score)s is too few points for %(games)s games: every game gives out at least 1 point in all",
        "games",
    ),
    "score-too-many-points": ngettext_lazy(
        "%(score)s needs more than %(games)s games: a game brings at most %(most)s points",
        "%(score)s needs more than %(games)s games: a game brings at most %(most)s points",
        "games",
    ),
    "score-no-split": ngettext_lazy(
        "%(score)s cannot come out of %(games)s games: a game won brings its winner 1 to %(most)s points",
        "%(score)s cannot come out of %(games)s games: a game won brings its winner 1 to %(most)s points",
        "games",
    ),
    "score-no-split-with-draws": ngettext_lazy(
        "%(score)s cannot come out of %(games)s games: a game won brings its winner 1 to %(most)s points, a drawn game %(draw)s to each",
        "%(score)s cannot come out of %(games)s games: a game won brings its winner 1 to %(most)s points, a drawn game %(draw)s to each",
        "games",
    ),
    # --- tournaments.scoring.points --------------------------------------------------------------
    "points-order": _("match points must run win ≥ draw ≥ loss with a win worth more than a loss"),
    "unfinished-match": _("an unfinished match is worth no tournament points yet"),
}
# fmt: on
