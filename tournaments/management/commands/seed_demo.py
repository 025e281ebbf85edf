from django.core.management.base import BaseCommand

from tournaments.services import demo_data_seed


class Command(BaseCommand):
    help = "Create a small demo club with players and one tournament (safe to run again)."

    def handle(self, *args, **options) -> None:
        result = demo_data_seed()
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo data ready: tournament {result.tournament.name!r} "
                f"({'created' if result.tournament_created else 'already there'}), "
                f"{result.players_created} players and {result.entries_created} entries created."
            )
        )
