"""Personas for the API's permission tests: a running tournament of Olga's where Anna (home)
plays Boris, Carl plays in it too, Otto organizes another tournament, Sam is staff."""

from dataclasses import dataclass

import pytest
from django.contrib.auth.models import User

from tournaments.models import Entry, Match, Player, Round, Tournament

PERSONAS = ("anonymous", "player", "opponent", "another_player", "other_organizer", "organizer",
            "staff")  # fmt: skip


@dataclass
class World:
    users: dict[str, User | None]
    tournament: Tournament
    match: Match
    entries: dict[str, Entry]


@pytest.fixture
def world(db) -> World:
    users: dict[str, User | None] = {"anonymous": None}
    for persona, name in [
        ("player", "anna"), ("opponent", "boris"), ("another_player", "carl"),
        ("other_organizer", "otto"), ("organizer", "olga"),
    ]:  # fmt: skip
        users[persona] = User.objects.create_user(name, password="x")
    users["staff"] = User.objects.create_user("sam", password="x", is_staff=True)
    Tournament.objects.create(
        name="Other", slug="other", variant="short", organizer=users["other_organizer"]
    )
    tournament = Tournament.objects.create(
        name="Cup",
        slug="cup",
        variant="short",
        match_length=3,
        status=Tournament.Status.RUNNING,
        organizer=users["organizer"],
    )
    entries = {
        persona: Entry.objects.create(
            tournament=tournament,
            player=Player.objects.create(display_name=users[persona].username, user=users[persona]),
            seed=seed,
        )
        for seed, persona in enumerate(("player", "opponent", "another_player"), start=1)
    }
    round_ = Round.objects.create(tournament=tournament, number=1)
    match = Match.objects.create(
        tournament=tournament, round=round_, home=entries["player"], away=entries["opponent"]
    )
    return World(users, tournament, match, entries)


@pytest.fixture
def as_persona(client, world):
    def login(persona: str):
        user = world.users[persona]
        client.logout()
        if user is not None:
            client.force_login(user)
        return client

    return login
