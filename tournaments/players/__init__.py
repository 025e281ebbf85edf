"""Who a player is (``rights``: the identity rule; the home club decides): a signed-up user claims
an existing Player, the runners of its home club (or staff) decide, remove an account link, or
merge two Player rows that are the same person (results, entries and ratings move over; the
rating lists are replayed), and staff undo a merge; every such change is in the identity trail
(``audit``).

``models`` (PlayerClaim, IdentityAudit), ``services`` (the writes, each in one transaction),
``selectors``, and the pages and API.
"""
