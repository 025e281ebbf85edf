"""The demo club of ``make run``: players, and tournaments in every state, made through the
services as an organizer would, with full game records from seeded self-play (so the same data
every time).

* a finished 8-player Long Nardy round robin, every match with its games' records;
* a running 12-player Short Nardy Swiss of 5 rounds, 3 of them played;
* a running 16-player Short Nardy double elimination, its first round played;
* a running 16-player Short Nardy main + consolation bracket, its first round played;
* all of them run by the club "Demo Nardy Club" (its owner is the demo organizer), whose season
  "Autumn Evenings 2026" has three Long Nardy evenings: two finished (the second of two stages:
  groups of three, then a final), one running;
* the club's "Friday Short Nardy Open", open for sign-up now (16 places, 5 taken; check-in 30
  minutes before its start next Friday at 19:00).

Idempotent: a club, season or tournament whose slug exists is left as it is.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from games.rules.selfplay import random_match
from games.services import RecordedGame
from tournaments.clubs.models import Club
from tournaments.clubs.services import club_create
from tournaments.matches import board
from tournaments.matches.results import match_result_record
from tournaments.models import Match, Player, Tournament
from tournaments.ratings.ledger import rating_list_of
from tournaments.ratings.services import ratings_approve
from tournaments.seasons.models import Season
from tournaments.seasons.services import season_create
from tournaments.services import (
    entry_register,
    swiss_round_pair,
    tournament_create,
    tournament_finish,
    tournament_open_registration,
    tournament_start,
)
from tournaments.stages.services import stage_two_build

DEMO_CLUB = "Demo Nardy Club"
DEMO_ORGANIZER = "demo-organizer"
#: The demo club's rating officer, who approves its tournaments as rated.
DEMO_RATING_OFFICER = "demo-rating-officer"
DEMO_PLAYERS = [
    ("Anna Berzina", "LV"),
    ("Arman Petrosyan", "AM"),
    ("Elvin Mammadov", "AZ"),
    ("Giorgi Beridze", "GE"),
    ("Irina Sokolova", "RU"),
    ("Janis Ozols", "LV"),
    ("Leyla Aliyeva", "AZ"),
    ("Mikhail Orlov", "RU"),
    ("Nino Kapanadze", "GE"),
    ("Ruslan Aliev", "AZ"),
    ("Sona Hakobyan", "AM"),
    ("Tatjana Ivanova", "LV"),
    ("Vusal Huseynov", "AZ"),
    ("Zurab Tsiklauri", "GE"),
    ("Dmitri Volkov", "RU"),
    ("Karina Grigoryan", "AM"),
]
#: The demo player's account: linked to the first demo player, who plays in most events.
DEMO_PLAYER_USER = "demo-player"
#: The demo accounts' password, set only while debug is on (``demo_logins``).
DEMO_PASSWORD = "nardy-demo"
DEMO_CLUB_SLUG = "demo-nardy-club"
DEMO_SEASON_SLUG = "autumn-evenings-2026"
DEMO_TOURNAMENT_SLUG = "demo-club-long-nardy"
DEMO_SIGNUP_SLUG = "demo-friday-open"
DEMO_TOURNAMENT_NAME = "Demo Club Long Nardy Championship"


@dataclass(frozen=True)
class DemoSeedResult:
    players_created: int
    tournaments_created: list[str]


@dataclass(frozen=True)
class DemoLogin:
    username: str
    #: None: the account has no usable password (debug is off).
    password: str | None
    role: str


@transaction.atomic
def demo_logins(*, known: bool) -> list[DemoLogin]:
    """The demo accounts: the organizer (who runs the demo club), the rating officer and a player
    (linked to the first demo player). ``known``: they get ``DEMO_PASSWORD``, for a newcomer's
    first look with debug on; else their passwords are made unusable, even if a run with debug on
    set them, so a site with debug off never has a known password."""
    roles = (
        (DEMO_ORGANIZER, "runs the demo club and its tournaments"),
        (DEMO_RATING_OFFICER, "approves the tournaments as rated"),
        (DEMO_PLAYER_USER, f"plays as {DEMO_PLAYERS[0][0]}: reports and records matches"),
    )
    logins = []
    for username, role in roles:
        user, _ = User.objects.get_or_create(username=username)
        if known:
            user.set_password(DEMO_PASSWORD)
        else:
            user.set_unusable_password()
        user.save(update_fields=["password"])
        logins.append(DemoLogin(username, DEMO_PASSWORD if known else None, role))
    player = Player.objects.filter(display_name=DEMO_PLAYERS[0][0], user__isnull=True).first()
    account = User.objects.get(username=DEMO_PLAYER_USER)
    if player is not None and not Player.objects.filter(user=account).exists():
        Player.objects.filter(pk=player.pk).update(user=account)
    return logins


def demo_data_seed() -> DemoSeedResult:
    """Create what is missing of the demo club; rows that exist are kept as they are. Its
    matches' replays are made by their first view: the seed's own cache is lost with it."""
    with board.replays_made_on_first_view():
        return _seed()


@transaction.atomic
def _seed() -> DemoSeedResult:
    organizer, _ = User.objects.get_or_create(username=DEMO_ORGANIZER)
    club = Club.objects.filter(slug=DEMO_CLUB_SLUG).first() or club_create(
        by=organizer,
        name=DEMO_CLUB,
        city="Riga",
        country="LV",
        description="Long Nardy on Tuesdays, Short Nardy on Fridays. Everyone is welcome.",
    )
    players, players_created = [], 0
    for display_name, country in DEMO_PLAYERS:
        player, created = Player.objects.get_or_create(
            display_name=display_name,
            defaults={"club": DEMO_CLUB, "country": country, "home_club": club},
        )
        players.append(player)
        players_created += created
    rng = random.Random(2026)
    made = []
    if not Tournament.objects.filter(slug=DEMO_TOURNAMENT_SLUG).exists():
        made.append(_long_round_robin(organizer, club, players[:8], rng))
    if not Tournament.objects.filter(slug="demo-short-nardy-swiss").exists():
        made.append(_short_swiss(organizer, club, players[:12], rng))
    for format, title in (("double-elimination", "Double Elimination"),
                          ("consolation", "Consolation Cup")):  # fmt: skip
        slug = f"demo-{format}" if format == "double-elimination" else "demo-consolation-cup"
        if not Tournament.objects.filter(slug=slug).exists():
            made.append(_bracket(organizer, club, players, rng, format, title, slug))
    made += _season(organizer, club, players[8:14], rng)
    if not Tournament.objects.filter(slug=DEMO_SIGNUP_SLUG).exists():
        made.append(_open_signup(organizer, club, players[:5]))
    return DemoSeedResult(players_created, made)


def _open_signup(organizer: User, club: Club, players: list[Player]) -> str:
    """A tournament open for sign-up, with a check-in before its start next Friday evening."""
    today = timezone.localdate()
    friday = today + timedelta(days=(4 - today.weekday()) % 7 or 7)
    starts_at = timezone.make_aware(datetime.combine(friday, time(19, 0)))
    tournament = tournament_create(
        organizer=organizer, name="Friday Short Nardy Open", slug=DEMO_SIGNUP_SLUG,
        variant="short", format="swiss", swiss_rounds=4, match_length=3, club=club,
        self_signup=True, capacity=16, starts_at=starts_at, checkin_minutes=30,
    )  # fmt: skip
    tournament = tournament_open_registration(tournament=tournament, by=organizer)
    for player in players:
        entry_register(tournament=tournament, player=player, by=organizer)
    return tournament.slug


def _season(organizer: User, club: Club, players: list[Player], rng: random.Random) -> list[str]:
    """The club's season of three Long Nardy evenings: two finished, the third running."""
    season = Season.objects.filter(club=club, slug=DEMO_SEASON_SLUG).first() or season_create(
        club=club, by=organizer, name="Autumn Evenings 2026", best_of=2
    )
    made = []
    for number in (1, 2, 3):
        slug = f"demo-evening-{number}"
        if Tournament.objects.filter(slug=slug).exists():
            continue
        evening = players[number - 1 :] + players[: number - 1]  # a new seeding each week
        # The second evening has two stages: two groups of three, then a final of the winners.
        stages = {"first_stage": "groups", "groups": 2, "advance": 1,
                  "format": "single-elimination"} if number == 2 else {}  # fmt: skip
        tournament = _entered(
            organizer, evening, name=f"Tuesday Evening {number}", slug=slug, variant="long",
            match_length=1, club=club, season=season, **stages,
        )  # fmt: skip
        if stages:
            for group in tournament.stages.all():
                _play_open_matches(group, organizer, rng)
            _play_open_matches(stage_two_build(event=tournament, by=organizer), organizer, rng)
        else:
            _play_open_matches(tournament, organizer, rng, rounds=None if number < 3 else 1)
        if number < 3:
            tournament_finish(tournament=tournament, by=organizer)
        made.append(slug)
    return made


