r"""Names as a search finds them: in Latin letters, lower case, one space between words, so that
a name written in Cyrillic is found by its Latin spelling and the other way round ("Виктор
Петров" and "viktor petrov"). Pure: anyascii transliterates (ISC licence, no data to load).

>>> search_key("Виктор  Петров"), search_key("Hélène Şahin")
('viktor petrov', 'helene sahin')
>>> search_words("  Петров   vik ")
['petrov', 'vik']
>>> search_words("a\x00b")
['a', 'b']
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from difflib import SequenceMatcher

from anyascii import anyascii

#: A search takes this many words of its query, each cut to this many letters.
MAX_WORDS, MAX_WORD = 5, 40


def search_key(name: str) -> str:
    """The name as ``Player.search_key`` keeps it (a control character, such as a NUL that no
    database text takes, is a space)."""
    latin = "".join(c if c.isprintable() else " " for c in anyascii(name))
    return " ".join(latin.lower().split())


def search_words(query: str) -> list[str]:
    """The words of a search query, as keys: each must appear in a name that is found."""
    return [word[:MAX_WORD] for word in search_key(query).split()[:MAX_WORDS]]


# --- A pasted list of names, matched to the players the site has --------------------------------

#: How alike two names' keys must be (``difflib``'s ratio, 0 to 1) to be offered as "did you
#: mean": 0.85 takes a letter or two wrong in a usual name ("Guliev" for "Guliyev": 0.96, "Elena
#: Kin" for "Elena Kim": 0.89), not another person of the same first name or surname ("Rustam
#: Aliyev" for "Rustam Guliev": 0.846, "Anna Kim" for "Elena Kim": 0.71).
NEAR_ENOUGH = 0.85
#: At most this many near names are offered for a line, the nearest first.
MOST_NEAR = 3


def same_key(name: str) -> str:
    """A name as the organizer means it: case and spacing do not count ("anna  PETROVA" is
    Anna Petrova), the letters do (a Cyrillic spelling is a near name, not the same one)."""
    return " ".join(name.casefold().split())


def closeness(name: str, other: str) -> float:
    """How alike two names are, 0 to 1, in Latin letters and whichever order their words come
    in ("Петров Виктор" is as close to "Viktor Petrov" as to itself).

    >>> closeness("Виктор Петров", "viktor  petrov"), closeness("Petrov Viktor", "Viktor Petrov")
    (1.0, 1.0)
    >>> round(closeness("Rustam Guliev", "Rustam Guliyev"), 2), closeness("Anna", "Boris") < 0.5
    (0.96, True)
    """
    key, other_key = search_key(name), search_key(other)
    if not key or not other_key:
        return 0.0
    in_order = SequenceMatcher(None, key, other_key).ratio()
    sorted_words = SequenceMatcher(
        None, " ".join(sorted(key.split())), " ".join(sorted(other_key.split()))
    ).ratio()
    return max(in_order, sorted_words)


@dataclass(frozen=True)
class PastedName:
    """One line of a pasted list that names someone: its number in the list (from 1), the name
    with its spacing joined up, the player of the same name (``same_key``) if there is one, the
    near names (player ids, the nearest first), and the earlier line of the same name."""

    line: int
    name: str
    same: int | None = None
    near: tuple[int, ...] = ()
    repeats: int | None = None


def pasted_names(text: str, players: Iterable[tuple[int, str]]) -> list[PastedName]:
    """The lines of ``text`` that name someone (blank lines are skipped), each matched to
    ``players`` (id, name): the same name, else the near ones; a name given on an earlier line
    too is marked as a repeat of it and matched no further.

    >>> [(p.line, p.name, p.same, p.near, p.repeats) for p in pasted_names(
    ...     " anna  petrova\\n\\nRustam Guliev\\nANNA PETROVA\\nNew Person",
    ...     [(1, "Anna Petrova"), (2, "Rustam Guliyev")])]  # doctest: +NORMALIZE_WHITESPACE
    [(1, 'anna petrova', 1, (), None), (3, 'Rustam Guliev', None, (2,), None),
     (4, 'ANNA PETROVA', None, (), 1), (5, 'New Person', None, (), None)]
    """
    known = list(players)
    by_key = {same_key(name): pk for pk, name in known}
    first_line: dict[str, int] = {}
    found = []
    for number, line in enumerate(text.splitlines(), start=1):
        name = " ".join(line.split())
        if not name:
            continue
        key = same_key(name)
        earlier = first_line.setdefault(key, number)
        if earlier != number:
            found.append(PastedName(number, name, repeats=earlier))
            continue
        same = by_key.get(key)
        if same is not None:
            found.append(PastedName(number, name, same=same))
            continue
        scored = sorted(
            ((score, other_name, pk) for pk, other_name in known
             if (score := closeness(name, other_name)) >= NEAR_ENOUGH),
            key=lambda row: (-row[0], row[1]),
        )  # fmt: skip
        found.append(PastedName(number, name, near=tuple(pk for _, _, pk in scored[:MOST_NEAR])))
    return found
