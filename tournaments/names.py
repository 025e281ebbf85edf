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