def _entered(organizer: User, players: list[Player], **settings: object) -> Tournament:
    tournament = tournament_create(organizer=organizer, **settings)  # type: ignore[arg-type]
    officer, _ = User.objects.get_or_create(username=DEMO_RATING_OFFICER)
    rating_list_of(tournament).officers.add(officer)
    tournament = ratings_approve(tournament=tournament, by=officer)
    tournament = tournament_open_registration(tournament=tournament, by=organizer)
    for seed, player in enumerate(players, start=1):
        entry_register(tournament=tournament, player=player, by=organizer, seed=seed)
    return tournament_start(tournament=tournament, by=organizer)


def _long_round_robin(
    organizer: User, club: Club, players: list[Player], rng: random.Random
) -> str:
    tournament = _entered(
        organizer,
        players,
        club=club,
        name=DEMO_TOURNAMENT_NAME,
        slug=DEMO_TOURNAMENT_SLUG,
        variant="long",
        match_length=3,
        tiebreaks=["sonneborn-berger", "direct-encounter", "wins"],
    )
    _play_open_matches(tournament, organizer, rng)
    tournament_finish(tournament=tournament, by=organizer)
    return tournament.slug


def _short_swiss(organizer: User, club: Club, players: list[Player], rng: random.Random) -> str:
    tournament = _entered(
        organizer,
        players,
        club=club,
        name="Demo Short Nardy Swiss",
        slug="demo-short-nardy-swiss",
        variant="short",
        format="swiss",
        swiss_rounds=5,
        match_length=3,
        tiebreaks=["buchholz", "buchholz-cut-1", "sonneborn-berger"],
    )
    for number in range(3):
        if number:
            swiss_round_pair(tournament=tournament, by=organizer)
        _play_open_matches(tournament, organizer, rng)
    return tournament.slug


def _bracket(
    organizer: User,
    club: Club,
    players: list[Player],
    rng: random.Random,
    format: str,
    title: str,
    slug: str,
) -> str:
    tournament = _entered(
        organizer,
        players,
        club=club,
        name=f"Demo {title}",
        slug=slug,
        variant="short",
        format=format,
        match_length=3,
    )
    _play_open_matches(tournament, organizer, rng, rounds=1)
    return tournament.slug


def _play_open_matches(
    tournament: Tournament, organizer: User, rng: random.Random, rounds: int | None = None
) -> None:
    """Record every match that has two sides (or those of the first ``rounds``)."""
    variant = tournament.game_variant()
    matches = tournament.matches.filter(
        status=Match.Status.SCHEDULED, home__isnull=False, away__isnull=False
    )
    if rounds is not None:
        matches = matches.filter(Q(bracket_round__lte=rounds) | Q(round__number__lte=rounds))
    for match in matches.order_by("pk"):
        played = random_match(variant, tournament.match_length or 1, rng)
        games = [RecordedGame(game.white, game.actions) for game in played]
        match_result_record(match=match, by=organizer, games=games)
