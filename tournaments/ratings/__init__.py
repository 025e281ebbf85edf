"""Rating maths: pure Python on plain numbers, no Django, no database.

* ``fibs``: the FIBS formula, the backgammon servers' rating (match length, experience).
* ``elo``: the textbook Elo expectation and update.
* ``glicko2``: Glickman's Glicko-2, one rating period at a time.

The services keep the state (ratings, experience, the order of matches) and call these; keeping
them pure lets the tests pin them to the published numbers and check their properties.
"""
