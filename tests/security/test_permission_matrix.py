"""The permission matrix, generated: every write of the site and of the API, tried by every
persona (``permission_world``), each decided by one rule of ``tournaments.policy``.

The writes are not listed by hand. The API's are every POST, PUT, PATCH and DELETE of its
OpenAPI schema and of its URL patterns; the site's are every address that does not refuse a
post (a page that only reads is ``read`` in the URL conf: 405), and for a page whose forms post
several things, every value it declares (``web.common.posts``). A write without a row below
fails ``test_every_write_has_a_row``. Each row is then tried as each persona:

- who may, is answered with a success (2xx, or the page's redirect) and the database changed;
- who may not, is refused (a visitor is sent to sign in, or 401; anyone else 403, or 404 where
  the record is not theirs to see), and the database is exactly as before: every row of every
  table.

Each API write is tried with a session and with a token. docs/permission-matrix.md is the
table of the rows, with the rule that decides each; a test
keeps it equal to them. Django's own sign-in pages (accounts/, i18n/) act on the user's own
session and account, and the admin is staff's: they are left out, by name.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db.models import F
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator

from games.rules import LongNardy, action_from_json
from games.rules.game import MatchGame
from games.rules.matfile import match_record, write_match
from nardy_site.accounts.models import ApiToken
from tests.security.conftest import TOURNAMENT_FORM
from tests.security.permission_world import PERSONAS, World, build
from tests.support.database import changed_tables, database_state
from tests.support.shared_rows import rows_for_the_module
from tournaments.matches.live import services as live
from tournaments.matches.results import match_result_record
from tournaments.models import Entry, Match, Round, Tournament
from tournaments.officials.models import Judge
from tournaments.policy import RULES
from tournaments.ratings import services as approvals
from tournaments.stages import services as stages

ROOT = Path(__file__).resolve().parents[2]
TABLE = ROOT / "docs" / "permission-matrix.md"

ALL = frozenset(PERSONAS)
SIGNED_IN = ALL - {"anonymous"}
ORGANIZERS = frozenset({"organizer", "staff"})
PLAYERS = ORGANIZERS | {"player"}
OFFICERS = frozenset({"rating_officer", "staff"})
STAFF = frozenset({"staff"})

#: Site addresses that are not the policy's: Django's own sign-in pages (the user's own session
#: and account), the language switch, the admin (staff only, its deletions through the
#: services: tests/tournaments/test_admin_delete.py) and the API (its writes come from its
#: schema).
NOT_THE_POLICYS = ("accounts/", "i18n/", "admin/", "api/v1/")


@dataclass(frozen=True)
class Row:
    """One write: ``key`` ("METHOD /address" of the URL pattern, and the posted value for a page
    whose forms post several), the policy ``rule`` that decides it, who may (``allowed``) and
    how it is sent. ``before`` puts the world in the state the write needs; ``states``: the
    status a persona gets instead of a refusal or a success when the world is not fit for them
    (a player who has a player already cannot claim another: 409); ``changes``: whether a
    success changes the database (a validation changes nothing)."""

    key: str
    rule: str
    allowed: frozenset[str]
    path: Callable[[World], str]
    body: Callable[[World], Any] = lambda world: {}  # noqa: E731
    before: Callable[[World], None] | None = None
    states: dict[str, int] = field(default_factory=dict)
    changes: bool = True

    @property
    def api(self) -> bool:
        return " /api/" in self.key

    @property
    def method(self) -> str:
        return self.key.split()[0].lower()


# --- States the writes need -----------------------------------------------------------------------


def reported(world: World) -> None:
    """Boris reported cup's match against Anna: Anna's word is awaited."""
    match_result_record(match=world.match("cup"), by=world.account("boris"), score=(3, 1))


def decided(world: World) -> None:
    match_result_record(match=world.match("cup"), by=world.user("organizer"), score=(3, 1))


def swiss_round_decided(world: World) -> None:
    """Cup as a Swiss of three rounds whose first is decided."""
    Tournament.objects.filter(slug="cup").update(format="swiss", swiss_rounds=3)
    Match.objects.filter(tournament__slug="cup", round__number__gt=1).delete()
    Round.objects.filter(tournament__slug="cup", number__gt=1).delete()
    Match.objects.filter(tournament__slug="cup").update(status=Match.Status.FINAL, winner=F("home"))


def no_open_matches(world: World) -> None:
    Match.objects.filter(tournament__slug="cup").delete()


def finished_level(world: World) -> None:
    """Cup finished before the finish drew lots: its four players level, their places shared."""
    no_open_matches(world)
    Tournament.objects.filter(slug="cup").update(status=Tournament.Status.FINISHED)


def rated(world: World) -> None:
    approvals.ratings_approve(tournament=world.tournament("cup"), by=world.user("staff"))


def recording(world: World) -> None:
    """Anna began recording blitz's match: its first entry is in and its clocks run."""
    live.live_act(match_id=world.match("blitz").pk, by=world.account("anna"), ply=0,
                  action={"first": 1})  # fmt: skip


