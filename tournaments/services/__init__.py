"""The writes of running a tournament, one module per family of use cases, and what other parts
of the site call (a match's result flow is ``tournaments.matches.results``).

Every function is keyword-only and typed, checks who acts and in which state (``checks``), and
does its whole job in one transaction, or raises a ``TournamentError`` with a message for the
user having changed nothing. Pairings and brackets come from the pure ``tournaments.formats``
(``pairing``).

- ``lifecycle``: create, edit the rules, open registration, start, pair the next Swiss round,
  finish, delete;
- ``entries``: enter players one by one, by name, from a CSV file or a pasted list (after its
  preview), and withdraw them;
- ``two_stages``: a two-stage event's first stage, as its start makes it;
- ``lots``: the drawing of lots for the places the tie-breaks leave shared.
"""

from tournaments.services.entries import (
    ENTRIES_CSV_COLUMNS,
    ENTRIES_CSV_MAX_BYTES,
    NEW,
    PASTE_MAX_CHARS,
    SEED_MAX,
    SKIP,
    NewEntry,
    PastedLine,
    entries_from_csv,
    entries_import_csv,
    entries_paste,
    entries_paste_preview,
    entries_register,
    entry_register,
    entry_withdraw,
    pair_register,
    pair_register_named,
)
from tournaments.services.lifecycle import (
    EDITABLE_SETTINGS,
    EDITABLE_STATUSES,
    start_notices,
    start_notices_of,
    swiss_round_pair,
    tournament_create,
    tournament_delete,
    tournament_finish,
    tournament_open_registration,
    tournament_start,
    tournament_update,
    validate_rules,
)
from tournaments.services.lots import tournament_lots_draw

__all__ = [
    "EDITABLE_SETTINGS",
    "EDITABLE_STATUSES",
    "ENTRIES_CSV_COLUMNS",
    "ENTRIES_CSV_MAX_BYTES",
    "SEED_MAX",
    "NEW",
    "PASTE_MAX_CHARS",
    "SKIP",
    "NewEntry",
    "PastedLine",
    "entries_from_csv",
    "entries_import_csv",
    "entries_paste",
    "entries_paste_preview",
    "entries_register",
    "entry_register",
    "entry_withdraw",
    "pair_register",
    "pair_register_named",
    "start_notices",
    "start_notices_of",
    "swiss_round_pair",
    "tournament_create",
    "tournament_delete",
    "tournament_finish",
    "tournament_lots_draw",
    "tournament_open_registration",
    "tournament_start",
    "tournament_update",
    "validate_rules",
]
