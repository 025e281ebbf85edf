"""Clubs: a club, its members and their roles, and what a club page shows.

``models`` (Club, Membership), ``services`` (the writes, each checking who acts), ``selectors``
(the reads) and ``permissions`` (who may run what in a club). A tournament may belong to a club;
the club's owners and organizers may then run it like its own organizers.
"""
