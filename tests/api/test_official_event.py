"""An official long-blitz event run through the API, as a chief judge and a federation's
secretary meet it (issue 48's showcase): a panel of three judges, officials refused as players, a
disqualified player refused, a judge's clock action and flag fall and a judge's forfeit recorded
with their names, the chief judge's close, the protocol in its three forms, and the blitz list
rated apart from the classical one. And a youth event of 9–11 refusing a 12-year-old."""

import io
import shutil
import subprocess

import openpyxl
import pytest
from django.contrib.auth.models import User
from django.utils import timezone

from tournaments.models import Match, Player
from tournaments.ratings.models import RatingChange

pytestmark = pytest.mark.django_db

API = "/api/v1"
JSON = "application/json"
#: The men of the event: name, birth year, region, rank.
MEN = [
    ("Руслан Мамедов", 1983, "RU-MOW", "kms"),
    ("Давид Кузнецов", 1984, "RU-SE", "1"),
    ("Тимур Иванов", 1980, "RU-KDA", "2"),
    ("Арсен Смирнов", 1978, "RU-MOW", ""),
]


def post(client, user, url, body=None):
    client.force_login(user)
    return client.post(f"{API}/{url}", body or {}, JSON)


def test_an_official_long_blitz_event_through_the_api(
    client, eager_tasks, django_capture_on_commit_callbacks
):
    olga, staff = User.objects.create_user("olga"), User.objects.create_superuser("sam")
    ivan, sveta, gleb = (
        User.objects.create_user("ivan", first_name="Иван", last_name="Петров"),
        User.objects.create_user("sveta", first_name="Светлана", last_name="Орлова"),
        User.objects.create_user("gleb", first_name="Глеб", last_name="Соколов"),
    )
    made = post(client, olga, "tournaments/new", {
        "name": "Кубок ФНР, длинные нарды — блиц", "preset": "long-blitz", "official": True,
        "category": "men", "venue": "Нижний Новгород", "event_status": "all-russian",
    })  # fmt: skip
    assert made.status_code == 201, made.content
    event = made.json()
    slug = event["slug"]
    # The preset set the whole event; the official event took the rules' minimum age.
    assert (event["discipline"], event["format"], event["match_length"]) == (
        "long-blitz",
        "single-elimination",
        3,
    )
    assert event["time_control"] == {"kind": "delay", "base_seconds": 60, "per_move_seconds": 10}
    assert event["min_age"] == 10 and event["official"] is True

    # The panel: three judges, the chief first.
    for user, role in ((gleb, "judge"), (ivan, "chief"), (sveta, "secretary")):
        named = post(client, olga, f"tournaments/{slug}/judges/new", {"user": user.username,
                                                                      "role": role})  # fmt: skip
        assert named.status_code == 201, named.content
    assert post(client, olga, f"tournaments/{slug}/judges/new",
                {"user": "olga", "role": "chief"}).status_code == 409  # fmt: skip
    panel = client.get(f"{API}/tournaments/{slug}/judges/").json()
    assert [(judge["user"], judge["role"]) for judge in panel] == [
        ("ivan", "chief"), ("sveta", "secretary"), ("gleb", "judge")
    ]  # fmt: skip

    # Officials do not play: a judge's player is refused with the reason, and so is the
    # organizer's; a disqualified player is refused with the end of the disqualification.
    judge_player = Player.objects.create(display_name="Глеб Соколов", user=gleb, gender="male",
                                         birth_year=1990)  # fmt: skip
    refused = post(client, olga, f"tournaments/{slug}/entries/new", {"player_id": judge_player.pk})
    assert refused.status_code == 409
    assert "judge of this event" in refused.json()["error"]["message"]
    organizer_player = Player.objects.create(display_name="Ольга", user=olga, gender="male",
                                             birth_year=1990)  # fmt: skip
    refused = post(client, olga, f"tournaments/{slug}/entries/new",
                   {"player_id": organizer_player.pk})  # fmt: skip
    assert refused.status_code == 409 and "organizer" in refused.json()["error"]["message"]
    cheat = Player.objects.create(display_name="Павел", gender="male", birth_year=1991)
    until = timezone.localdate().replace(year=timezone.localdate().year + 1)
    sanctioned = post(client, staff, "sanctions/new", {
        "player_id": cheat.pk, "reason": "misconduct", "starts_on": str(timezone.localdate()),
        "ends_on": str(until),
    })  # fmt: skip
    assert sanctioned.status_code == 201, sanctioned.content
    refused = post(client, olga, f"tournaments/{slug}/entries/new", {"player_id": cheat.pk})
    assert refused.status_code == 409 and "disqualified" in refused.json()["error"]["message"]
    assert Player.objects.filter(entries__tournament__slug=slug).count() == 0

    men = []
    for seed, (name, born, region, rank) in enumerate(MEN, start=1):
        player = Player.objects.create(display_name=name, gender="male", birth_year=born,
                                       region=region, sport_rank=rank)  # fmt: skip
        entered = post(client, olga, f"tournaments/{slug}/entries/new",
                       {"player_id": player.pk, "seed": seed})  # fmt: skip
        assert entered.status_code == 201, entered.content
        men.append(player)
    assert post(client, staff, f"tournaments/{slug}/rating-approval").status_code == 200
    assert post(client, olga, f"tournaments/{slug}/start").json()["status"] == "running"
    first, second = Match.objects.filter(tournament__slug=slug, bracket_round=1).order_by("slot")

    with django_capture_on_commit_callbacks(execute=True):  # the results' rating tasks
        # The first match at the table: the opening throw (one die each: Black's 5 beats White's 2,
        # so Black moves first); a judge stops the clocks and starts them again (the organizer may
        # not: an official event's clocks are the judges'); one side resigns a mars in two games
        # (Long Nardy's colours alternate: White in the first, Black in the second).
        state = post(client, gleb, f"matches/{first.pk}/live",
                     {"ply": 0, "action": {"opening": {"white": 2, "black": 5}}})  # fmt: skip
        assert state.status_code == 200, state.content
        assert state.json()["clocks"]["running"] is not None
        pause = {"action": "pause", "seconds": 0}
        assert post(client, olga, f"matches/{first.pk}/live/clock", pause).status_code == 403
        for action in ("pause", "resume"):
            handled = post(client, gleb, f"matches/{first.pk}/live/clock",
                           {"action": action, "seconds": 0})  # fmt: skip
            assert handled.status_code == 200, handled.content
        ply = handled.json()["ply"]
        for action in (
            {"resign": "white", "value": 2},
            {"opening": {"white": 3, "black": 1}},
            {"resign": "black", "value": 2},
        ):
            entered = post(client, gleb, f"matches/{first.pk}/live", {"ply": ply, "action": action})
            assert entered.status_code == 200, entered.content
            ply = entered.json()["ply"]
        decided = client.get(f"{API}/matches/{first.pk}/").json()
        assert (decided["status"], decided["decided_by"]) == ("final", "gleb")
        match_page = client.get(f"/m/{first.pk}/").content.decode()
        assert "Глеб Соколов" in match_page

        # The second match: in an official event a forfeit is a judge's, not the organizer's.
        forfeit = {"forfeit": "away"}
        assert post(client, olga, f"matches/{second.pk}/result", forfeit).status_code == 403
        judged = post(client, gleb, f"matches/{second.pk}/result", forfeit)
        assert judged.status_code == 200 and judged.json()["decided_by"] == "gleb"

        # The final (and the match for third place, if the bracket has one), reported by a judge;
        # only the chief judge closes the event.
        playable = Match.objects.filter(tournament__slug=slug, status="scheduled",
                                        home__isnull=False, away__isnull=False)  # fmt: skip
        assert playable.exists()
        for match in playable:
            reported = post(client, sveta, f"matches/{match.pk}/result", {"score": [3, 1]})
            assert reported.status_code == 200 and reported.json()["status"] == "final"
        assert post(client, olga, f"tournaments/{slug}/finish").status_code == 403
        assert post(client, gleb, f"tournaments/{slug}/finish").status_code == 403
        closed = post(client, ivan, f"tournaments/{slug}/finish")
        assert closed.status_code == 200 and closed.json()["status"] == "finished"

    # The protocol: a page, a PDF and a spreadsheet, with the discipline's code, the players'
    # birth years, regions and ranks, and the judges' names over their signature lines.
    client.logout()
    page = client.get(f"/t/{slug}/protocol/", HTTP_ACCEPT_LANGUAGE="ru")
    assert page.status_code == 200
    text = page.content.decode()
    for said in ("0690022811Л", "Москва", "1983", "КМС", "Иван Петров", "Глеб Соколов",
                 "Нижний Новгород"):  # fmt: skip
        assert said in text, said
    pdf = client.get(f"/t/{slug}/protocol.pdf", HTTP_ACCEPT_LANGUAGE="ru")
    assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF")
    if shutil.which("pdftotext"):
        words = subprocess.run(["pdftotext", "-layout", "-", "-"], input=pdf.content,
                               capture_output=True, check=True).stdout.decode()  # fmt: skip
        assert "0690022811Л" in words and "Руслан Мамедов" in words and "Иван Петров" in words
    sheet = client.get(f"/t/{slug}/protocol.xlsx", HTTP_ACCEPT_LANGUAGE="ru")
    assert sheet.status_code == 200
    book = openpyxl.load_workbook(io.BytesIO(sheet.content))
    cells = {str(cell.value) for row in book.active.iter_rows() for cell in row if cell.value}
    assert {"Руслан Мамедов", "Давид Кузнецов", "Тимур Иванов", "Арсен Смирнов"} <= cells

    # Blitz results are rated on the blitz list and leave the classical list untouched.
    blitz = client.get(f"{API}/ratings/fibs/long-blitz/").json()
    assert {row["player_id"] for row in blitz["results"]} & {man.pk for man in men}
    classical = client.get(f"{API}/ratings/fibs/long/").json()
    assert not {row["player_id"] for row in classical["results"]} & {man.pk for man in men}
    assert not RatingChange.objects.filter(rating_list__discipline="long").exists()
    assert RatingChange.objects.filter(rating_list__discipline="long-blitz").exists()


def test_a_youth_event_of_9_to_11_refuses_a_12_year_old(client):
    olga, artem, mark = (User.objects.create_user(name) for name in ("olga", "artem", "mark"))
    made = post(client, olga, "tournaments/new", {
        "name": "Первенство, 9–11 лет", "variant": "long", "match_length": 3, "official": True,
        "min_age": 7, "max_age": 11, "category": "men", "self_signup": True,
    })  # fmt: skip
    assert made.status_code == 201, made.content
    slug, year = made.json()["slug"], timezone.localdate().year
    assert post(client, olga, f"tournaments/{slug}/open-registration").status_code == 200
    signup = f"tournaments/{slug}/signups/new"
    refused = post(client, artem, signup, {"display_name": "Артём", "gender": "male",
                                           "birth_year": year - 12})  # fmt: skip
    assert refused.status_code == 403, refused.content
    message = refused.json()["error"]["message"]
    assert "9–11" in message and "12" in message
    assert not Player.objects.filter(entries__tournament__slug=slug).exists()
    entered = post(client, mark, signup,
                   {"display_name": "Марк", "gender": "male", "birth_year": year - 7})  # fmt: skip
    assert entered.status_code == 201, entered.content
