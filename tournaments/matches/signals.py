"""What happens to a match's result, announced once for whoever follows it: the rating lists
and the analysis subscribe in their own apps (``tournaments.ratings.apps``,
``tournaments.analysis.apps``), so the result flow imports neither of them.

Each signal is sent inside the transaction that changes the result, after the match and its
games are saved (a subscriber that reads the match from the database sees its new status):
a subscriber writes its own rows in that transaction (the rating list's audit trail is written
exactly when the result is) and enqueues its tasks for after the commit
(``tournaments.queue.enqueue``), so nothing runs for a result that is rolled back. Subscribers
are thin: they call a service or enqueue a task.
"""

from django.dispatch import Signal

#: A match's result became decided (confirmed or final), or a decided one was corrected. Sent
#: with ``match`` (its new result, its games stored; ``match.decided_at`` is when it was first
#: decided, its place in rating history), ``by`` (who decided it) and ``first`` (True the first
#: time, False for a correction).
result_decided = Signal()

#: A decided result was taken away: a bracket match reset because a result it depended on was
#: corrected. Sent with ``match`` (no result, no games any more) and ``decided_at`` (when the
#: result it had was first decided).
result_cleared = Signal()
