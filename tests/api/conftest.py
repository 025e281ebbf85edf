"""Personas for the API's permission tests: a running tournament of Olga's where Anna (home)
plays Boris, Carl plays in it too, Otto organizes another tournament, Sam is staff, Rita is a
rating officer of its rating list."""

import pytest

PERSONAS = ("anonymous", "player", "opponent", "another_player", "other_organizer", "organizer",
            "staff", "rating_officer")  # fmt: skip


@pytest.fixture
def as_persona(client, world):
    def login(persona: str):
        user = world.users[persona]
        client.logout()
        if user is not None:
            client.force_login(user)
        return client

    return login
