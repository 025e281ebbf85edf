"""The tournament document's format: its name and version, and the tournament's own fields it
carries."""

from __future__ import annotations

from tournaments.models import Tournament

FORMAT = "nardy-tournament"


VERSION = 1


#: The largest values of the positive integer columns (small: round numbers; seeds are integers).
SMALL_MAX, INTEGER_MAX = 32_767, 2_147_483_647
#: The largest seed of a drawing of lots (a BigIntegerField's).
LOTS_SEED_MAX = 2**63 - 1


#: The tournament's own fields the document carries (its organizers travel by username).
SETTINGS = tuple(
    model_field
    for model_field in Tournament._meta.concrete_fields
    if not model_field.primary_key and not model_field.is_relation
)