def checked_in(world: World) -> None:
    Entry.objects.filter(pk=world.entry("spring", "Anna").pk).update(checked_in_at=timezone.now())


def stage_two_built(world: World) -> None:
    stages.stage_two_build(event=world.tournament("event"), by=world.user("organizer"))


def official_spring(world: World) -> None:
    """Spring is an official event (its panel empty)."""
    Tournament.objects.filter(slug="spring").update(official=True)


def spring_judged(world: World) -> None:
    """Spring is official, with Mel on its panel."""
    official_spring(world)
    world.ids["judge"] = Judge.objects.create(
        tournament=world.tournament("spring"), user=world.account("mel"), role="judge"
    ).pk


def mat_text() -> str:
    game = MatchGame(1, (action_from_json({"dice": "61", "play": "24/18 18/17"}),
                         action_from_json({"resign": "black", "value": 1})))  # fmt: skip
    return write_match(match_record(LongNardy(), ("Anna", "Boris"), [game], length=1))


def csv_file() -> SimpleUploadedFile:
    return SimpleUploadedFile("players.csv", b"name\nNewcomer\n", content_type="text/csv")


# --- The rows ------------------------------------------------------------------------------------

A = "/api/v1"
MATCH = "/api/v1/matches/{id}"
T = "/api/v1/tournaments/{slug}"
SCORE_FORM = {"mode": "score", "score_home": "3", "score_away": "1"}
SEASON_FORM = {"name": "2026", "scoring": "place", "place_points": "10, 5", "win_points": "1"}


