"""What a newcomer meets first: the addresses people try lead somewhere, the site has an icon,
and the API's documentation pages load nothing from another host."""

import re

import pytest
from django.contrib.staticfiles import finders

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("address", "goes_to"),
    [
        ("/api/", "/api/docs/"),
        ("/tournaments/", "/"),
        ("/tournaments/?status=running", "/?status=running"),
    ],
)
def test_the_addresses_people_try_lead_somewhere(client, address, goes_to):
    response = client.get(address)
    assert response.status_code in (301, 302) and response["Location"] == goes_to


def test_the_site_has_an_icon(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 302 and response["Location"].endswith("favicon.svg")
    assert finders.find("nardy/favicon.svg")
    assert 'rel="icon"' in client.get("/").content.decode()


@pytest.mark.parametrize("address", ["/api/docs/", "/api/redoc/"])
def test_the_api_docs_load_only_the_sites_own_files(client, address):
    page = client.get(address).content.decode()
    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert sources and all(source.startswith("/") for source in sources), sources
    assert "cdn" not in page.lower()
