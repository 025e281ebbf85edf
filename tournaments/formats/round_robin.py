"""Round robin schedules: the FIDE Berger tables (FIDE Handbook C.05, Annex 1).

Entrants are numbered 1..n. Every round is a list of pairings, board 1 first, each written as
(white, black), or (home, away). With an odd number of entrants FIDE adds a dummy entrant n + 1:
whoever meets it has the bye, written here as ``(k, None)`` on the board where the dummy sits.

The construction that reproduces FIDE's tables: with an even n, round 1 pairs 1-n, 2-(n-1), ...,
(n/2)-(n/2+1) on boards 1..n/2. Each next round adds n/2 to every number except n, counting
round 1..n-1, and keeps every board's sides; n stays on board 1 and takes Black in odd rounds and
White in even rounds, so n alternates colours and everyone else gets them as evenly as the cycle
allows.

>>> berger(4)
[[(1, 4), (2, 3)], [(4, 3), (1, 2)], [(2, 4), (3, 1)]]
>>> berger(3)
[[(1, None), (2, 3)], [(3, None), (1, 2)], [(2, None), (3, 1)]]
"""

Pairing = tuple[int, int | None]


def berger(n: int, double: bool = False) -> list[list[Pairing]]:
    """The rounds of a round robin for entrants 1..n, FIDE's Berger table for n.

    ``double`` plays the cycle twice: the second cycle repeats the first round by round with the
    sides swapped (a bye stays ``(k, None)``).
    """
    if isinstance(n, bool) or not isinstance(n, int):
        raise ValueError(f"A round robin needs a whole number of entrants, not {n!r}.")
    if n < 2:
        raise ValueError(f"A round robin needs at least 2 entrants, not {n}.")
    table_size = n if n % 2 == 0 else n + 1
    rounds = [
        [_without_dummy(pairing, n) for pairing in round_] for round_ in _even_table(table_size)
    ]
    if double:
        rounds += [[_swapped(pairing) for pairing in round_] for round_ in rounds]
    return rounds


def _even_table(size: int) -> list[list[tuple[int, int]]]:
    """The Berger table for an even ``size``: round 1, then the rotation by size/2."""
    half = size // 2
    cycle = size - 1  # everyone but ``size`` turns round; numbers 1..cycle
    boards = [(board, size + 1 - board) for board in range(1, half + 1)]
    rounds: list[list[tuple[int, int]]] = []
    for number in range(1, size):
        # The fixed entrant takes White in even rounds: swap board 1 there (rounds stay unswapped
        # in ``boards`` so the rotation always moves the same side).
        first_white, first_black = boards[0]
        board_one = (first_black, first_white) if number % 2 == 0 else (first_white, first_black)
        rounds.append([board_one, *boards[1:]])
        boards = [
            (_rotated(white, half, cycle), _rotated(black, half, cycle)) for white, black in boards
        ]
    return rounds


def _rotated(entrant: int, step: int, cycle: int) -> int:
    """``entrant`` moved on by ``step`` places in 1..cycle; the fixed entrant (cycle + 1) stays."""
    if entrant == cycle + 1:
        return entrant
    return (entrant - 1 + step) % cycle + 1


def _without_dummy(pairing: tuple[int, int], n: int) -> Pairing:
    """FIDE's dummy entrant n + 1 becomes a bye for whoever it meets."""
    white, black = pairing
    if black > n:
        return (white, None)
    if white > n:
        return (black, None)
    return (white, black)


def _swapped(pairing: Pairing) -> Pairing:
    white, black = pairing
    return pairing if black is None else (black, white)
