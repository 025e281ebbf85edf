"""Ratings: everything about the rating lists, in one place.

The maths, pure Python on plain numbers (no Django, no database; ``tests/test_pure_modules.py``):

* ``fibs``: the FIBS formula, the backgammon servers' rating (match length, experience).
* ``elo``: the textbook Elo expectation and update.
* ``glicko2``: Glickman's Glicko-2, one rating period at a time.
* ``history``: a list's matches replayed in order, with the bounds and the review threshold.

The Django side, which keeps the state and calls the maths. What other packages use:

* ``models``: the lists, their ledger of changes, current ratings, audit trail and holds.
* ``services``: rating officers approve tournaments and confirm held changes; lists replayed
  when results leave or come back whole (a deletion, an import, a merge).
* ``selectors``: who is an officer, the lists, a player's history, a match's rating effect,
  the audit trail a user may read.

Its own:

* ``ledger``: the only writer of a list; applies a match or replays from a point in history.
* ``audit``: the audit trail's rows.
* ``tasks``: the Celery tasks that run the ledger after a result commits.
* ``receivers``: the lists follow the results (``tournaments.matches.signals``), connected in
  ``apps.RatingsConfig.ready``.
"""
