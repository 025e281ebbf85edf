"""The API's documentation renders in a browser with the network off: Swagger UI and Redoc come
from the site's own static files (drf-spectacular-sidecar), never from a CDN (the browser
fixture refuses every request to another host and fails on any JavaScript error)."""

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def test_swagger_ui_renders_the_api_off_the_network(new_page, screenshot):
    page = new_page(width=1280, height=900)
    page.goto("/api/")  # where people look first: it leads to the docs
    page.wait_for_url("**/api/docs/")
    title = page.locator(".swagger-ui .info .title")
    title.wait_for()
    assert "Nardy tournaments API" in title.inner_text()
    page.locator(".opblock-tag-section").first.wait_for()
    assert page.locator(".opblock").count() > 50  # every endpoint, from the schema
    screenshot(page, "api-docs-desktop")


def test_redoc_renders_the_api_off_the_network(new_page):
    page = new_page(width=1280, height=900)
    page.goto("/api/redoc/")
    heading = page.locator("h1").first
    heading.wait_for()
    assert "Nardy tournaments API" in heading.inner_text()
