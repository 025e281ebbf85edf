from dataclasses import dataclass

from django.db import transaction

from tournaments.models import Entry, Player, Tournament

DEMO_CLUB = "Demo Nardy Club"
DEMO_PLAYERS = [
    ("Anna Berzina", "LV"),
    ("Arman Petrosyan", "AM"),
    ("Elvin Mammadov", "AZ"),
    ("Giorgi Beridze", "GE"),
    ("Irina Sokolova", "RU"),
    ("Janis Ozols", "LV"),
    ("Leyla Aliyeva", "AZ"),
    ("Mikhail Orlov", "RU"),
]
DEMO_TOURNAMENT_SLUG = "demo-club-long-nardy"
DEMO_TOURNAMENT_NAME = "Demo Club Long Nardy Championship"


@dataclass(frozen=True)
class DemoSeedResult:
    tournament: Tournament
    players_created: int
    entries_created: int
    tournament_created: bool


@transaction.atomic
def demo_data_seed() -> DemoSeedResult:
    """Create the demo club's players and one Long Nardy tournament with all of them entered.

    Idempotent: rows that already exist are kept as they are, so running it again creates nothing.
    """
    tournament, tournament_created = Tournament.objects.get_or_create(
        slug=DEMO_TOURNAMENT_SLUG,
        defaults={
            "name": DEMO_TOURNAMENT_NAME,
            "variant": Tournament.Variant.LONG,
            "status": Tournament.Status.REGISTRATION,
        },
    )
    players_created = entries_created = 0
    for seed, (display_name, country) in enumerate(DEMO_PLAYERS, start=1):
        player, created = Player.objects.get_or_create(
            display_name=display_name, defaults={"club": DEMO_CLUB, "country": country}
        )
        players_created += created
        _entry, created = Entry.objects.get_or_create(
            tournament=tournament, player=player, defaults={"seed": seed}
        )
        entries_created += created
    return DemoSeedResult(
        tournament=tournament,
        players_created=players_created,
        entries_created=entries_created,
        tournament_created=tournament_created,
    )
