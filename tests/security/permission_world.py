"""The world the permission matrix (test_permission_matrix.py) tries every write in, made once
per test module through the services, as a club's season makes it:

- **Riga**, owned by Rhea, with Olga as an organizer and Mel as a plain member. Its players (its
  records: their home club is Riga) are Anna (the account "anna"), Boris ("boris"), Carl, Dina,
  Eva (claimed by the account "kim", undecided), Fedor, Hana and "Hana K." (a duplicate to
  merge), and the pair Duo of Carl and Dina (renamed once). Gleb was merged into Fedor.
- Olga organizes Riga's tournaments: **cup** (Short Nardy, running: Anna plays Boris),
  **blitz** (Long Nardy with a clock, running: Anna plays Boris), **spring** (registration with
  approval and a check-in open now: Anna entered, Mila's sign-up waiting), **open** (sign-up
  open to all), **pairs-open** (pairs, sign-up open: Boris names Anna as his partner), **draft**
  (a draft), **event** (two stages, stage 1 decided) and the season **2026**, where cup counts.
- **Tallinn**, owned by Otto, whose evening has Anna and Boris entered (they played there):
  playing in his event gives him no right over them.
- Rita is a rating officer of the Short Nardy FIBS list, which holds a change of cup for her;
  Sam is staff; Nina is signed in with no role at all.

Personas: anonymous, signed_in (Nina), player (Anna, a player of the match), other_organizer
(Otto), organizer (Olga, of the owner club), rating_officer (Rita) and staff (Sam).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timedelta

from django.contrib.auth.models import User
from django.utils import timezone

from nardy_site.accounts.models import ApiToken
from tournaments import services
from tournaments.clubs.models import Club, Membership
from tournaments.clubs.services import club_create, member_add
from tournaments.matches.results import match_result_record
from tournaments.models import Entry, Match, Player, Tournament
from tournaments.players.models import IdentityAudit, PlayerClaim
from tournaments.players.pairs import pair_of
from tournaments.players.services import claim_request, player_rename, players_merge
from tournaments.ratings.ledger import rating_list_of
from tournaments.ratings.models import RatingHold
from tournaments.seasons.services import season_create, season_event_set
from tournaments.signups.models import SignUp
from tournaments.signups.services import signup_request

PERSONAS = (
    "anonymous", "signed_in", "player", "other_organizer", "organizer", "rating_officer", "staff",
)  # fmt: skip
ACCOUNTS = {
    "signed_in": "nina", "player": "anna", "other_organizer": "otto", "organizer": "olga",
    "rating_officer": "rita", "staff": "sam",
}  # fmt: skip


@dataclass
class World:
    """The ids of what the rows name (the rows read the rows again: each test rolls back)."""

    users: dict[str, int] = field(default_factory=dict)
    players: dict[str, int] = field(default_factory=dict)
    ids: dict[str, int] = field(default_factory=dict)

    def user(self, persona: str) -> User | None:
        name = ACCOUNTS.get(persona)
        return None if name is None else User.objects.get(pk=self.users[name])

    def account(self, name: str) -> User:
        return User.objects.get(pk=self.users[name])

    def player(self, name: str) -> Player:
        return Player.objects.get(pk=self.players[name])

    def tournament(self, slug: str) -> Tournament:
        return Tournament.objects.get(slug=slug)

    def match(self, slug: str) -> Match:
        """Anna's match against Boris in the tournament."""
        return Match.objects.get(pk=self.ids[f"match:{slug}"])

    def entry(self, slug: str, name: str) -> Entry:
        return Entry.objects.get(tournament__slug=slug, player_id=self.players[name])


