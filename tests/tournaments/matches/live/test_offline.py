"""Recording with no network, on the server's side: the kit a phone keeps (``GET …/live/kit``),
the Python the page runs on it (``board.after_entries``, from one zip the page's Pyodide loads),
which must give the state the server gives once the same entries are synced; the service worker
and the manifest that bring the recorder back offline; and the entries a phone hands to the
judge (``POST …/live/aside``)."""

from __future__ import annotations

import io
import json
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

from nardy_site import vendor
from tests.support.schema import undeclared_fields
from tests.tournaments.matches.live.table import EPOCH, ServerClock, Table, client_of
from tests.tournaments.matches.live.test_live_sync import at, opening, sync
from tests.web.conftest import Site, make_site
from tournaments.matches.live import offline
from tournaments.matches.live.board import after_entries
from tournaments.matches.live.models import Draft, SetAside
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def kit_of(table: Table, client: Client | None = None) -> dict:
    response = (client or table.client).get(f"{table.url}/kit")
    assert response.status_code == 200, response.content
    return response.json()


def test_the_phone_computes_the_state_the_server_gives_after_the_sync(timed, server_clock):
    actions = opening(timed, server_clock)
    table = Table(timed, server_clock)
    table.at(0).enter(actions[0])
    kit = kit_of(table)
    assert (kit["ply"], kit["draft"]) == (1, Draft.objects.get(match=table.match).pk)
    held = [{"action": a, "at": at(t)} for a, t in zip(actions[1:], (5, 20, 30, 40), strict=True)]
    on_the_phone = after_entries(kit, table.state["names"], held, EPOCH + 50)
    answer = sync(table.at(50), 1, [(e["action"], e["at"]) for e in held]).json()
    # Everything the phone works out is what the server answers: the position, the legal plays
    # and their steps, the score, the board drawn, and the clocks read at the same moment.
    assert on_the_phone == {key: answer[key] for key in on_the_phone}
    assert on_the_phone["ply"] == 5 and on_the_phone["clocks"]["running"] == "home"


def test_the_phone_refuses_what_the_server_would_refuse(timed, server_clock):
    table = Table(timed, server_clock)
    table.at(0).enter({"first": 1})
    held = [
        {"action": {"dice": "64"}, "at": at(1)},
        {"action": {"dice": "64", "play": "1/7"}, "at": at(2)},
    ]
    refused = after_entries(kit_of(table), table.state["names"], held, EPOCH + 3)
    assert refused["refused"]["index"] == 1 and refused["refused"]["reason"]
    sync(table.at(3), 1, [(e["action"], e["at"]) for e in held], status=422)
    assert Draft.objects.get(match=table.match).ply == 1


def test_the_kit_of_a_match_not_recorded_yet_and_who_may_read_it(db):
    site = make_site(variant="short", match_length=5)
    match = site.match("Anna", "Boris")
    url = f"/api/v1/matches/{match.pk}/live/kit"
    kit = Client().get(url).json()
    assert kit["draft"] is None and kit["current"] is None and kit["ply"] == 0
    assert kit["rules"]["variant"] == "short" and kit["rules"]["length"] == 5
    assert kit["clock"] is None and kit["done"] == []
    state = after_entries(kit, ["Anna", "Boris"], [], 0.0)
    assert state["may"]["first"] and state["ply"] == 0
    Tournament.objects.filter(pk=site.tournament.pk).update(status=Tournament.Status.DRAFT)
    assert Client().get(url).status_code == 404  # a draft tournament's match is not seen


def test_the_boards_python_runs_alone_from_its_zip(tmp_path: Path, timed, server_clock):
    """The zip the page's Pyodide loads holds every module the board needs and nothing that
    needs Django or any installed package: it runs in a bare interpreter (no site-packages)
    and answers as the server does."""
    bundle = offline.bundle()
    assert offline.ENTRY_MODULE in bundle.modules
    assert not [m for m in bundle.modules if m.split(".")[0] not in ("games", "tournaments")]
    zipfile.ZipFile(io.BytesIO(bundle.data)).extractall(tmp_path)
    table = Table(timed, server_clock)
    table.at(0).enter({"first": 2})
    kit = kit_of(table)
    held = [{"action": {"dice": "53"}, "at": at(4)}]
    script = (
        "import json, sys\n"
        f"sys.path.insert(0, {str(tmp_path)!r})\n"
        "from tournaments.matches.live.board import after_entries\n"
        "asked = json.loads(sys.stdin.read())\n"
        "kit, names, entries, now = asked['kit'], asked['names'], asked['entries'], asked['now']\n"
        "print(json.dumps(after_entries(kit, names, entries, now)))\n"
        "assert not [m for m in sys.modules if m.split('.')[0] in ('django', 'rest_framework')]\n"
    )
    asked = {"kit": kit, "names": table.state["names"], "entries": held, "now": EPOCH + 9}
    done = subprocess.run(
        [sys.executable, "-I", "-S", "-c", script],
        input=json.dumps(asked),
        capture_output=True,
        text=True,
        check=True,
    )
    alone = json.loads(done.stdout)
    assert alone == json.loads(json.dumps(after_entries(kit, asked["names"], held, EPOCH + 9)))
    assert alone["dice"] == "53" and alone["on_roll"] == "white"


