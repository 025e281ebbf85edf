"""Seasons: a club's league over many events, with a table of points per event.

``table`` is the pure maths (points per event by place or by match wins, "best N of M", the
tie-breaks); ``models`` holds the Season; ``services`` its writes; ``selectors`` reads every event
of a season at once (a constant number of queries) and hands them to ``table``.
"""
