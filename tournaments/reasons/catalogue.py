"""The catalogue of reasons: one regular expression per English template that the rules engine
and the scoring can give, with its translatable template (``tournaments.reasons`` reads it). A
new reason in ``games.rules`` or ``tournaments.scoring`` gets its line here; the test of the
reasons fails until it does."""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy


@dataclass(frozen=True, slots=True)
class Reason:
    """One template: its pattern, its translation, and the group that picks a plural form."""

    pattern: re.Pattern[str]
    template: Promise
    count: str | None = None


def _r(pattern: str, template: Promise, count: str | None = None) -> Reason:
    return Reason(re.compile(pattern), template, count)


# fmt: off
REASONS: tuple[Reason, ...] = (
    # --- games.rules.moves: check_play -------------------------------------------------------
    # _Turn.explain: why one checker's step is refused
    _r(r"a checker on the bar must enter first", _("a checker on the bar must enter first")),
    _r(r"no checker on the bar", _("no checker on the bar")),
    _r(r"no checker on point (?P<point>\d+)", _("no checker on point %(point)s")),
    _r(r"point (?P<point>\d+) is held by the opponent",
       _("point %(point)s is held by the opponent")),
    _r(r"a second checker may not leave the head on this turn",
       _("a second checker may not leave the head on this turn")),
    _r(r"cannot bear off: (?P<n>\d+) checkers? (?:is|are) outside the home",
       ngettext_lazy("cannot bear off: %(n)s checker is outside the home",
                     "cannot bear off: %(n)s checkers are outside the home", "n"), "n"),
    _r(r"cannot bear off from (?P<point>\d+) with a (?P<die>\d): "
       r"a checker stands on a higher point",
       _("cannot bear off from %(point)s with a %(die)s: a checker stands on a higher point")),
    _r(r"the checker on (?P<source>\d+) has hit and may not stop on (?P<target>\d+) beside its "
       r"own checkers \(no hit-and-hide\)",
       _("the checker on %(source)s has hit and may not stop on %(target)s beside its own "
         "checkers (no hit-and-hide)")),
    # check_play.whole_turn_problem: the turn as a whole
    _r(r"(?P<most>\d) of (?P<all>\d) dice can be played, this play uses (?P<used>\d)",
       _("%(most)s of %(all)s dice can be played, this play uses %(used)s")),
    _r(r"only one die can be played: it must be the (?P<die>\d)",
       _("only one die can be played: it must be the %(die)s")),
    # check_play: nothing else explains the refusal
    _r(r"the dice (?P<dice>\d-\d) cannot play nothing",
       _("the dice %(dice)s cannot play nothing")),
    _r(r"the dice (?P<dice>\d-\d) cannot play (?P<play>.+)",
       _("the dice %(dice)s cannot play %(play)s")),
    _r(r"(?P<move>\S+) does not run from a higher point to a lower one",
       _("%(move)s does not run from a higher point to a lower one")),
    # _block_reason, _hit_reason
    _r(r"six-block on points (?P<first>\d+)–(?P<last>\d+) with no opponent checker ahead",
       _("six-block on points %(first)s–%(last)s with no opponent checker ahead")),
    _r(r"(?P<move>\d+/\d+)\* hits nothing: no opponent checker alone on point (?P<point>\d+)",
       _("%(move)s* hits nothing: no opponent checker alone on point %(point)s")),
    _r(r"(?P<move>\d+/\d+) hits a checker on point (?P<point>\d+) but is not marked with \*",
       _("%(move)s hits a checker on point %(point)s but is not marked with *")),

    # --- games.rules.game: replay_game, action_from_json -------------------------------------
    # GameState.play_turn, roll_refusal, double_refusal, answer, resign; replay_game; replay_match
    _r(r"dave was offered: take or drop comes before the roll",
       _("dave was offered: take or drop comes before the roll")),
    _r(r"the first roll of a game is never a double",
       _("the first roll of a game is never a double")),
    _r(r"dave was already offered: take or drop comes next",
       _("dave was already offered: take or drop comes next")),
    _r(r"dave is not played in this game", _("dave is not played in this game")),
    _r(r"no dave in the Crawford game", _("no dave in the Crawford game")),
    _r(r"no dave before the opening throw", _("no dave before the opening throw")),
    _r(r"no dave on the last turn after White has borne off",
       _("no dave on the last turn after White has borne off")),
    _r(r"white does not hold the right to offer dave",
       _("white does not hold the right to offer dave")),
    _r(r"black does not hold the right to offer dave",
       _("black does not hold the right to offer dave")),
    _r(r"the stake may not exceed (?P<stake>\d+)", _("the stake may not exceed %(stake)s")),
    _r(r"no dave was offered", _("no dave was offered")),
    _r(r"a resignation concedes 1 to (?P<most>\d+) game values, not (?P<value>-?\d+)",
       _("a resignation concedes 1 to %(most)s game values, not %(value)s")),
    _r(r"the game is already over", _("the game is already over")),
    _r(r"the match is already over", _("the match is already over")),
    # action_from_json
    _r(r"a game action is a JSON object, not (?P<data>.+)",
       _("a game action is a JSON object, not %(data)s")),
    _r(r"a roll is (?P<example>\{'dice': '64', 'play': '24/18 13/9'\}), not (?P<data>.+)",
       _("a roll is %(example)s, not %(data)s")),
    _r(r'a resignation is (?P<example>\{"resign": "white", "value": 1\}), not (?P<data>.+)',
       _("a resignation is %(example)s, not %(data)s")),
    _r(r"unknown game action (?P<data>.+)", _("unknown game action %(data)s")),
    _r(r'a play accepted as made says (?P<example>"accepted": true), not (?P<data>.+)',
       _("a play accepted as made says %(example)s, not %(data)s")),
    # GameState._made and moves.physical_play: a play the opponent accepted as made
    _r(r"an opponent may not accept an illegal play in these rules",
       _("an opponent may not accept an illegal play in these rules")),
    _r(r"there is no checker of the player to move on the bar",
       _("there is no checker of the player to move on the bar")),
    _r(r"there is no checker of the player to move on point (?P<point>\d+)",
       _("there is no checker of the player to move on point %(point)s")),
    _r(r"no dice of the roll left take a checker from (?P<source>the bar|point \d+) to "
       r"(?P<target>off|point \d+) where a checker can stand",
       _("no dice of the roll left take a checker from %(source)s to %(target)s where a "
         "checker can stand")),

    # --- tournaments.matches.live.recording: Recording.add, entry_from_json --------------------
    _r(r"who moves first is chosen before the game's first roll",
       _("who moves first is chosen before the game's first roll")),
    _r(r"the roll is entered already: play it, or undo it",
       _("the roll is entered already: play it, or undo it")),
    _r(r"the roll entered is (?P<rolled>\d\d), not (?P<given>\d\d)",
       _("the roll entered is %(rolled)s, not %(given)s")),
    _r(r"dave is offered before the roll, not after it",
       _("dave is offered before the roll, not after it")),
    _r(r'who moves first is (?P<example>\{"first": 1\}) or 2, not (?P<data>.+)',
       _("who moves first is %(example)s or 2, not %(data)s")),
    _r(r'a flag fall is (?P<example>\{"flag": "home"\} or "away"), not (?P<data>.+)',
       _("a flag fall is %(example)s, not %(data)s")),

    # --- games.rules.matfile: read_match, check_match ----------------------------------------
    # read_match, _switch, _rules_from_headers, _read_game, _columns (MatchFormatError)
    _r(r"no game found: a match file has lines like (?P<example>' Game 1')",
       _("no game found: a match file has lines like %(example)s")),
    _r(r"no (?P<example>'N point match') line before the first game",
       _("no %(example)s line before the first game")),
    _r(r'header (?P<key>.+) is (?P<on>"On") or (?P<off>"Off"), not (?P<value>.+)',
       _("header %(key)s is %(on)s or %(off)s, not %(value)s")),
    _r(r"(?P<key>CubeLimit) is a number, not (?P<value>.+)",
       _("%(key)s is a number, not %(value)s")),
    _r(r'(?P<key>DaveProgression|BlockCheck) is (?P<one>"\w+") or (?P<other>"\w+"), '
       r"not (?P<value>.+)",
       _("%(key)s is %(one)s or %(other)s, not %(value)s")),
    _r(r"unsupported variation (?P<variation>.+): (?P<long>Long Nardy), (?P<short>Short Nardy) "
       r"or (?P<backgammon>Backgammon)",
       _("unsupported variation %(variation)s: %(long)s, %(short)s or %(backgammon)s")),
    _r(r"expected the score line (?P<example>'name : n   name : m')",
       _("expected the score line %(example)s")),
    _r(r"more than two entries on one line: (?P<text>.+)",
       _("more than two entries on one line: %(text)s")),
    # _GameReader (RecordError)
    _r(r"nothing may follow the result of the game",
       _("nothing may follow the result of the game")),
    _r(r"(?P<entry>\w+) answers no dave offered by the opponent",
       _("%(entry)s answers no dave offered by the opponent")),
    _r(r"the game was already resigned", _("the game was already resigned")),
    _r(r"cannot read this entry", _("cannot read this entry")),
    _r(r"no roll may follow the end of the game", _("no roll may follow the end of the game")),
    _r(r"player (?P<roller>\d) is on roll, not player (?P<player>\d)",
       _("player %(roller)s is on roll, not player %(player)s")),
    _r(r"dice are two numbers 1\.\.6, not (?P<dice>.+)",
       _("dice are two numbers 1..6, not %(dice)s")),
    _r(r"dave is offered by the player on roll, before rolling",
       _("dave is offered by the player on roll, before rolling")),
    _r(r"the next stake is (?P<expected>\d+), not (?P<stake>\d+)",
       _("the next stake is %(expected)s, not %(stake)s")),
    _r(r"an unrecorded turn is only allowed just before a resignation",
       _("an unrecorded turn is only allowed just before a resignation")),
    # check_match
    _r(r"the match to (?P<length>\d+) points was already over",
       ngettext_lazy("the match to %(length)s points was already over",
                     "the match to %(length)s points was already over", "length"), "length"),

    # --- games.rules.notation: Play.parse, parse_dice ----------------------------------------
    _r(r"a play is text, not (?P<type>\w+)", _("a play is text, not %(type)s")),
    _r(r"cannot read (?P<token>.+) in play (?P<play>.+)",
       _("cannot read %(token)s in play %(play)s")),
    _r(r"(?P<token>.+) does not move toward home in play (?P<play>.+)",
       _("%(token)s does not move toward home in play %(play)s")),
    _r(r"a move repeats 1 to 4 times: (?P<token>.+)", _("a move repeats 1 to 4 times: %(token)s")),
    _r(r"a roll moves at most 4 times: (?P<play>.+)", _("a roll moves at most 4 times: %(play)s")),
    _r(r"no point (?P<point>\d+) in play (?P<play>.+)", _("no point %(point)s in play %(play)s")),
    _r(r"dice are two numbers 1\.\.6: (?P<dice>.+)", _("dice are two numbers 1..6: %(dice)s")),
    # matfile._columns: a line that is neither an entry nor a play (after "cannot read … in play")
    _r(r"cannot read (?P<text>.+)", _("cannot read %(text)s")),

    # --- games.rules.position: Position ---------------------------------------------------------
    _r(r"no point (?P<point>-?\d+)", _("no point %(point)s")),
    _r(r"a Position ID has 14 characters: (?P<id>.+)",
       _("a Position ID has 14 characters: %(id)s")),
    _r(r"not a Position ID \(bad base64\): (?P<id>.+)",
       _("not a Position ID (bad base64): %(id)s")),
    _r(r"too many checkers in Position ID (?P<id>.+)",
       _("too many checkers in Position ID %(id)s")),
    _r(r"more than 15 checkers for one side in (?P<id>.+)",
       _("more than 15 checkers for one side in %(id)s")),
    _r(r"trailing bits in Position ID (?P<id>.+)", _("trailing bits in Position ID %(id)s")),
    _r(r"position is for (?P<position>.+), not (?P<variant>.+)",
       _("position is for %(position)s, not %(variant)s")),
    _r(r"not a position in JSON form: (?P<error>.*)", _("not a position in JSON form: %(error)s")),
    _r(r"each side needs a list of 24 point counts",
       _("each side needs a list of 24 point counts")),
    _r(r"checker counts must be whole numbers, not negative",
       _("checker counts must be whole numbers, not negative")),
    _r(r"a side is 26 non-negative counts: off, points 1\.\.24, bar",
       _("a side is 26 non-negative counts: off, points 1..24, bar")),
    _r(r"each side has 15 checkers, not (?P<n>-?\d+)", _("each side has 15 checkers, not %(n)s")),
    _r(r"Long Nardy has no bar", _("Long Nardy has no bar")),
    _r(r"point (?P<point>\d+) holds checkers of both sides",
       _("point %(point)s holds checkers of both sides")),

    # --- games.rules.variants: DaveRules, LongNardy, variant_named (also MatchRules) ---------
    _r(r"unknown dave progression (?P<value>.+)", _("unknown dave progression %(value)s")),
    _r(r"(?P<field>max_stake) must be at least 1", _("%(field)s must be at least 1")),
    _r(r"unknown block check (?P<value>.+)", _("unknown block check %(value)s")),
    _r(r"unknown variant (?P<value>.+): expected (?P<long>'long') or (?P<short>'short')",
       _("unknown variant %(value)s: expected %(long)s or %(short)s")),

    # --- games.services: games_validate, games_from_mat ----------------------------------------
    _r(r"White is side 1 or 2", _("White is side 1 or 2")),
    _r(r"the match to (?P<length>\d+) points was already decided",
       ngettext_lazy("the match to %(length)s points was already decided",
                     "the match to %(length)s points was already decided", "length"), "length"),
    _r(r"the file is a (?P<file>Long Nardy|Short Nardy) match, "
       r"the tournament plays (?P<tournament>Long Nardy|Short Nardy)",
       _("the file is a %(file)s match, the tournament plays %(tournament)s")),

    # --- tournaments.scoring -------------------------------------------------------------------
    # as_fraction
    _r(r"(?P<value>.+) is not a number", _("%(value)s is not a number")),
    # MatchRules.__post_init__
    _r(r"a match is played to N points or as a fixed number of games: "
       r"set exactly one of (?P<length>length) and (?P<games>games)",
       _("a match is played to N points or as a fixed number of games: "
         "set exactly one of %(length)s and %(games)s")),
    _r(r"a match is played to at least 1 point, not (?P<length>-?\d+)",
       _("a match is played to at least 1 point, not %(length)s")),
    _r(r"a match has at least 1 game, not (?P<games>-?\d+)",
       _("a match has at least 1 game, not %(games)s")),
    _r(r"a drawn game counts (?P<half>'half') or (?P<one>'one'), not (?P<value>.+)",
       _("a drawn game counts %(half)s or %(one)s, not %(value)s")),
    # _Tally.start_game (after "game N: ")
    _r(r"the match has only (?P<games>\d+) games",
       ngettext_lazy("the match has only %(games)s games",
                     "the match has only %(games)s games", "games"), "games"),
    # _check_game, match_replay (after "game N: ", or with "game N" in the sentence)
    _r(r"White is match player 1 or 2, not (?P<white>.+)",
       _("White is match player 1 or 2, not %(white)s")),
    _r(r"game (?P<game>\d+) is unfinished: only finished games count",
       _("game %(game)s is unfinished: only finished games count")),
    _r(r"a game has a winner unless it is drawn", _("a game has a winner unless it is drawn")),
    _r(r"game (?P<game>\d+) is drawn, but a game can be drawn only under the Federation draw "
       r"rule of Long Nardy",
       _("game %(game)s is drawn, but a game can be drawn only under the Federation draw rule "
         "of Long Nardy")),
    _r(r"game (?P<game>\d+) is worth (?P<value>-?\d+): a game is worth 1 \(oyn\), 2 \(mars\) "
       r"or 3 \(koks\)",
       _("game %(game)s is worth %(value)s: a game is worth 1 (oyn), 2 (mars) or 3 (koks)")),
    _r(r"game (?P<game>\d+) is worth (?P<value>-?\d+): a game is worth 1 \(oyn\), 2 \(mars\)",
       _("game %(game)s is worth %(value)s: a game is worth 1 (oyn), 2 (mars)")),
    _r(r"a declined dave loses one oyn, not (?P<value>-?\d+)",
       _("a declined dave loses one oyn, not %(value)s")),
    _r(r"game (?P<game>\d+) has stake (?P<stake>-?\d+): a stake is at least 1",
       _("game %(game)s has stake %(stake)s: a stake is at least 1")),
    _r(r"game (?P<game>\d+) has stake (?P<stake>\d+), but dave is not played",
       _("game %(game)s has stake %(stake)s, but dave is not played")),
    _r(r"game (?P<game>\d+) is the Crawford game: no dave, so its stake is 1, not (?P<stake>\d+)",
       _("game %(game)s is the Crawford game: no dave, so its stake is 1, not %(stake)s")),
    _r(r"game (?P<game>\d+) has stake (?P<stake>\d+), above the highest stake (?P<top>\d+)",
       _("game %(game)s has stake %(stake)s, above the highest stake %(top)s")),
    _r(r"game (?P<game>\d+) has stake (?P<stake>\d+), which the geometric dave skips",
       _("game %(game)s has stake %(stake)s, which the geometric dave skips")),
    _r(r"game (?P<game>\d+) has stake (?P<stake>\d+), which the arithmetic dave skips",
       _("game %(game)s has stake %(stake)s, which the arithmetic dave skips")),
    # score_from_typed, _check_halves
    _r(r"a score cannot be negative: (?P<score>.+)", _("a score cannot be negative: %(score)s")),
    _r(r"a score is whole or ends in ½, not (?P<score>.+)",
       _("a score is whole or ends in ½, not %(score)s")),
    _r(r"a score of (?P<score>.+) is impossible: scores are whole numbers unless drawn games "
       r"count ½–½",
       _("a score of %(score)s is impossible: scores are whole numbers unless drawn games "
         "count ½–½")),
    _r(r"(?P<score>\S+–\S+) is impossible: a drawn game gives both players ½, so both scores "
       r"are whole or both end in ½",
       _("%(score)s is impossible: a drawn game gives both players ½, so both scores are whole "
         "or both end in ½")),
    # _check_to_points
    _r(r"(?P<score>\S+–\S+): neither player reached (?P<length>\d+), so a match to "
       r"(?P=length) points is not over",
       ngettext_lazy("%(score)s: neither player reached %(length)s, so a match to %(length)s "
                     "points is not over",
                     "%(score)s: neither player reached %(length)s, so a match to %(length)s "
                     "points is not over", "length"), "length"),
    _r(r"(?P<score>\S+–\S+): a match to (?P<length>\d+) points cannot end level; when drawn "
       r"games bring both players to (?P=length) level, play goes on until a game is won",
       ngettext_lazy("%(score)s: a match to %(length)s points cannot end level; when drawn "
                     "games bring both players to %(length)s level, play goes on until a game "
                     "is won",
                     "%(score)s: a match to %(length)s points cannot end level; when drawn "
                     "games bring both players to %(length)s level, play goes on until a game "
                     "is won", "length"), "length"),
    _r(r"(?P<score>\S+–\S+): both players reached (?P<length>\d+), but a match to (?P=length) "
       r"points ends as soon as one player reaches (?P=length)",
       ngettext_lazy("%(score)s: both players reached %(length)s, but a match to %(length)s "
                     "points ends as soon as one player reaches %(length)s",
                     "%(score)s: both players reached %(length)s, but a match to %(length)s "
                     "points ends as soon as one player reaches %(length)s", "length"), "length"),
    _r(r"(?P<score>\S+–\S+): both players reached (?P<length>\d+), which only drawn games "
       r"leaving them level can do; then one game decides, and a game brings at most "
       r"(?P<most>\d+)",
       _("%(score)s: both players reached %(length)s, which only drawn games leaving them "
         "level can do; then one game decides, and a game brings at most %(most)s")),
    _r(r"(?P<score>\S+–\S+): (?P<high>\S+) is out of reach; the match ends as soon as a player "
       r"reaches (?P<length>\d+), and one game brings at most (?P<most>\d+)",
       _("%(score)s: %(high)s is out of reach; the match ends as soon as a player reaches "
         "%(length)s, and one game brings at most %(most)s")),
    # _check_fixed_games
    _r(r"(?P<score>\S+–\S+) is too few points for (?P<games>\d+) games: every game gives out "
       r"at least 1 point in all",
       ngettext_lazy("%(score)s is too few points for %(games)s games: every game gives out "
                     "at least 1 point in all",
                     "%(score)s is too few points for %(games)s games: every game gives out "
                     "at least 1 point in all", "games"), "games"),
    _r(r"(?P<score>\S+–\S+) needs more than (?P<games>\d+) games: a game brings at most "
       r"(?P<most>\d+) points",
       ngettext_lazy("%(score)s needs more than %(games)s games: a game brings at most "
                     "%(most)s points",
                     "%(score)s needs more than %(games)s games: a game brings at most "
                     "%(most)s points", "games"), "games"),
    _r(r"(?P<score>\S+–\S+) cannot come out of (?P<games>\d+) games: a game won brings its "
       r"winner 1 to (?P<most>\d+) points",
       ngettext_lazy("%(score)s cannot come out of %(games)s games: a game won brings its "
                     "winner 1 to %(most)s points",
                     "%(score)s cannot come out of %(games)s games: a game won brings its "
                     "winner 1 to %(most)s points", "games"), "games"),
    _r(r"(?P<score>\S+–\S+) cannot come out of (?P<games>\d+) games: a game won brings its "
       r"winner 1 to (?P<most>\d+) points, a drawn game (?P<draw>\S+) to each",
       ngettext_lazy("%(score)s cannot come out of %(games)s games: a game won brings its "
                     "winner 1 to %(most)s points, a drawn game %(draw)s to each",
                     "%(score)s cannot come out of %(games)s games: a game won brings its "
                     "winner 1 to %(most)s points, a drawn game %(draw)s to each", "games"),
       "games"),
    # MatchPoints, match_points
    _r(r"match points must run win ≥ draw ≥ loss with a win worth more than a loss",
       _("match points must run win ≥ draw ≥ loss with a win worth more than a loss")),
    _r(r"an unfinished match is worth no tournament points yet",
       _("an unfinished match is worth no tournament points yet")),

    # --- Reasons that wrap a reason ------------------------------------------------------------
    # matfile.MatchFormatError: the line of the file
    _r(r"line (?P<line>\d+): (?P<reason>.+)", _("line %(line)s: %(reason)s")),
    # matfile.RecordError: where in the file
    _r(r"game (?P<game>\d+), move (?P<move>\d+), player (?P<player>\d+): "
       r"(?P<play>'[^']*'|\"[^\"]*\"): (?P<reason>.+)",
       _("game %(game)s, move %(move)s, player %(player)s: %(play)s: %(reason)s")),
    # game.GameError: where in a game (and in a match)
    _r(r"game (?P<game>\d+), turn (?P<turn>\d+), (?P<colour>white|black)(?P<play>(?: '[^']*')?): "
       r"(?P<reason>.+)",
       _("game %(game)s, turn %(turn)s, %(colour)s%(play)s: %(reason)s")),
    _r(r"turn (?P<turn>\d+), (?P<colour>white|black)(?P<play>(?: '[^']*')?): (?P<reason>.+)",
       _("turn %(turn)s, %(colour)s%(play)s: %(reason)s")),
    # scoring.match: _Tally.start_game, _check_game, match_replay: "game N: " before the reason
    _r(r"game (?P<game>\d+): (?P<reason>.+)", _("game %(game)s: %(reason)s")),
)
# fmt: on
