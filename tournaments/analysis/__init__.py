"""Match analysis stored for the site: what GNU Backgammon (``games.analysis``, run as a separate
program) says of every recorded Short Nardy match.

``models`` (MatchAnalysis with each game's and player's figures and the plays that lost equity),
``services`` (``match_analyse``: analyse a match and replace its stored analysis in one
transaction), ``tasks`` (``analysis_run`` on its own queue, with a time limit and retries).
Long Nardy has no engine to analyse it: its matches get none.
"""