def test_the_code_the_service_worker_and_the_manifest(db, client):
    bundle = offline.bundle()
    response = client.get(f"/offline/board-{bundle.digest}.zip")
    assert response.status_code == 200 and response["Content-Type"] == "application/zip"
    assert b"".join(response) == bundle.data
    assert "immutable" in response["Cache-Control"]
    old = client.get("/offline/board-0000000000000000.zip")
    assert old.status_code == 302 and old["Location"] == f"/offline/board-{bundle.digest}.zip"

    worker = client.get("/recorder-sw.js")
    assert worker.status_code == 200 and worker["Content-Type"].startswith("text/javascript")
    assert worker["Cache-Control"] == "no-cache"
    text = worker.content.decode()
    assert "workbox-sw.js" in text and "cdn" not in text.lower()
    precache = json.loads(text.split("precacheAndRoute(", 1)[1].split(");", 1)[0])
    urls = [entry["url"] for entry in precache]
    assert f"/offline/board-{bundle.digest}.zip" in urls
    assert "/static/vendor/pyodide/pyodide.asm.wasm" in urls
    for url in urls:
        if url.startswith("/static/"):
            assert finders.find(url.removeprefix("/static/")), url  # every file is there
    for name in ("workbox-sw.js", "workbox-precaching.prod.js", "workbox-routing.prod.js"):
        assert finders.find(f"vendor/workbox/{name}")

    manifest = client.get("/manifest.webmanifest")
    assert manifest["Content-Type"] == "application/manifest+json"
    icons = manifest.json()["icons"]
    assert {icon["sizes"] for icon in icons} >= {"192x192", "512x512"}
    assert all(finders.find(icon["src"].removeprefix("/static/")) for icon in icons)


def test_the_vendored_files_are_checked_against_their_integrity():
    package = vendor.PACKAGES[1]
    with pytest.raises(SystemExit, match="integrity"):
        vendor.verified(package, b"not the package")
    assert all(vendor.present(package) for package in vendor.PACKAGES)


def aside(client: Client, site_match, entries: list[dict], status: int) -> dict:
    body = {"ply": 1, "entries": entries, "reason": "Another phone recorded first."}
    url = f"/api/v1/matches/{site_match.pk}/live/aside"
    response = client.post(url, body, "application/json")
    assert response.status_code == status, response.content
    return response.json()


def test_a_phone_hands_its_entries_to_the_judge(timed: Site, server_clock: ServerClock):
    table = Table(timed, server_clock)
    table.at(0).enter({"first": 1})
    held = [{"action": {"dice": "53"}, "at": at(3)}, {"action": {"dice": "53", "play": "24/16"},
                                                     "at": at(9)}]  # fmt: skip
    answer = aside(table.client, table.match, held, 201)
    assert answer["entries"] == 2 and answer["ply"] == 1
    kept = SetAside.objects.get(match=table.match)
    assert [e["action"] for e in kept.entries] == [e["action"] for e in held]
    assert kept.handed_by == table.home and kept.reason == "Another phone recorded first."
    assert Draft.objects.get(match=table.match).ply == 1  # never merged into the record

    outsider = client_of(timed.outsider)
    aside(outsider, table.match, held, 403)
    aside(table.client, table.match, [], 400)
    # What is no entry is refused, named by its place; a NUL (which PostgreSQL keeps in no text
    # and no JSON) with it.
    for action in ({"dice": "64", "play": "24/18\u0000"}, {"nothing": "\u0000"}):
        refused = aside(table.client, table.match, [held[0], {"action": action, "at": at(5)}], 400)
        assert refused["error"]["message"].startswith("Entry 2: ")
    assert SetAside.objects.count() == 1
    # A play the rules cannot read is kept as its text, for the judge to read.
    typed = [{"action": {"dice": "64", "play": "24/18 and 4 off"}, "at": at(6)}]
    aside(table.client, table.match, typed, 201)
    assert SetAside.objects.last().entries[0]["action"] == {"play": "24/18 and 4 off"}

    # The judge (an organizer here) sees them with the match; a player does not.
    page = client_of(timed.organizer).get(f"/m/{table.match.pk}/").content.decode()
    assert 'data-role="set-aside"' in page and "rolled 53" in page and "53: 24/16" in page
    player = table.client.get(f"/m/{table.match.pk}/").content.decode()
    assert 'data-role="set-aside"' not in player


def test_every_source_map_a_vendored_script_names_is_there():
    """The static files' manifest storage (production's ``collectstatic``) refuses a script whose
    ``sourceMappingURL`` names a file that is not there."""
    scripts = [p for p in vendor.VENDOR_ROOT.rglob("*") if p.suffix in (".js", ".mjs")]
    assert scripts
    for script in scripts:
        for line in script.read_text(errors="replace").splitlines()[-3:]:
            if "sourceMappingURL=" in line:
                named = line.split("sourceMappingURL=", 1)[1].strip()
                assert (script.parent / named).is_file(), (script, named)


def test_the_kit_is_what_the_served_schema_declares(timed, server_clock):
    schema = Client().get("/api/schema/", {"format": "json"}).json()
    declared = schema["paths"]["/api/v1/matches/{id}/live/kit"]["get"]["responses"]["200"]
    declared = declared["content"]["application/json"]["schema"]
    components = schema["components"]["schemas"]
    table = Table(timed, server_clock)
    kits = [kit_of(table)]
    table.at(0).enter({"first": 1})
    table.at(1).play_any()
    table.at(2).enter({"resign": "black", "value": 2})  # game 1 is done: a checkpoint of it
    table.at(3).enter({"first": 2})
    table.at(4).enter({"dice": "21"})
    kits.append(kit_of(table))
    assert kits[1]["done"] and kits[1]["current"]["dice"] == "21" and kits[1]["clock"]
    for kit in kits:
        assert undeclared_fields(kit, declared, components) == []
        assert set(components["LiveKit"]["properties"]) == set(kit)
