"""The five disciplines of the sport rules (art. 7, table N 1): each is a competition of its own,
with its own rating list. Pure: a tournament's discipline follows from its game, whether it is
played in pairs, and whether its clock is a blitz clock (``tournaments.scoring.clock.is_blitz``).

>>> discipline_of(variant="long", pairs=False, blitz=True)
'long-blitz'
>>> discipline_of(variant="short", pairs=True, blitz=False)
'short-pairs'
"""

from __future__ import annotations

LONG, LONG_BLITZ, SHORT, SHORT_BLITZ, SHORT_PAIRS = (
    "long",
    "long-blitz",
    "short",
    "short-blitz",
    "short-pairs",
)
#: In the order of the rules' table.
DISCIPLINES: tuple[str, ...] = (LONG, LONG_BLITZ, SHORT, SHORT_BLITZ, SHORT_PAIRS)

#: The disciplines' codes in the all-Russian register of sports (ВРВС), as the Championship's
#: Положение of 2024 gives them (``../shared/SPORT-RULES.md``): only these two could be found.
CODES: dict[str, str] = {LONG: "0690012811Л", LONG_BLITZ: "0690022811Л"}
#: The sport's own code.
SPORT_CODE = "0690002411Л"


def discipline_of(*, variant: str, pairs: bool, blitz: bool) -> str:
    """The discipline of a tournament of ``variant`` ("long" or "short"): pairs play Short
    Nardy on a clock of any length (the rules have no pairs blitz)."""
    if variant == "long":
        return LONG_BLITZ if blitz else LONG
    if pairs:
        return SHORT_PAIRS
    return SHORT_BLITZ if blitz else SHORT