def build() -> World:
    world = World()
    for name in ("nina", "anna", "otto", "olga", "rita", "sam", "rhea", "boris", "mel", "kim",
                 "mila"):  # fmt: skip
        world.users[name] = User.objects.create_user(name, is_staff=name == "sam").pk
    user = world.account
    riga = club_create(by=user("rhea"), name="Riga")
    member_add(club=riga, by=user("rhea"), username="olga", role=Membership.Role.ORGANIZER)
    member_add(club=riga, by=user("rhea"), username="mel")
    tallinn = club_create(by=user("otto"), name="Tallinn")
    world.ids["riga"], world.ids["tallinn"] = riga.pk, tallinn.pk

    accounts = {"Anna": "anna", "Boris": "boris", "Mila": "mila"}
    for name in ("Anna", "Boris", "Carl", "Dina", "Eva", "Fedor", "Gleb", "Hana", "Hana K.",
                 "Mila"):  # fmt: skip
        account = accounts.get(name)
        player = Player.objects.create(
            display_name=name, home_club=riga, user=None if account is None else user(account)
        )
        world.players[name] = player.pk
    player = world.player
    olga = user("olga")

    # The identity trail: a claim waiting, a merge and a rename to undo.
    world.ids["claim"] = claim_request(player=player("Eva"), by=user("kim")).pk
    players_merge(keep=player("Fedor"), drop=player("Gleb"), by=olga)
    world.ids["merge"] = IdentityAudit.objects.get(action=IdentityAudit.Action.MERGED).pk
    duo = pair_of(player("Carl"), player("Dina"), "Baltic Duo", home=riga)
    world.players["Duo"] = duo.player_id
    player_rename(player=duo.player, by=olga, name="Duo")
    world.ids["rename"] = IdentityAudit.objects.get(action=IdentityAudit.Action.RENAMED).pk

    # Riga's tournaments, all Olga's.
    def tournament(slug: str, variant: str, names: list[str], **rules) -> Tournament:
        made = services.tournament_create(
            organizer=olga, name=slug.title(), slug=slug, variant=variant, club=riga, **rules
        )
        made = services.tournament_open_registration(tournament=made, by=olga)
        for name in names:
            services.entry_register(tournament=made, player=player(name), by=olga)
        return made

    for slug, variant, rules in (("cup", "short", {"match_length": 3}),
                                 ("blitz", "long", {"match_length": 3, "time_control": {
                                     "kind": "increment", "base_seconds": 600,
                                     "per_move_seconds": 5}})):  # fmt: skip
        made = tournament(slug, variant, ["Anna", "Boris", "Carl", "Dina"], **rules)
        services.tournament_start(tournament=made, by=olga)
        world.ids[f"match:{slug}"] = Match.objects.get(
            tournament=made,
            home__player__display_name__in=["Anna", "Boris"],
            away__player__display_name__in=["Anna", "Boris"],
        ).pk
    spring = tournament(
        "spring", "long", ["Anna", "Carl"], match_length=1, self_signup=True,
        signup_approval=True, starts_at=timezone.now() + timedelta(minutes=10),
        checkin_minutes=60,
    )  # fmt: skip
    signup_request(tournament=spring, by=user("mila"))
    world.ids["signup"] = SignUp.objects.get(tournament=spring).pk
    tournament("open", "long", [], match_length=1, self_signup=True)
    pairs_open = tournament(
        "pairs-open", "short", [], match_length=3, pairs=True, self_signup=True
    )  # fmt: skip
    signup_request(tournament=pairs_open, by=user("boris"), partner="Anna")
    world.ids["partner-signup"] = SignUp.objects.get(tournament=pairs_open).pk
    services.tournament_create(
        organizer=olga, name="Draft", slug="draft", variant="long", club=riga
    )  # fmt: skip
    event = tournament(
        "event", "long", ["Carl", "Dina", "Eva", "Fedor"], match_length=1,
        format="single-elimination", first_stage="groups", groups=2, advance=1,
    )  # fmt: skip
    services.tournament_start(tournament=event, by=olga)
    for match in Match.objects.filter(tournament__parent=event).exclude(away=None):
        match_result_record(match=match, by=olga, score=(1, 0))

    season = season_create(club=riga, by=olga, name="2026")
    season_event_set(tournament=Tournament.objects.get(slug="cup"), season=season, by=olga)

    # Tallinn's evening: Otto entered Anna and Boris.
    evening = services.tournament_create(
        organizer=user("otto"), name="Evening", slug="evening", variant="long", club=tallinn,
        match_length=1,
    )  # fmt: skip
    evening = services.tournament_open_registration(tournament=evening, by=user("otto"))
    for name in ("Anna", "Boris"):
        services.entry_register(tournament=evening, player=player(name), by=user("otto"))

    # Rita's list, and a change of cup held for her.
    cup = Tournament.objects.get(slug="cup")
    rating_list = rating_list_of(cup)
    rating_list.officers.add(user("rita"))
    rating_list_of(Tournament.objects.get(slug="event")).officers.add(user("rita"))
    world.ids["hold"] = RatingHold.objects.create(
        rating_list=rating_list, match=world.match("cup"), largest=120.0
    ).pk
    world.ids["token"] = ApiToken.issue(user=user("anna"), name="phone")[0].pk
    assert Club.objects.count() == 2 and not PlayerClaim.objects.exclude(state="pending").exists()
    return world