def api_rows() -> list[Row]:
    def cup_match(w: World) -> int:
        return w.match("cup").pk

    def blitz_match(w: World) -> int:
        return w.match("blitz").pk

    return [
        Row(f"POST {A}/tokens/", "signed in, or by username and password: one's own tokens",
            SIGNED_IN, lambda w: f"{A}/tokens/", lambda w: {"name": "bot"}),
        Row(f"DELETE {A}/tokens/{{id}}/", "the token's own user", frozenset({"player"}),
            lambda w: f"{A}/tokens/{w.ids['token']}/"),
        Row(f"POST {A}/players/new", "player.create, club.events", SIGNED_IN,
            lambda w: f"{A}/players/new", lambda w: {"display_name": "Newbie"}),
        Row(f"POST {A}/players/new (club)", "club.events", ORGANIZERS,
            lambda w: f"{A}/players/new", lambda w: {"display_name": "Newbie", "club": "riga"}),
        Row(f"POST {A}/tournaments/new", "tournament.create", SIGNED_IN,
            lambda w: f"{A}/tournaments/new", lambda w: {"name": "Friday", "variant": "long"}),
        Row(f"POST {T}/open-registration", "tournament.run", ORGANIZERS,
            lambda w: f"{A}/tournaments/draft/open-registration"),
        Row(f"POST {T}/start", "tournament.run", ORGANIZERS,
            lambda w: f"{A}/tournaments/open/start",
            before=lambda w: _enter(w, "open", "Anna", "Boris")),
        Row(f"POST {T}/pair", "tournament.run", ORGANIZERS,
            lambda w: f"{A}/tournaments/cup/pair", before=swiss_round_decided),
        Row(f"POST {T}/finish", "tournament.close", ORGANIZERS,
            lambda w: f"{A}/tournaments/cup/finish", before=no_open_matches),
        Row(f"POST {T}/lots", "tournament.lots", ORGANIZERS,
            lambda w: f"{A}/tournaments/cup/lots", before=finished_level),
        Row(f"POST {T}/stage-2", "tournament.run", ORGANIZERS,
            lambda w: f"{A}/tournaments/event/stage-2"),
        Row(f"DELETE {T}/stage-2", "tournament.run", ORGANIZERS,
            lambda w: f"{A}/tournaments/event/stage-2", before=stage_two_built),
        Row(f"POST {T}/rating-approval", "tournament.rate", OFFICERS,
            lambda w: f"{A}/tournaments/cup/rating-approval"),
        Row(f"DELETE {T}/rating-approval", "tournament.rate", OFFICERS,
            lambda w: f"{A}/tournaments/cup/rating-approval", before=rated),
        Row(f"POST {T}/entries/new", "tournament.run", ORGANIZERS,
            lambda w: f"{A}/tournaments/spring/entries/new",
            lambda w: {"player_id": w.players["Dina"]}),
        Row(f"POST {T}/entries/new (pair)", "tournament.run (a pair entered under its name)",
            ORGANIZERS, lambda w: f"{A}/tournaments/pairs-open/entries/new",
            lambda w: {"player_id": w.players["Carl"], "partner_id": w.players["Dina"]}),
        Row(f"DELETE {T}/entries/{{id}}/", "tournament.run", ORGANIZERS,
            lambda w: f"{A}/tournaments/spring/entries/{w.entry('spring', 'Carl').pk}/"),
        Row(f"POST {T}/entries/{{id}}/remove", "entry.remove", ORGANIZERS,
            lambda w: f"{A}/tournaments/cup/entries/{w.entry('cup', 'Carl').pk}/remove",
            lambda w: {"reason": "misconduct"}),
        Row(f"POST {T}/judges/new", "tournament.judges", ORGANIZERS,
            lambda w: f"{A}/tournaments/spring/judges/new",
            lambda w: {"user": "nina", "role": "judge"}, before=official_spring),
        Row(f"POST {T}/judges/{{id}}/remove", "tournament.judges", ORGANIZERS,
            lambda w: f"{A}/tournaments/spring/judges/{w.ids['judge']}/remove",
            before=spring_judged),
        Row(f"POST {A}/sanctions/new", "sanction.record", STAFF,
            lambda w: f"{A}/sanctions/new",
            lambda w: {"player_id": w.players["Carl"], "reason": "misconduct",
                       "starts_on": "2026-01-01", "ends_on": None}),
        Row(f"POST {T}/entries/{{id}}/check-in", "entry.check-in", PLAYERS,
            lambda w: f"{A}/tournaments/spring/entries/{w.entry('spring', 'Anna').pk}/check-in"),
        Row(f"DELETE {T}/entries/{{id}}/check-in", "entry.check-in-undo", ORGANIZERS,
            lambda w: f"{A}/tournaments/spring/entries/{w.entry('spring', 'Anna').pk}/check-in",
            before=checked_in),
        Row(f"POST {T}/signups/new", "signup.create", SIGNED_IN,
            lambda w: f"{A}/tournaments/open/signups/new", lambda w: {"display_name": "Newbie"}),
        Row(f"DELETE {T}/signups/{{id}}/", "signup.withdraw", ORGANIZERS,
            lambda w: f"{A}/tournaments/spring/signups/{w.ids['signup']}/"),
        Row(f"POST {T}/signups/{{id}}/approve", "signup.decide", ORGANIZERS,
            lambda w: f"{A}/tournaments/spring/signups/{w.ids['signup']}/approve"),
        Row(f"POST {T}/signups/{{id}}/decline", "signup.decide", ORGANIZERS,
            lambda w: f"{A}/tournaments/spring/signups/{w.ids['signup']}/decline"),
        Row(f"POST {MATCH}/result", "match.report", PLAYERS,
            lambda w: f"{A}/matches/{cup_match(w)}/result", lambda w: {"score": [3, 1]}),
        Row(f"POST {MATCH}/confirm", "match.answer", PLAYERS,
            lambda w: f"{A}/matches/{cup_match(w)}/confirm", before=reported),
        Row(f"POST {MATCH}/dispute", "match.answer", PLAYERS,
            lambda w: f"{A}/matches/{cup_match(w)}/dispute", lambda w: {"note": "It was 1-3"},
            before=reported),
        Row(f"POST {MATCH}/resolve", "match.resolve", ORGANIZERS,
            lambda w: f"{A}/matches/{cup_match(w)}/resolve", before=reported),
        Row(f"POST {MATCH}/correct", "match.correct", ORGANIZERS,
            lambda w: f"{A}/matches/{cup_match(w)}/correct", lambda w: {"score": [0, 3]},
            before=decided),
        Row(f"POST {MATCH}/live", "match.record", PLAYERS,
            lambda w: f"{A}/matches/{blitz_match(w)}/live",
            lambda w: {"ply": 0, "action": {"first": 1}}),
        Row(f"POST {MATCH}/live/sync", "match.record", PLAYERS,
            lambda w: f"{A}/matches/{blitz_match(w)}/live/sync",
            lambda w: {"ply": 0, "entries": [{"action": {"first": 1},
                                              "at": timezone.now().isoformat()}]}),
        Row(f"POST {MATCH}/live/aside", "match.record", PLAYERS,
            lambda w: f"{A}/matches/{blitz_match(w)}/live/aside",
            lambda w: {"ply": 0, "entries": [{"action": {"first": 1},
                                              "at": timezone.now().isoformat()}]}),
        Row(f"POST {MATCH}/live/undo", "match.record", PLAYERS,
            lambda w: f"{A}/matches/{blitz_match(w)}/live/undo", lambda w: {"ply": 1},
            before=recording),
        Row(f"POST {MATCH}/live/clock", "clock.set", ORGANIZERS,
            lambda w: f"{A}/matches/{blitz_match(w)}/live/clock", lambda w: {"action": "pause"},
            before=recording),
        Row(f"DELETE {MATCH}/live", "recording.discard", ORGANIZERS,
            lambda w: f"{A}/matches/{blitz_match(w)}/live", before=recording),
        Row(f"POST {A}/players/{{id}}/claim", "player.claim", SIGNED_IN,
            lambda w: f"{A}/players/{w.players['Carl']}/claim",
            states={"player": 409}),  # Anna's account has its player
        Row(f"POST {A}/players/{{id}}/merge", "player.merge", ORGANIZERS,
            lambda w: f"{A}/players/{w.players['Hana']}/merge",
            lambda w: {"duplicate": w.players["Hana K."]}),
        Row(f"POST {A}/players/{{id}}/unlink", "player.unlink", PLAYERS,
            lambda w: f"{A}/players/{w.players['Anna']}/unlink"),
        Row(f"POST {A}/players/{{id}}/rename", "player.rename", ORGANIZERS,
            lambda w: f"{A}/players/{w.players['Duo']}/rename", lambda w: {"name": "Ice Duo"}),
        Row(f"POST {A}/players/{{id}}/rename (a player in no match)", "player.rename",
            ORGANIZERS, lambda w: f"{A}/players/{w.players['Hana K.']}/rename",
            lambda w: {"name": "Hana Kalnina"}),
        Row(f"POST {A}/players/{{id}}/delete", "player.delete", ORGANIZERS,
            lambda w: f"{A}/players/{w.players['Hana K.']}/delete"),
        Row(f"PATCH {A}/players/{{id}}/profile", "profile.edit", PLAYERS,
            lambda w: f"{A}/players/{w.players['Anna']}/profile",
            lambda w: {"birth_year": 1991}),
        Row(f"POST {A}/identity/{{id}}/undo (merge)", "identity.undo", STAFF,
            lambda w: f"{A}/identity/{w.ids['merge']}/undo"),
        Row(f"POST {A}/identity/{{id}}/undo (rename)", "identity.undo", ORGANIZERS,
            lambda w: f"{A}/identity/{w.ids['rename']}/undo"),
        Row(f"POST {A}/claims/{{id}}/approve", "player.decide", ORGANIZERS,
            lambda w: f"{A}/claims/{w.ids['claim']}/approve"),
        Row(f"POST {A}/claims/{{id}}/decline", "player.decide", ORGANIZERS,
            lambda w: f"{A}/claims/{w.ids['claim']}/decline"),
        Row(f"POST {A}/ratings/holds/{{id}}/confirm", "hold.confirm", OFFICERS,
            lambda w: f"{A}/ratings/holds/{w.ids['hold']}/confirm"),
        Row(f"POST {A}/clubs/new", "club.create", SIGNED_IN,
            lambda w: f"{A}/clubs/new", lambda w: {"name": "Vilnius"}),
        Row(f"POST {A}/clubs/{{slug}}/members/new", "club.members", ORGANIZERS,
            lambda w: f"{A}/clubs/riga/members/new", lambda w: {"username": "kim"}),
        Row(f"POST {A}/clubs/{{slug}}/members/new (organizer)", "club.roles", STAFF,
            lambda w: f"{A}/clubs/riga/members/new",
            lambda w: {"username": "kim", "role": "organizer"}),
        Row(f"DELETE {A}/clubs/{{slug}}/members/{{user_id}}/", "club.members, club.leave",
            ORGANIZERS, lambda w: f"{A}/clubs/riga/members/{w.users['mel']}/"),
        Row(f"POST {A}/clubs/{{slug}}/seasons/new", "club.seasons", ORGANIZERS,
            lambda w: f"{A}/clubs/riga/seasons/new", lambda w: {"name": "2027"}),
        Row(f"POST {A}/clubs/{{slug}}/seasons/{{season}}/events/new",
            "club.seasons, tournament.run", ORGANIZERS,
            lambda w: f"{A}/clubs/riga/seasons/2026/events/new",
            lambda w: {"tournament": "spring"}),
        Row(f"DELETE {A}/clubs/{{slug}}/seasons/{{season}}/events/{{tournament}}/",
            "club.seasons, tournament.run", ORGANIZERS,
            lambda w: f"{A}/clubs/riga/seasons/2026/events/cup/"),
        Row(f"POST {A}/records/validate", "anyone: it stores nothing", ALL,
            lambda w: f"{A}/records/validate", lambda w: {"mat": mat_text()}, changes=False),
    ]  # fmt: skip


