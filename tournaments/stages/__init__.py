"""Two-stage events: round-robin groups or a Swiss first, then a bracket for the top players.

Each stage is a tournament of its own (``parent`` is the event, ``stage`` 1 or 2, ``group`` the
group's letter), so results, standings, brackets, ratings and pages work in a stage as in any
tournament. The event itself holds the entries, the sign-up and the rules; its ``format`` is the
bracket's. The event's start makes the first stage (``tournaments.services.two_stages``);
``services`` build the second from the first's standings (cross-seeded: A1–B2, B1–A2 …, by the
pure ``tournaments.formats.groups``) once the organizer confirms, and reset it;
``selectors`` read both stages, whether stage 1 is complete and who goes on. A correction in
stage 1 once stage 2 is built is refused by the result flow (``tournaments.matches.guards``).
"""
