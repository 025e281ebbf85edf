"""What the site says of a player, in the player's grammatical gender.

Russian puts a past tense (and a short participle) in the gender of whom it is said of: "не
подтвердил" of a man, "не подтвердила" of a woman. So each such sentence is declared three times,
by its translation context: of a woman, of a man, and of someone whose profile gives no gender (a
pair, or a player who did not say), whose Russian is phrased so that it needs none ("участие не
подтверждено"). English says all three alike. The contexts are written out, each a literal, so
that ``makemessages`` finds every one. Templates say them with ``{% said %}``
(``tournaments.templatetags.players``); the code with ``SaidOf.of``.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

#: The profile's genders (``Player.Gender``; ``eligibility.MALE`` and ``FEMALE``).
FEMALE, MALE = "female", "male"


@dataclass(frozen=True)
class SaidOf:
    """One sentence said of a player, in the three forms its translation may need."""

    woman: str | Promise
    man: str | Promise
    someone: str | Promise

    def of(self, gender: str) -> str:
        """The sentence for a player of ``gender`` (the profile's: "female", "male" or "")."""
        if gender == FEMALE:
            return str(self.woman)
        if gender == MALE:
            return str(self.man)
        return str(self.someone)


NOT_CHECKED_IN = SaidOf(
    pgettext_lazy("said of a woman", "Not checked in"),
    pgettext_lazy("said of a man", "Not checked in"),
    pgettext_lazy("said of someone", "Not checked in"),
)
WITHDRAWN = SaidOf(
    pgettext_lazy("said of a woman", "withdrawn"),
    pgettext_lazy("said of a man", "withdrawn"),
    pgettext_lazy("said of someone", "withdrawn"),
)
LOST_ON_TIME = SaidOf(
    pgettext_lazy("said of a woman", "%(name)s lost on time"),
    pgettext_lazy("said of a man", "%(name)s lost on time"),
    pgettext_lazy("said of someone", "%(name)s lost on time"),
)
ASKS_AS_PAIR = SaidOf(
    pgettext_lazy(
        "said of a woman",
        "%(name)s signed up with you as a pair (%(pair)s). Do you play with them?",
    ),
    pgettext_lazy(
        "said of a man", "%(name)s signed up with you as a pair (%(pair)s). Do you play with them?"
    ),
    pgettext_lazy(
        "said of someone",
        "%(name)s signed up with you as a pair (%(pair)s). Do you play with them?",
    ),
)
SIGNED_UP_ALREADY = SaidOf(
    pgettext_lazy("said of a woman", "%(player)s has signed up already."),
    pgettext_lazy("said of a man", "%(player)s has signed up already."),
    pgettext_lazy("said of someone", "%(player)s has signed up already."),
)
SIGNED_UP_HERE_ALREADY = SaidOf(
    pgettext_lazy("said of a woman", "%(player)s has signed up for this tournament already."),
    pgettext_lazy("said of a man", "%(player)s has signed up for this tournament already."),
    pgettext_lazy("said of someone", "%(player)s has signed up for this tournament already."),
)

#: The sentences the templates say (``{% said "withdrawn" entry.player %}``), by name.
SAID = {
    "not-checked-in": NOT_CHECKED_IN,
    "withdrawn": WITHDRAWN,
    "lost-on-time": LOST_ON_TIME,
    "asks-as-pair": ASKS_AS_PAIR,
}
