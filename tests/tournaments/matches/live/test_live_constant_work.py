"""An entry costs the same at the end of a long match as at its start (issue 30): it is checked
from the checkpoint of the game in progress and appended as a row, so no write reads, parses or
rewrites the entries before it. Counted, not timed: the queries and the entries parsed of every
write of a Long Nardy match of more than 800 entries. Drafts of the old layout (one JSON list)
migrate to rows and go on where they stood."""

from __future__ import annotations

import random

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext

import tournaments.matches.live.drafts as drafts
import tournaments.matches.live.services as services
from games.rules import Turn
from games.rules.selfplay import random_match
from tests.web.conftest import make_site
from tournaments.matches.live.models import Draft
from tournaments.matches.live.recording import (
    First,
    Recording,
    Roll,
    entry_from_json,
    entry_to_json,
    state_json,
)
from tournaments.matches.live.services import live_act, live_undo
from tournaments.matches.live.state import live_state
from tournaments.models import Match

pytestmark = pytest.mark.django_db


def match_entries(rules, seed: int) -> list:
    """A self-play match as the recorder enters it: who starts, each roll, then its play."""
    entries = []
    for game in random_match(rules.to_variant(), rules.length, random.Random(seed)):
        entries.append(First(game.white))
        for action in game.actions:
            if isinstance(action, Turn):
                entries.append(Roll(action.dice))
            entries.append(action)
    return entries


@pytest.fixture
def parsed(monkeypatch) -> list[int]:
    """How many entries the live services read from JSON, call by call."""
    calls = [0]
    real = services.entry_from_json

    def counting(data):
        calls[0] += 1
        return real(data)

    for module in (services, drafts):  # the entry posted, and the draft's entries read again
        monkeypatch.setattr(module, "entry_from_json", counting)
    return calls


def test_the_last_entries_of_a_long_match_cost_what_its_first_do(parsed):
    site = make_site(variant="long", match_length=3)
    match = site.match("Anna", "Boris")
    anna = site.players[match.home.player.display_name]
    rules = site.tournament.match_rules()
    entries = match_entries(rules, seed=14)
    assert len(entries) > 800

    costs = []  # (queries, entries parsed) of each write
    for ply, entry in enumerate(entries):
        parsed[0] = 0
        with CaptureQueriesContext(connection) as queries:
            live_act(match_id=match.pk, by=anna, ply=ply, action=entry_to_json(entry))
        costs.append((len(queries), parsed[0]))

    # Every write but the first (it makes the draft) and the last (it reports the match, reading
    # its games once) parses one entry, its own, and runs the same queries, wherever it stands.
    middle = costs[1:-1]
    assert {entries_parsed for _, entries_parsed in middle} == {1}
    first_hundred = max(count for count, _ in middle[:100])
    last_hundred = max(count for count, _ in middle[-100:])
    assert last_hundred <= first_hundred, (first_hundred, last_hundred)

    draft = Draft.objects.get(match=match)
    rows = list(draft.entry_rows.order_by("ply"))
    assert [entry_from_json(row.data) for row in rows] == entries
    assert {row.made_by_id for row in rows} == {anna.pk}
    assert all(a.made_at <= b.made_at for a, b in zip(rows, rows[1:], strict=False))
    match.refresh_from_db()
    assert match.status == Match.Status.REPORTED and draft.finished


def test_an_undo_reads_only_the_game_it_goes_back_into(parsed):
    site = make_site(variant="short", match_length=5)
    match = site.match("Anna", "Boris")
    olga = site.organizer
    rules = site.tournament.match_rules()
    entries = match_entries(rules, seed=3)
    whole = Recording(rules)
    for ply, entry in enumerate(entries[:-1]):
        live_act(match_id=match.pk, by=olga, ply=ply, action=entry_to_json(entry))
        whole.add(entry)
    assert len(whole.done) >= 2, "the match should be in its third game or later"
    game_start = sum(game.entries for game in whole.done)
    # An entry of the game in progress: only that game's entries are read again.
    ply = len(entries) - 1
    parsed[0] = 0
    live_undo(match_id=match.pk, by=olga, ply=ply)
    assert parsed[0] == ply - 1 - game_start
    assert live_state(match_id=match.pk)["ply"] == ply - 1
    # Back into the game before: only it is read, not the games before it.
    back_to = game_start - 3
    previous_start = game_start - whole.done[-1].entries
    parsed[0] = 0
    state = live_undo(match_id=match.pk, by=olga, ply=ply - 1, to=back_to)
    assert parsed[0] == back_to - previous_start
    assert state["ply"] == back_to
    assert state_json(Recording.replay(rules, entries[:back_to])).items() <= state.items()
    # And the recording goes on from there.
    state = live_act(
        match_id=match.pk, by=olga, ply=back_to, action=entry_to_json(entries[back_to])
    )
    assert state["ply"] == back_to + 1


@pytest.mark.django_db(transaction=True)
def test_a_draft_of_the_old_layout_migrates_to_rows_and_goes_on_mid_game():
    site = make_site(variant="long", match_length=3)
    match = site.match("Anna", "Boris")
    anna = site.players[match.home.player.display_name]
    rules = site.tournament.match_rules()
    entries = match_entries(rules, seed=11)
    before = Recording(rules)
    for entry in entries:
        before.add(entry)
        if before.done and before.game_entries == 41:  # the second game, mid-way
            break
    stopped = before.ply

    executor = MigrationExecutor(connection)
    executor.migrate([("live", "0001_initial")])
    old = executor.loader.project_state([("live", "0001_initial")]).apps
    old.get_model("live", "Draft").objects.create(
        match_id=match.pk,
        entries=[entry_to_json(entry) for entry in entries[:stopped]],
        done=[game.to_json() for game in before.done],
        ply=stopped,
        revision=stopped,
        started_by_id=anna.pk,
        updated_by_id=anna.pk,
    )
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())

    draft = Draft.objects.get(match=match)
    rows = list(draft.entry_rows.order_by("ply"))
    assert [row.ply for row in rows] == list(range(stopped))
    assert [row.data for row in rows] == [entry_to_json(entry) for entry in entries[:stopped]]
    assert {row.made_by_id for row in rows} == {anna.pk}
    assert all(row.made_at == draft.updated_at for row in rows)
    assert draft.current is None  # rebuilt from the game in progress at the next write
    assert live_state(match_id=match.pk)["ply"] == stopped
    state = live_act(
        match_id=match.pk, by=anna, ply=stopped, action=entry_to_json(entries[stopped])
    )
    after = Recording.replay(rules, entries[: stopped + 1])
    assert state_json(after).items() <= state.items()
    assert Draft.objects.get(match=match).current == after.checkpoint()
