"""The subjects of the Russian Federation an athlete represents, by their ISO 3166-2:RU codes.
Pure.

ISO 3166-2:RU lists 83 subjects; the standard has no RU code for the others the Russian
Federation counts, so a profile cannot name them.
"""

from __future__ import annotations

#: Every ISO 3166-2:RU code, as "RU-MOW".
REGION_CODES: frozenset[str] = frozenset((
    "RU-AD", "RU-AL", "RU-ALT", "RU-AMU", "RU-ARK", "RU-AST", "RU-BA", "RU-BEL", "RU-BRY",
    "RU-BU", "RU-CE", "RU-CHE", "RU-CHU", "RU-CU", "RU-DA", "RU-IN", "RU-IRK", "RU-IVA", "RU-KAM",
    "RU-KB", "RU-KC", "RU-KDA", "RU-KEM", "RU-KGD", "RU-KGN", "RU-KHA", "RU-KHM", "RU-KIR",
    "RU-KK", "RU-KL", "RU-KLU", "RU-KO", "RU-KOS", "RU-KR", "RU-KRS", "RU-KYA", "RU-LEN",
    "RU-LIP", "RU-MAG", "RU-ME", "RU-MO", "RU-MOS", "RU-MOW", "RU-MUR", "RU-NEN", "RU-NGR",
    "RU-NIZ", "RU-NVS", "RU-OMS", "RU-ORE", "RU-ORL", "RU-PER", "RU-PNZ", "RU-PRI", "RU-PSK",
    "RU-ROS", "RU-RYA", "RU-SA", "RU-SAK", "RU-SAM", "RU-SAR", "RU-SE", "RU-SMO", "RU-SPE",
    "RU-STA", "RU-SVE", "RU-TA", "RU-TAM", "RU-TOM", "RU-TUL", "RU-TVE", "RU-TY", "RU-TYU",
    "RU-UD", "RU-ULY", "RU-VGG", "RU-VLA", "RU-VLG", "RU-VOR", "RU-YAN", "RU-YAR", "RU-YEV",
    "RU-ZAB",
))  # fmt: skip
#: The longest code ("RU-MOW").
REGION_CODE_LENGTH = 6


def is_region(code: str) -> bool:
    """Whether ``code`` is an ISO 3166-2:RU code ("": no region is not one)."""
    return code in REGION_CODES
