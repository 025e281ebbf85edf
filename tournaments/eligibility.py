"""Who may play in a tournament of a category: men or women, and a minimum age.

The sport rules (art. 7 of the Russian rules for nardy, 2024 edition: ``../shared/SPORT-RULES.md``)
hold events separately for men and for women, from the age of 10, the age counted as it is
reached in the calendar year of the competition: a player born in 2016 is 10 all through 2026,
before their birthday too. So a tournament asks for a gender and a birth year, never a birth
date.

Plain Python: the services ask ``refusal`` and say its answer in words (``tournaments.signups.
services.category_check``).

>>> refusal(gender="female", birth_year=2016, category="women", min_age=10, year=2026) is None
True
>>> refusal(gender="female", birth_year=2017, category="women", min_age=10, year=2026)
Refusal(problem=<Problem.TOO_YOUNG: 'too-young'>, age=9)
>>> refusal(gender="", birth_year=None, category="men", min_age=None, year=2026)
Refusal(problem=<Problem.GENDER_UNKNOWN: 'gender-unknown'>, age=None)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

#: A player's gender, as their profile says it ("": not given).
MALE, FEMALE = "male", "female"
#: A tournament's category ("": open to everyone).
MEN, WOMEN = "men", "women"
#: The gender each category is for.
GENDER_OF_CATEGORY = {MEN: MALE, WOMEN: FEMALE}

#: A minimum age a tournament may ask for (the sport rules' own is 10).
MIN_AGE_LOWEST, MIN_AGE_HIGHEST = 1, 99
#: The earliest birth year a profile takes (the latest is this year).
BIRTH_YEAR_EARLIEST = 1900


class Problem(Enum):
    """Why a player may not play in a tournament of a category."""

    #: The tournament is for men or for women, and the player's profile does not say which.
    GENDER_UNKNOWN = "gender-unknown"
    #: The tournament is for the other gender.
    WRONG_CATEGORY = "wrong-category"
    #: The tournament has a minimum age, and the player's profile has no birth year.
    BIRTH_YEAR_UNKNOWN = "birth-year-unknown"
    #: The player is younger than the minimum age in the tournament's year.
    TOO_YOUNG = "too-young"


@dataclass(frozen=True)
class Refusal:
    problem: Problem
    #: The player's age in the tournament's year (TOO_YOUNG only).
    age: int | None = None


def age_in(year: int, birth_year: int) -> int:
    """The age reached in the calendar year ``year``: counted in years, birthdays aside."""
    return year - birth_year


def refusal(
    *, gender: str, birth_year: int | None, category: str, min_age: int | None, year: int
) -> Refusal | None:
    """None when the player may play in a tournament of ``category`` (``""``: open) and
    ``min_age`` (None: any) held in ``year``; else why not, the category first."""
    wanted = GENDER_OF_CATEGORY.get(category)
    if wanted is not None:
        if gender not in (MALE, FEMALE):
            return Refusal(Problem.GENDER_UNKNOWN)
        if gender != wanted:
            return Refusal(Problem.WRONG_CATEGORY)
    if min_age is not None:
        if birth_year is None:
            return Refusal(Problem.BIRTH_YEAR_UNKNOWN)
        age = age_in(year, birth_year)
        if age < min_age:
            return Refusal(Problem.TOO_YOUNG, age)
    return None
