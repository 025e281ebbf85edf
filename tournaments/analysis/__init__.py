"""Match analysis stored for the site: what GNU Backgammon (``games.analysis``, run as a separate
program) says of every recorded Short Nardy match.

``models`` (MatchAnalysis, keyed by its record's digest, with each game's and side's figures
and the plays that lost equity), ``engine`` (whether this server analyses), ``services``
(``analysis_queue``: queue a match's record once, in its result's transaction; ``match_analyse``:
analyse it, or copy another match's analysis of the same record, and replace its stored analysis
in one transaction), ``tasks`` (``analysis_run`` on its own queue, with a time limit; only
transient failures are retried), ``selectors`` (the page's and the API's figures, the board's
verdicts). It follows the results by itself (``receivers``, connected in ``apps``). Long Nardy
has no engine to analyse it: its matches get none.
"""
