"""The home page of a site with no tournament yet, in a database of its own (the other tests of
the home page share the demo club: ``test_home``)."""

import pytest

pytestmark = pytest.mark.django_db


def test_it_says_what_the_service_is_and_that_there_are_no_tournaments_yet(client):
    response = client.get("/")

    assert response.status_code == 200
    assert b"A tournament service for Long Nardy and Short Nardy clubs" in response.content
    assert b"No tournaments yet." in response.content
