from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournaments.errors import TournamentError
from tournaments.norms.services import COLUMNS, OPTIONAL, norms_from_csv, rank_norms_replace


class Command(BaseCommand):
    help = (
        "Replace the table of rank norms with a CSV file whose header names the columns "
        f"{', '.join(COLUMNS)} (optional: {', '.join(OPTIONAL)}; status is the event status's "
        "code, made when status_name is given). Nothing changes if a row is not valid."
    )

    def add_arguments(self, parser):
        parser.add_argument("file", help="the CSV file (UTF-8)")

    def handle(self, *args, **options) -> None:
        try:
            text = Path(options["file"]).read_text(encoding="utf-8")
        except OSError as error:
            raise CommandError(str(error)) from error
        try:
            count = rank_norms_replace(rows=norms_from_csv(text))
        except TournamentError as error:
            raise CommandError(str(error)) from error
        self.stdout.write(self.style.SUCCESS(f"Loaded {count} rank norms."))