def site_rows() -> list[Row]:
    def step(name: str, allowed: frozenset[str], rule: str, slug: str, before=None) -> Row:
        address = reverse("tournament-step", args=[slug, name])
        key = f"POST /t/{{slug}}/step/{{step}}/ step={name}"
        return Row(key, rule, allowed, lambda w: address, before=before)

    def players(action: str, slug: str, body: Callable[[World], dict]) -> Row:
        return Row(f"POST /t/{{slug}}/players/ action={action}", "tournament.run", ORGANIZERS,
                   lambda w: reverse("tournament-players", args=[slug]),
                   lambda w: {"action": action, **body(w)})  # fmt: skip

    def signup(action: str, rule: str, allowed: frozenset[str], slug: str,
               body: Callable[[World], dict], before=None, states=None) -> Row:  # fmt: skip
        return Row(f"POST /t/{{slug}}/signup/ action={action}", rule, allowed,
                   lambda w: reverse("tournament-signup", args=[slug]),
                   lambda w: {"action": action, **body(w)}, before=before,
                   states=states or {})  # fmt: skip

    def match_page(name: str) -> Callable[[World], str]:
        return lambda w: reverse(name, args=[w.match("cup").pk])

    return [
        Row("POST /tournaments/new/", "tournament.create", SIGNED_IN,
            lambda w: reverse("tournament-create"), lambda w: TOURNAMENT_FORM),
        Row("POST /t/{slug}/edit/", "tournament.run", ORGANIZERS,
            lambda w: reverse("tournament-edit", args=["open"]),
            lambda w: {**TOURNAMENT_FORM, "name": "Open Renamed"}),
        players("add", "open", lambda w: {"display_name": "Newcomer"}),
        players("add-pair", "pairs-open",
                lambda w: {"first": w.players["Eva"], "second": w.players["Fedor"]}),
        players("import", "open", lambda w: {"file": csv_file()}),
        Row("POST /t/{slug}/players/ action=paste-preview", "tournament.run", ORGANIZERS,
            lambda w: reverse("tournament-players", args=["open"]),
            lambda w: {"action": "paste-preview", "names": "Newcomer\nAnna"}, changes=False),
        players("paste", "open", lambda w: {"names": "Newcomer\n\nOther Newcomer"}),
        players("withdraw", "spring", lambda w: {"entry": w.entry("spring", "Carl").pk}),
        Row("POST /t/{slug}/players/ action=remove", "entry.remove", ORGANIZERS,
            lambda w: reverse("tournament-players", args=["cup"]),
            lambda w: {"action": "remove", "entry": w.entry("cup", "Carl").pk,
                       "reason": "misconduct"}),
        Row("POST /t/{slug}/judges/ action=add", "tournament.judges", ORGANIZERS,
            lambda w: reverse("tournament-judges", args=["spring"]),
            lambda w: {"action": "add", "user": "nina", "role": "judge"},
            before=official_spring),
        Row("POST /t/{slug}/judges/ action=remove", "tournament.judges", ORGANIZERS,
            lambda w: reverse("tournament-judges", args=["spring"]),
            lambda w: {"action": "remove", "judge": w.ids["judge"]}, before=spring_judged),
        Row("POST /t/{slug}/judges/ action=remove-entry", "entry.remove", ORGANIZERS,
            lambda w: reverse("tournament-judges", args=["cup"]),
            lambda w: {"action": "remove-entry", "entry": w.entry("cup", "Carl").pk,
                       "reason": "misconduct"}),
        step("open", ORGANIZERS, "tournament.run", "draft"),
        step("start", ORGANIZERS, "tournament.run", "open",
             before=lambda w: _enter(w, "open", "Anna", "Boris")),
        step("pair", ORGANIZERS, "tournament.run", "cup", before=swiss_round_decided),
        step("finish", ORGANIZERS, "tournament.close", "cup", before=no_open_matches),
        step("lots", ORGANIZERS, "tournament.lots", "cup", before=finished_level),
        step("rate", OFFICERS, "tournament.rate", "cup"),
        step("unrate", OFFICERS, "tournament.rate", "cup", before=rated),
        step("build-stage-2", ORGANIZERS, "tournament.run", "event"),
        step("reset-stage-2", ORGANIZERS, "tournament.run", "event", before=stage_two_built),
        signup("signup", "signup.create", SIGNED_IN, "open",
               lambda w: {"display_name": "Newbie"}),
        signup("partner-accept", "signup.partner", frozenset({"player"}), "pairs-open",
               lambda w: {"signup": w.ids["partner-signup"]}),
        signup("partner-decline", "signup.partner", frozenset({"player"}), "pairs-open",
               lambda w: {"signup": w.ids["partner-signup"]}),
        signup("withdraw", "signup.withdraw", ORGANIZERS, "spring",
               lambda w: {"signup": w.ids["signup"]}),
        signup("approve", "signup.decide", ORGANIZERS, "spring",
               lambda w: {"signup": w.ids["signup"]}),
        signup("decline", "signup.decide", ORGANIZERS, "spring",
               lambda w: {"signup": w.ids["signup"]}),
        signup("check-in", "entry.check-in", PLAYERS, "spring",
               lambda w: {"entry": w.entry("spring", "Anna").pk}),
        signup("check-in-undo", "entry.check-in-undo", ORGANIZERS, "spring",
               lambda w: {"entry": w.entry("spring", "Anna").pk}, before=checked_in),
        Row("POST /m/{pk}/report/", "match.report", PLAYERS, match_page("match-report"),
            lambda w: SCORE_FORM),
        Row("POST /m/{pk}/answer/ answer=confirm", "match.answer", PLAYERS,
            match_page("match-answer"), lambda w: {"answer": "confirm"}, before=reported),
        Row("POST /m/{pk}/answer/ answer=dispute", "match.answer", PLAYERS,
            match_page("match-answer"), lambda w: {"answer": "dispute", "note": "It was 1-3"},
            before=reported),
        Row("POST /m/{pk}/resolve/", "match.resolve", ORGANIZERS, match_page("match-resolve"),
            lambda w: {"accept": "reported"}, before=reported),
        Row("POST /m/{pk}/correct/", "match.correct", ORGANIZERS, match_page("match-correct"),
            lambda w: {**SCORE_FORM, "score_home": "0", "score_away": "3"}, before=decided),
        Row("POST /p/{pk}/claim/", "player.claim", SIGNED_IN,
            lambda w: reverse("player-claim", args=[w.players["Carl"]]),
            states={"player": 409}),
        Row("POST /p/{pk}/merge/", "player.merge", ORGANIZERS,
            lambda w: reverse("player-merge", args=[w.players["Hana"]]),
            lambda w: {"drop": w.players["Hana K."]}),
        Row("POST /p/{pk}/unlink/", "player.unlink", PLAYERS,
            lambda w: reverse("player-unlink", args=[w.players["Anna"]])),
        Row("POST /p/{pk}/rename/", "player.rename", ORGANIZERS,
            lambda w: reverse("player-rename", args=[w.players["Duo"]]),
            lambda w: {"name": "Ice Duo"}),
        Row("POST /p/{pk}/rename/ (a player in no match)", "player.rename", ORGANIZERS,
            lambda w: reverse("player-rename", args=[w.players["Hana K."]]),
            lambda w: {"name": "Hana Kalnina"}),
        Row("POST /p/{pk}/delete/", "player.delete", ORGANIZERS,
            lambda w: reverse("player-delete", args=[w.players["Hana K."]])),
        Row("POST /p/{pk}/profile/", "profile.edit", PLAYERS,
            lambda w: reverse("player-profile", args=[w.players["Anna"]]),
            lambda w: {"gender": "female", "birth_year": "1991"}),
        Row("POST /claims/ decision=approve", "player.decide", ORGANIZERS,
            lambda w: reverse("player-claims"),
            lambda w: {"claim": w.ids["claim"], "decision": "approve"}),
        Row("POST /claims/ decision=decline", "player.decide", ORGANIZERS,
            lambda w: reverse("player-claims"),
            lambda w: {"claim": w.ids["claim"], "decision": "decline"}),
        Row("POST /identity/ (merge)", "identity.undo", STAFF, lambda w: reverse("identity-trail"),
            lambda w: {"change": w.ids["merge"]}),
        Row("POST /identity/ (rename)", "identity.undo", ORGANIZERS,
            lambda w: reverse("identity-trail"), lambda w: {"change": w.ids["rename"]}),
        Row("POST /clubs/new/", "club.create", SIGNED_IN, lambda w: reverse("club-create"),
            lambda w: {"name": "Vilnius"}),
        Row("POST /c/{slug}/edit/", "club.edit", ORGANIZERS,
            lambda w: reverse("club-edit", args=["riga"]),
            lambda w: {"name": "Riga", "city": "Jurmala"}),
        Row("POST /c/{slug}/members/ action=add", "club.members (club.roles for organizers)",
            ORGANIZERS, lambda w: reverse("club-members", args=["riga"]),
            lambda w: {"action": "add", "username": "kim", "role": "member"}),
        Row("POST /c/{slug}/members/ action=remove", "club.members, club.leave", ORGANIZERS,
            lambda w: reverse("club-members", args=["riga"]),
            lambda w: {"action": "remove", "user": w.users["mel"]}),
        Row("POST /c/{slug}/seasons/new/", "club.seasons", ORGANIZERS,
            lambda w: reverse("season-create", args=["riga"]),
            lambda w: {**SEASON_FORM, "name": "2027"}),
        Row("POST /c/{slug}/s/{season}/edit/ action=rule", "club.seasons", ORGANIZERS,
            lambda w: reverse("season-edit", args=["riga", "2026"]),
            lambda w: {**SEASON_FORM, "action": "rule", "place_points": "12, 6"}),
        Row("POST /c/{slug}/s/{season}/edit/ action=add", "club.seasons, tournament.run",
            ORGANIZERS, lambda w: reverse("season-edit", args=["riga", "2026"]),
            lambda w: {"action": "add", "tournament": w.tournament("spring").pk}),
        Row("POST /c/{slug}/s/{season}/edit/ action=remove", "club.seasons, tournament.run",
            ORGANIZERS, lambda w: reverse("season-edit", args=["riga", "2026"]),
            lambda w: {"action": "remove", "tournament": w.tournament("cup").pk}),
    ]  # fmt: skip


