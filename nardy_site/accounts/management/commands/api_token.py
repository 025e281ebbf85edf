"""Make an API token for a user from the shell: an operator's way, with no browser and no
password. The key alone goes to stdout (``KEY=$(manage.py api_token anna)``), once: only its
digest is stored."""

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser

from nardy_site.accounts.models import ApiToken


class Command(BaseCommand):
    help = "Make an API token for a user and print its key (shown this once)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username", help="The user the token is for")
        parser.add_argument(
            "--name", default="manage.py api_token", help="What the token is for, as its list says"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        user_model = get_user_model()
        try:
            user = user_model.objects.get_by_natural_key(options["username"])
        except user_model.DoesNotExist:
            raise CommandError(f"No user {options['username']!r}.") from None
        longest = ApiToken._meta.get_field("name").max_length or 0
        if not 0 < len(options["name"]) <= longest:
            raise CommandError(f"A token's name is 1 to {longest} characters.")
        if not user.is_active:
            raise CommandError(f"User {user.get_username()!r} is not active: no token made.")
        token, key = ApiToken.issue(user=user, name=options["name"])
        self.stderr.write(
            f"Token {token.name!r} for {user.get_username()}: use it as "
            "'Authorization: Token <key>'; the key is not shown again."
        )
        self.stdout.write(key)
