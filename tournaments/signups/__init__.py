"""Sign-up and check-in: players enter a tournament open to self-registration themselves.

``models`` (SignUp: pending approval, on the waiting list, entered, declined or withdrawn),
``services`` (sign up, withdraw, approve, decline, check in; the waiting list moves up by itself
when a place frees), ``selectors`` (the sign-up page's lists, a user's sign-ups). An entered
sign-up has its Entry; the check-in is the entry's, whoever entered it.
"""
