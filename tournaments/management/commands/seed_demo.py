from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from nardy_site.logs import tasks_logged_at_debug
from tournaments.demo import demo_data_seed, demo_logins
from tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Create the demo club: players and tournaments in every state (safe to run again). With "
        "debug on, the demo accounts get a known password, printed; with debug off, none."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--url", default="", help="Where the site is served, for the summary")

    def handle(self, *args: Any, **options: Any) -> None:
        with tasks_logged_at_debug():  # hundreds of in-process rating tasks: not news
            result = demo_data_seed()
        logins = demo_logins(known=settings.DEBUG)
        made = ", ".join(result.tournaments_created) or "none (all were there already)"
        write = self.stdout.write
        write(
            self.style.SUCCESS(
                f"Demo data ready: {result.players_created} players created; "
                f"tournaments created: {made}."
            )
        )
        tournaments = Tournament.objects.filter(parent__isnull=True)
        words = {"finished": "finished", "running": "running",
                 "registration": "open for registration", "draft": "in draft"}  # fmt: skip
        counts = [
            f"{count} {words[status]}"
            for status in words
            if (count := tournaments.filter(status=status).count())
        ]
        write(
            f"In the demo club: {tournaments.count()} tournaments, {', '.join(counts)} (a season "
            "of club evenings, a two-stage event, brackets, a Swiss under way, an open sign-up)."
        )
        if options["url"]:
            write(f"Open {options['url']}")
        if settings.DEBUG:
            write("Log in (debug is on, so these demo accounts have a known password):")
            for login in logins:
                write(f"  {login.username:<20} password {login.password:<12} {login.role}")
        else:
            write(
                "The demo accounts have no password (debug is off): "
                "set one with manage.py changepassword USERNAME."
            )