def _enter(world: World, slug: str, *names: str) -> None:
    from tournaments.services import entry_register  # noqa: PLC0415

    for name in names:
        entry_register(tournament=world.tournament(slug), player=world.player(name),
                       by=world.user("organizer"))  # fmt: skip


ROWS = api_rows() + site_rows()


# --- The world, once per module; each test in a savepoint of its own ------------------------------


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker) -> Iterator[World]:
    yield from rows_for_the_module(django_db_blocker, build)


# --- Every write has a row ----------------------------------------------------------------------


def _routes(patterns: list[Any], prefix: str = "") -> Iterator[tuple[str, Any]]:
    for pattern in patterns:
        route = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, route)
        elif isinstance(pattern, URLPattern):
            yield route, pattern


def _template(route: str) -> str:
    """An address as the rows key it: ``<int:pk>`` is ``{pk}``; the API's ``pk`` is ``{id}``, as
    its schema names it."""
    path = "/" + re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", route).lstrip("^").rstrip("$")
    if path.startswith("/api/v1/"):
        path = path.replace("{pk}", "{id}")
    return path


def api_writes() -> set[str]:
    """Every write of the API: its schema's operations, and its URL patterns' views' methods
    (a view the schema leaves out is a write all the same)."""
    schema = SchemaGenerator().get_schema(request=None, public=True)
    writes = {
        f"{method.upper()} {path}"
        for path, operations in schema["paths"].items()
        for method in operations
        if method in ("post", "put", "patch", "delete")
    }
    for route, pattern in _routes(get_resolver().url_patterns):
        view = getattr(pattern.callback, "view_class", None) or getattr(
            pattern.callback, "cls", None
        )
        if not route.startswith("api/v1/") or view is None:
            continue
        for method in ("post", "put", "patch", "delete"):
            if hasattr(view, method):
                writes.add(f"{method.upper()} {_template(route)}")
    return writes


