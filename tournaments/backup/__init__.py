"""A tournament as one JSON document, and back: a backup that survives schema changes, moves a
tournament between sites, and is checked on the way in.

``tournament_export`` writes a versioned document (``format``, ``version``): every setting of the
tournament (all its model fields but the organizers), the organizer and co-organizers by
username, the players (display name, club, country, linked username), the entries, the rounds,
and every match (round or bracket slot and where its sides come from, home and away by player
name, status, score, winner, who reported and confirmed it and when, the dispute note, when it
was decided) with its games (who played White, the engine's actions, the outcome) and, for a
match whose games are all recorded, their ``.mat`` text, which backgammon programs read; and the
lots drawn for its shared places (``lots``: the seed, the order drawn by player name, who drew
them and when; null when none were, and absent from older documents).

``tournament_import`` recreates the tournament in one transaction, or raises a
``TournamentError`` having saved nothing:

* the slug must be free (``as_slug`` gives another one);
* players are matched by display name and created when missing; a known player is kept as the
  database has it (a different club, country or account in the document is listed in
  ``ImportResult.players_differing``, not applied);
* users are matched by username; one the site does not have is left empty (organizer,
  co-organizer, reporter, confirmer, player account) and listed in ``missing_users``;
* every game's record is replayed by the rules engine as a new result would be
  (``IllegalGameRecord`` names the match, game, move and reason), each game's outcome and the
  match's score and winner are derived again and must be the document's; a typed score must be
  a possible one.

Ratings are not in the document: they follow from the matches. The import enqueues (on commit,
``tournaments.ratings.services.tournament_arrived``) a replay of the tournament's rating list
from its earliest decided match, after which every rating is what it was before the export
(when the tournament was deleted with ``tournaments.services.tournament_delete`` and imported
back). Should that message be lost (the broker down), the periodic ``ratings_catch_up`` finds
the list behind and replays it.

``document`` says what the document is, ``export`` writes it, ``importing`` reads it back.
"""

from tournaments.backup.document import FORMAT, VERSION
from tournaments.backup.export import tournament_export, tournament_mat_text
from tournaments.backup.importing import ImportResult, tournament_import

__all__ = [
    "FORMAT",
    "VERSION",
    "ImportResult",
    "tournament_export",
    "tournament_import",
    "tournament_mat_text",
]
