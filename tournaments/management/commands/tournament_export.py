import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.backup import tournament_export, tournament_mat_text
from tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Write a tournament as a JSON document (settings, players, entries, rounds, matches and "
        "every game's record), which tournament_import reads back. Ratings are not in it: they "
        "follow from the matches."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the tournament's slug")
        parser.add_argument(
            "-o", "--output", metavar="FILE", help="write the JSON here (default: standard output)"
        )
        parser.add_argument(
            "--mat", metavar="FILE", help="also write every recorded match as one .mat text here"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"No tournament has the slug {options['slug']!r}.")
        document = tournament_export(tournament)
        text = json.dumps(document, ensure_ascii=False, indent=2) + "\n"
        if options["output"] and options["output"] != "-":
            Path(options["output"]).write_text(text, encoding="utf-8")
            self.stderr.write(f"Wrote {tournament.slug} to {options['output']}.")
        else:
            self.stdout.write(text, ending="")
        if options["mat"]:
            mat = tournament_mat_text(document)
            Path(options["mat"]).write_text(mat, encoding="utf-8")
            recorded = sum(1 for match in document["matches"] if match["mat"])
            self.stderr.write(f"Wrote {recorded} recorded matches to {options['mat']}.")