def site_writes(client: Client, world: World) -> set[str]:
    """Every write of the site: each page that does not refuse a post (405), by the values its
    forms post when it declares them (``posts``)."""
    writes = set()
    for route, pattern in _routes(get_resolver().url_patterns):
        if route.startswith(NOT_THE_POLICYS) or route.startswith("api/"):
            continue
        address = _sample_address(route, world)
        if client.post(address).status_code == 405:
            continue
        declared = getattr(pattern.callback, "posts", None)
        if declared is None:
            writes.add(f"POST {_template(route)}")
            continue
        name, values = declared
        writes.update(f"POST {_template(route)} {name}={value}" for value in values)
    return writes


def _sample_address(route: str, world: World) -> str:
    """The route with a value of the world for each of its parts."""
    values = {"slug": "riga" if route.startswith("c/") else "cup", "season": "2026",
              "pk": str(world.match("cup").pk), "step": "open", "discipline": "long",
              "system": "fibs", "path": "x", "digest": "0"}  # fmt: skip
    if route.startswith("p/"):
        values["pk"] = str(world.players["Anna"])
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: values[m.group(1)], route)


def _key(row: Row) -> str:
    """A row's key without its note in parentheses: the write it tries."""
    return re.sub(r" \([^)]*\)$", "", row.key)


