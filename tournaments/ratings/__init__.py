"""Ratings: everything about the rating lists, in one place.

The maths, pure Python on plain numbers (no Django, no database; ``tests/test_pure_modules.py``):

* ``fibs``: the FIBS formula, the backgammon servers' rating (match length, experience).
* ``elo``: the textbook Elo expectation and update.
* ``glicko2``: Glickman's Glicko-2, one rating period at a time.
* ``history``: a list's matches replayed in order, with the bounds and the review threshold.

The Django side, which keeps the state and calls the maths:

* ``models``: the lists, their ledger of changes, current ratings, audit trail and holds.
* ``ledger``: the only writer of a list; applies a match or replays from a point in history.
* ``approvals``: rating officers approve tournaments and confirm held changes.
* ``audit``: the audit trail's rows and who may read them.
* ``tasks``: the Celery tasks that run the ledger after a result commits.
"""
