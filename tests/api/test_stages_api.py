"""Two-stage events through the API: the stages and who goes on, stage 2 built and reset by the
organizers, and a stage-1 correction refused (409, with what to do) while stage 2 stands."""

import pytest
from django.contrib.auth.models import User

from tournaments.matches.results import match_result_record
from tournaments.models import Match, Player, Tournament
from tournaments.services import (
    entry_register,
    tournament_create,
    tournament_open_registration,
    tournament_start,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def olga():
    olga = User.objects.create_user("olga")
    cup = tournament_create(organizer=olga, name="Cup", slug="cup", variant="long",
                            format="single-elimination", first_stage="groups", groups=2,
                            advance=1, match_length=1)  # fmt: skip
    cup = tournament_open_registration(tournament=cup, by=olga)
    for name in ("A", "B", "C", "D"):
        entry_register(tournament=cup, player=Player.objects.create(display_name=name), by=olga)
    tournament_start(tournament=cup, by=olga)
    return olga


def test_stages_build_correct_and_reset(client, olga):
    stages = client.get("/api/v1/tournaments/cup/stages/").json()
    assert [s["group"] for s in stages["stages"]] == ["A", "B"]
    assert stages["first_stage_complete"] is False and stages["qualifiers"] == []
    client.force_login(olga)
    early = client.post("/api/v1/tournaments/cup/stage-2")
    assert early.status_code == 409
    for match in Match.objects.filter(tournament__parent__slug="cup"):
        match_result_record(match=match, by=olga, score=(1, 0))
    stages = client.get("/api/v1/tournaments/cup/stages/").json()
    assert stages["first_stage_complete"] and [q["seed"] for q in stages["qualifiers"]] == [1, 2]
    made = client.post("/api/v1/tournaments/cup/stage-2")
    assert made.status_code == 201 and made.json()["parent"] == "cup" and made.json()["stage"] == 2
    group_match = Match.objects.filter(tournament__stage=1).first()
    refused = client.post(f"/api/v1/matches/{group_match.pk}/correct", {"score": [0, 1]},
                          content_type="application/json")  # fmt: skip
    assert refused.status_code == 409 and "reset stage 2" in refused.json()["error"]["message"]
    assert client.delete("/api/v1/tournaments/cup/stage-2").status_code == 204
    assert not Tournament.objects.filter(stage=2).exists()
    again = client.post(f"/api/v1/matches/{group_match.pk}/correct", {"score": [0, 1]},
                        content_type="application/json")  # fmt: skip
    assert again.status_code == 200


def test_the_bracket_stage_downloads_its_places_as_csv(client, olga):
    import csv  # noqa: PLC0415
    import io  # noqa: PLC0415

    from tournaments.stages.services import stage_two_build  # noqa: PLC0415

    for match in Match.objects.filter(tournament__parent__slug="cup"):
        match_result_record(match=match, by=olga, score=(1, 0))
    final = stage_two_build(event=Tournament.objects.get(slug="cup"), by=olga)
    assert client.get("/api/v1/tournaments/cup-stage-2/places.csv").content.decode().strip() == (
        "place,player,seed"
    )  # not played out yet
    match_result_record(match=final.matches.get(), by=olga, score=(0, 1))
    rows = list(csv.reader(io.StringIO(
        client.get("/api/v1/tournaments/cup-stage-2/places.csv").content.decode())))  # fmt: skip
    assert [row[0] for row in rows[1:]] == ["1", "2"] and rows[1][2] == "2"  # seed 2 won
