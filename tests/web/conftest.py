"""Personas for the site's pages: Olga organizes a running 4-player Short Nardy round robin (match
to 3) made through the services; Anna, Boris, Carl and Dina play in it, each with an account;
Oscar is an outsider. Anna v Boris in round 1 is ``match``."""

import random
from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User

from games.rules.selfplay import random_match
from games.services import RecordedGame
from tournaments import services
from tournaments.models import Match, Player, Tournament
from tournaments.ratings import services as approvals
from tournaments.ratings.ledger import rating_list_of


@dataclass
class Site:
    organizer: User
    players: dict[str, User]
    outsider: User
    tournament: Tournament

    def match(self, one: str, other: str) -> Match:
        """The match between two players, whichever plays home."""
        names = {one, other}
        return Match.objects.get(
            tournament=self.tournament,
            home__player__display_name__in=names,
            away__player__display_name__in=names,
        )

    def recorded_games(self, seed: int = 7) -> list[RecordedGame]:
        """Legal self-play games that finish a match of this tournament."""
        variant = self.tournament.game_variant()
        played = random_match(variant, self.tournament.match_length or 1, random.Random(seed))
        return [RecordedGame(game.white, game.actions) for game in played]


def make_site(
    variant: str = "short", format: str = "round-robin", names=None, rated=True, **rules
) -> Site:
    """A started tournament of Olga's with players who have accounts; ``rated``: approved by
    the rating officer Rita (an officer of its rating list) before the start."""
    organizer = User.objects.create_user("olga", password="pw-olga-123")
    outsider = User.objects.create_user("oscar", password="pw-oscar-123")
    names = names or ["Anna", "Boris", "Carl", "Dina"]
    rules.setdefault("match_length", 3)
    tournament = services.tournament_create(
        organizer=organizer, name="Club Cup", variant=variant, format=format, **rules
    )
    players = {}
    for seed, name in enumerate(names, start=1):
        user = User.objects.create_user(name.lower(), password=f"pw-{name.lower()}-123")
        player = Player.objects.create(
            display_name=name, user=user, club="Riga", country="LV", birth_year=1990
        )
        services.entry_register(tournament=tournament, player=player, by=organizer, seed=seed)
        players[name] = user
    if rated:
        officer = User.objects.create_user("rita", password="pw-rita-123")
        rating_list_of(tournament).officers.add(officer)
        approvals.ratings_approve(tournament=tournament, by=officer)
    services.tournament_start(tournament=tournament, by=organizer)
    tournament.refresh_from_db()
    return Site(organizer, players, outsider, tournament)


@pytest.fixture
def site(db) -> Site:
    return make_site()


@pytest.fixture
def new_site(db):
    return make_site