def test_every_write_has_a_row(world, db, client):
    client.force_login(world.user("staff"))
    writes = api_writes() | site_writes(client, world)
    covered = {_key(row) for row in ROWS}
    assert sorted(writes - covered) == [], "writes without a row in the permission matrix"
    assert sorted(covered - writes) == [], "rows of writes that are not there any more"


def test_every_row_names_the_policys_rules():
    for row in ROWS:
        named = re.findall(r"\b[a-z]+\.[a-z-]+\b", row.rule)
        assert all(rule in RULES for rule in named), (row.key, named)


def test_the_table_in_the_docs_is_the_rows():
    assert TABLE.read_text() == table_markdown()


def table_markdown() -> str:
    """docs/permission-matrix.md: each write, the rule that decides it, who may."""
    lines = [
        "# The permission matrix",
        "",
        "Generated from `tests/security/test_permission_matrix.py` (its ROWS), which tries each",
        "write below as each of the seven personas on every run of the suite: who may, succeeds",
        "and changes the database; who may not, is refused and changes nothing. The rules are",
        '`tournaments/policy.py`\'s (README.md, "Who may do what").',
        "",
        f"{len(ROWS)} writes × {len(PERSONAS)} personas = {len(ROWS) * len(PERSONAS)} cases.",
        "",
        "| write | decided by | who may |",
        "| --- | --- | --- |",
    ]
    for row in ROWS:
        who = ", ".join(persona for persona in PERSONAS if persona in row.allowed)
        lines.append(f"| `{row.key}` | {row.rule} | {who} |")
    return "\n".join(lines) + "\n"


