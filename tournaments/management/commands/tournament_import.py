import json
import sys
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.backup import tournament_import
from tournaments.errors import TournamentError


class Command(BaseCommand):
    help = (
        "Recreate a tournament from a tournament_export document, in one transaction: every "
        "game is replayed and checked, and nothing is saved when anything is wrong. The rating "
        "list is then replayed from the tournament's first decided match (by a worker, or at "
        "once in eager mode)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="the JSON document ('-': standard input)")
        parser.add_argument("--slug", help="import under this slug instead of the document's")
        parser.add_argument("--organizer", metavar="USERNAME", help="make this user the organizer")
        parser.add_argument(
            "--replace",
            action="store_true",
            help="delete the tournament that has the slug first (in the same transaction: a "
            "refused document leaves it as it was)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            if options["file"] == "-":
                document = json.load(sys.stdin)
            else:
                document = json.loads(Path(options["file"]).read_text(encoding="utf-8"))
        except OSError as error:
            raise CommandError(f"Cannot read {options['file']}: {error}") from None
        except json.JSONDecodeError as error:
            raise CommandError(f"{options['file']} is not JSON: {error}") from None
        organizer = None
        if options["organizer"]:
            account_model = get_user_model()
            organizer = account_model._default_manager.filter(
                **{account_model.USERNAME_FIELD: options["organizer"]}
            ).first()
            if organizer is None:
                raise CommandError(f"No user is called {options['organizer']!r}.")
        try:
            result = tournament_import(
                document, as_slug=options["slug"], organizer=organizer, replace=options["replace"]
            )
        except TournamentError as error:
            raise CommandError(f"Nothing was imported: {error.message}") from None
        tournament = result.tournament
        self.stdout.write(
            self.style.SUCCESS(
                f"Imported {tournament.slug}: {tournament.entries.count()} entries, "
                f"{tournament.matches.count()} matches."
            )
        )
        if result.players_created:
            self.stdout.write(f"New players: {', '.join(result.players_created)}.")
        if result.players_differing:
            self.stdout.write(
                self.style.WARNING(
                    "Kept as this site has them (the document's club, country or account "
                    f"differ): {', '.join(result.players_differing)}."
                )
            )
        if result.missing_users:
            self.stdout.write(
                self.style.WARNING(
                    "No such users here, left empty: " + ", ".join(result.missing_users) + "."
                )
            )
        if result.ratings_replay_from is not None:
            self.stdout.write(
                "Ratings are replayed from "
                f"{result.ratings_replay_from.isoformat()} on (a task, enqueued on commit)."
            )
