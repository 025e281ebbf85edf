"""Players and their accounts: a signed-up user claims an existing Player profile (an organizer of
a club the player has played for approves it), and an organizer merges two Player rows that are
the same person (results, entries and ratings move over; the rating lists are replayed).

``models`` (PlayerClaim), ``services`` (the writes, each in one transaction), ``selectors``.
"""