# --- Each row, as each persona --------------------------------------------------------------------


def _send(client: Client, row: Row, world: World, headers: dict[str, str]) -> Any:
    path, body = row.path(world), row.body(world)
    if row.api:
        return getattr(client, row.method)(path, json.dumps(body), "application/json", **headers)
    return client.post(path, body)


def _cases() -> Iterator[Any]:
    """Each row as each persona; the API's also with a token (its clients' way) beside the
    session (the site's pages' own calls)."""
    for row in ROWS:
        for persona in PERSONAS:
            auths = ("session", "token") if row.api and persona != "anonymous" else ("session",)
            for auth in auths:
                yield pytest.param(row, persona, auth, id=f"{row.key}-{persona}-{auth}")


@pytest.mark.parametrize(("row", "persona", "auth"), list(_cases()))
def test_a_write_as_a_persona(world, db, client, row, persona, auth):
    if row.before is not None:
        row.before(world)
    user = world.user(persona)
    headers = {}
    if user is not None and auth == "token":
        headers = {"HTTP_AUTHORIZATION": f"Token {ApiToken.issue(user=user, name='matrix')[1]}"}
    elif user is not None:
        client.force_login(user)
    before = database_state()

    response = _send(client, row, world, headers)

    status = response.status_code
    shown = response.content.decode(errors="replace")[:600]
    if persona in row.states:
        assert status == row.states[persona], (status, shown)
        assert changed_tables(before) == []
    elif persona in row.allowed:
        assert status < 400, (status, shown)
        if not row.api and row.changes:
            assert status == 302, (status, shown)  # done, and sent on (a preview: its page)
        changed = changed_tables(before)
        assert bool(changed) == row.changes, changed
    else:
        if persona == "anonymous" and not row.api:
            assert status == 302 and "/accounts/login/" in response["Location"], status
        elif persona == "anonymous":
            assert status in (401, 403), (status, shown)
        else:
            assert status in (403, 404), (status, shown)
        if row.api:
            assert set(response.json()["error"]) == {"code", "message", "details"}, shown
        elif status == 403:
            assert 'role="alert"' in shown or "alert" in response.content.decode(), shown
        assert changed_tables(before) == [], "a refused write changed the database"
