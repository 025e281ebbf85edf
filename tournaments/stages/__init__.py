"""Two-stage events: round-robin groups or a Swiss first, then a bracket for the top players.

Each stage is a tournament of its own (``parent`` is the event, ``stage`` 1 or 2, ``group`` the
group's letter), so results, standings, brackets, ratings and pages work in a stage as in any
tournament. The event itself holds the entries, the sign-up and the rules; its ``format`` is the
bracket's. ``services`` start the first stage, build the second from the first's standings
(cross-seeded: A1–B2, B1–A2 …, by the pure ``tournaments.formats.groups``) once the organizer
confirms, reset it, and finish the event; ``guards`` refuse a correction in stage 1 once stage 2
is built; ``selectors`` read both stages for the event's page.
"""
