from django.core.management.base import BaseCommand

from tournaments.models import Player
from tournaments.ratings.ledger import ratings_replay


class Command(BaseCommand):
    help = "Replay every rating list from the first match and report any drift it fixed."

    def handle(self, *args, **options) -> None:
        report = ratings_replay(None)
        self.stdout.write(f"Replayed {report.matches} rated matches.")
        if not report.drifted:
            self.stdout.write(self.style.SUCCESS("No drift: the cached ratings were right."))
            return
        names = dict(Player.objects.filter(pk__in=report.drifted).values_list("pk", "display_name"))
        for player, (before, after) in sorted(report.drifted.items()):
            self.stdout.write(f"  {names.get(player, player)}: {before:.2f} → {after:.2f}")
        self.stdout.write(self.style.WARNING(f"Fixed drift for {len(report.drifted)} players."))
