"""Who may play in a tournament of a category: men or women, and an age group (a minimum age,
a maximum, or both).

The sport rules (art. 7 of the Russian rules for nardy, 2024 edition: ``../shared/SPORT-RULES.md``)
hold events separately for men and for women, from the age of 10, the age counted as it is
reached in the calendar year of the competition: a player born in 2016 is 10 all through 2026,
before their birthday too. So a tournament asks for a gender and a birth year, never a birth
date. The maximum of a youth group is counted the same way: a group of 9–11 held in 2026 takes
players born from 2015 to 2017.

Plain Python: the services ask ``refusal`` and say its answer in words (``tournaments.signups.
services.category_check``).

>>> refusal(gender="female", birth_year=2016, category="women", min_age=10, year=2026) is None
True
>>> refusal(gender="female", birth_year=2017, category="women", min_age=10, year=2026)
Refusal(problem=<Problem.TOO_YOUNG: 'too-young'>, age=9)
>>> refusal(gender="", birth_year=None, category="men", min_age=None, year=2026)
Refusal(problem=<Problem.GENDER_UNKNOWN: 'gender-unknown'>, age=None)
>>> refusal(gender="male", birth_year=2014, category="men", min_age=7, max_age=11, year=2026)
Refusal(problem=<Problem.TOO_OLD: 'too-old'>, age=12)
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
#: The sport rules' minimum age (art. 7.2): an official event's unless it is a youth group's.
RULES_MIN_AGE = 10


#: The age from which a player is an adult (a man, a woman): younger, a boy or a girl.
ADULT_AGE = 18


@dataclass(frozen=True)
class AgeGroup:
    """A youth group of the federation's events: the ages it is named by, and the youngest
    admitted (the 9–11 group admits from 7)."""

    named_from: int
    max_age: int
    min_age: int

    @property
    def name(self) -> str:
        """ "9-11": as the form and the API name it."""
        return f"{self.named_from}-{self.max_age}"


#: The youth groups the federation's events run, by name.
YOUTH_GROUPS: dict[str, AgeGroup] = {
    group.name: group
    for group in (AgeGroup(9, 11, min_age=7), AgeGroup(12, 14, 12), AgeGroup(15, 17, 15))
}


def youth_group(min_age: int | None, max_age: int | None) -> AgeGroup | None:
    """The youth group these ages make, if they make one.

    >>> youth_group(7, 11)
    AgeGroup(named_from=9, max_age=11, min_age=7)
    >>> youth_group(10, None) is None
    True
    """
    for group in YOUTH_GROUPS.values():
        if (group.min_age, group.max_age) == (min_age, max_age):
            return group
    return None


def is_youth(max_age: int | None) -> bool:
    """Whether a tournament with this maximum age is a youth event: boys and girls play in it,
    not men and women."""
    return max_age is not None and max_age < ADULT_AGE


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
    #: The player is older than the maximum age in the tournament's year.
    TOO_OLD = "too-old"


@dataclass(frozen=True)
class Refusal:
    problem: Problem
    #: The player's age in the tournament's year (TOO_YOUNG and TOO_OLD only).
    age: int | None = None


def age_in(year: int, birth_year: int) -> int:
    """The age reached in the calendar year ``year``: counted in years, birthdays aside."""
    return year - birth_year


def refusal(
    *,
    gender: str,
    birth_year: int | None,
    category: str,
    min_age: int | None,
    year: int,
    max_age: int | None = None,
) -> Refusal | None:
    """None when the player may play in a tournament of ``category`` (``""``: open), ``min_age``
    and ``max_age`` (None: any) held in ``year``; else why not, the category first."""
    wanted = GENDER_OF_CATEGORY.get(category)
    if wanted is not None:
        if gender not in (MALE, FEMALE):
            return Refusal(Problem.GENDER_UNKNOWN)
        if gender != wanted:
            return Refusal(Problem.WRONG_CATEGORY)
    if min_age is None and max_age is None:
        return None
    if birth_year is None:
        return Refusal(Problem.BIRTH_YEAR_UNKNOWN)
    age = age_in(year, birth_year)
    if min_age is not None and age < min_age:
        return Refusal(Problem.TOO_YOUNG, age)
    if max_age is not None and age > max_age:
        return Refusal(Problem.TOO_OLD, age)
    return None
