from django.core.management.base import BaseCommand

from tournaments.demo import demo_data_seed


class Command(BaseCommand):
    help = "Create the demo club: players and tournaments in every state (safe to run again)."

    def handle(self, *args, **options) -> None:
        result = demo_data_seed()
        made = ", ".join(result.tournaments_created) or "none (all were there already)"
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo data ready: {result.players_created} players created; "
                f"tournaments created: {made}."
            )
        )
