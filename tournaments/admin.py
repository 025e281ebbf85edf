from django.contrib import admin, messages
from django.utils.translation import gettext_lazy as _

from games.models import Game
from tournaments.analysis.models import MatchAnalysis
from tournaments.clubs.models import Club, Membership
from tournaments.errors import TournamentError
from tournaments.models import Entry, Match, Player, Round, Tournament
from tournaments.norms.models import EventStatus, RankNorm
from tournaments.officials.models import Judge, Sanction
from tournaments.players.models import IdentityAudit, PlayerClaim
from tournaments.players.services import (
    claim_approve,
    claim_decline,
    player_rename,
    player_unlink,
)
from tournaments.ratings.audit import audit_record
from tournaments.ratings.ledger import rating_list_of
from tournaments.ratings.models import Rating, RatingAudit, RatingChange, RatingHold, RatingList
from tournaments.ratings.services import ratings_hold_confirm
from tournaments.ratings.work import replay_on_commit
from tournaments.seasons.models import Season
from tournaments.services import tournament_delete
from tournaments.signups.models import SignUp


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    """A player's account link changes only through the identity services (claims, the action
    below, merges), and a new name through the rename (``player_rename``), so that every change
    is in the identity trail."""

    list_display = ["display_name", "home_club", "club", "country", "user", "created_at"]
    list_filter = ["home_club", "country"]
    search_fields = ["display_name", "club"]
    raw_id_fields = ["user"]
    actions = ["unlink"]

    def get_readonly_fields(self, request, obj=None):
        return ["user"] if obj is not None else []

    def save_model(self, request, obj, form, change):
        if not change or "display_name" not in form.changed_data:
            return super().save_model(request, obj, form, change)
        name, obj.display_name = obj.display_name, form.initial["display_name"]
        super().save_model(request, obj, form, change)
        try:
            player_rename(player=obj, by=request.user, name=name)
        except TournamentError as error:
            self.message_user(request, error.message, level=messages.ERROR)

    @admin.action(description=_("Remove the account link of the selected players"))
    def unlink(self, request, queryset):
        for player in queryset.filter(user__isnull=False):
            try:
                player_unlink(player=player, by=request.user)
            except TournamentError as error:
                self.message_user(request, error.message, level=messages.ERROR)
                return
        self.message_user(request, _("The account links are removed."))


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "variant", "format", "status", "club", "organizer", "created_at"]
    list_filter = ["variant", "format", "status"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    raw_id_fields = ["organizer"]
    filter_horizontal = ["co_organizers"]
    inlines = [EntryInline]

    def delete_model(self, request, obj):
        tournament_delete(obj, by=request.user)

    def delete_queryset(self, request, queryset):
        """Deleted tournaments leave the ratings: their lists are replayed."""
        for tournament in queryset:
            tournament_delete(tournament, by=request.user)


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ["player", "tournament", "seed", "withdrawn", "late_entry", "removed_at"]
    list_filter = ["withdrawn", "late_entry", "tournament"]
    search_fields = ["player__display_name", "tournament__name"]
    raw_id_fields = ["player", "tournament"]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["tournament", "number", "created_at"]
    list_filter = ["tournament"]


class GameInline(admin.TabularInline):
    model = Game
    extra = 0
    fields = ["number", "white", "winner", "ending", "value", "stake", "points"]
    readonly_fields = fields


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["__str__", "tournament", "round", "slot", "status", "score_home", "score_away"]
    list_filter = ["status", "tournament"]
    search_fields = ["home__player__display_name", "away__player__display_name", "slot"]
    raw_id_fields = ["tournament", "round", "home", "away", "winner"]
    readonly_fields = ["reported_by", "reported_at", "confirmed_by", "confirmed_at", "decided_at"]
    inlines = [GameInline]

    def delete_model(self, request, obj):
        self.delete_queryset(request, Match.objects.filter(pk=obj.pk))

    def delete_queryset(self, request, queryset):
        """Deleted rated matches leave the ratings: the lists are replayed from the earliest,
        and each list's trail records the deletion."""
        keys = sorted(queryset.filter(decided_at__isnull=False).values_list("decided_at", "pk"))
        rated = queryset.filter(decided_at__isnull=False, tournament__rated=True)
        for match in rated.select_related("tournament", "home__player", "away__player"):
            audit_record(  # the row keeps the match in words once it is gone
                RatingAudit.Action.DELETION,
                rating_list=rating_list_of(match.tournament),
                by=request.user,
                match=match,
            )
        super().delete_queryset(request, queryset)
        if keys:
            moment, match_id = keys[0]
            replay_on_commit((moment, match_id))


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ["__str__", "white", "winner", "ending", "points"]
    list_filter = ["ending"]
    raw_id_fields = ["match"]


@admin.register(RatingList)
class RatingListAdmin(admin.ModelAdmin):
    list_display = ["__str__", "system", "discipline"]


class TrailAdmin(admin.ModelAdmin):
    """An audit trail: read, never written, in the admin."""

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in self.model._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(RatingAudit)
class RatingAuditAdmin(TrailAdmin):
    list_display = ["at", "rating_list", "action", "actor", "note"]
    list_filter = ["rating_list", "action"]
    search_fields = ["note", "actor__username"]


@admin.register(RatingHold)
class RatingHoldAdmin(admin.ModelAdmin):
    """Held changes: a rating officer confirms them here (or through the API)."""

    list_display = ["match", "rating_list", "largest", "status", "created_at", "confirmed_by"]
    list_filter = ["status", "rating_list"]
    readonly_fields = [field.name for field in RatingHold._meta.fields]
    actions = ["confirm"]

    def has_add_permission(self, request):
        return False

    @admin.action(description=_("Confirm the selected held changes"))
    def confirm(self, request, queryset):
        for hold in queryset.filter(status=RatingHold.Status.PENDING):
            try:
                ratings_hold_confirm(hold=hold, by=request.user)
            except TournamentError as error:
                self.message_user(request, error.message, level=messages.ERROR)
                return
        self.message_user(request, _("The changes are confirmed: the lists are replayed."))


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["player", "rating_list", "rating", "experience", "matches", "last_match_at"]
    list_filter = ["rating_list"]
    search_fields = ["player__display_name"]
    readonly_fields = [field.name for field in Rating._meta.fields]


@admin.register(RatingChange)
class RatingChangeAdmin(admin.ModelAdmin):
    """The ledger is written by the rating tasks only: read-only here."""

    list_display = ["player", "rating_list", "match", "finished_at", "before", "after", "delta"]
    list_filter = ["rating_list"]
    search_fields = ["player__display_name"]
    readonly_fields = [field.name for field in RatingChange._meta.fields]

    def has_add_permission(self, request):
        return False


class MembershipInline(admin.TabularInline):
    model = Membership
    extra = 0
    raw_id_fields = ["user"]


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "city", "country", "created_at"]
    search_fields = ["name", "slug", "city"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [MembershipInline]


@admin.register(Season)
class SeasonAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "starts_on", "ends_on", "scoring", "best_of"]
    list_filter = ["club", "scoring"]
    search_fields = ["name", "slug", "club__name"]


@admin.register(Sanction)
class SanctionAdmin(admin.ModelAdmin):
    """The register of disqualifications: staff record each with its reason, from and until;
    a player under one is refused at every entry into an official event."""

    list_display = ["player", "starts_on", "ends_on", "reason", "recorded_by", "recorded_at"]
    list_filter = ["starts_on", "ends_on"]
    search_fields = ["player__display_name", "reason"]
    raw_id_fields = ["player"]
    readonly_fields = ["recorded_by", "recorded_at"]

    def save_model(self, request, obj, form, change):
        if obj.recorded_by_id is None:
            obj.recorded_by = request.user
        super().save_model(request, obj, form, change)


@admin.register(Judge)
class JudgeAdmin(admin.ModelAdmin):
    list_display = ["user", "role", "tournament", "added_at", "added_by"]
    list_filter = ["role"]
    search_fields = ["user__username", "tournament__name"]
    raw_id_fields = ["user", "tournament", "added_by"]


@admin.register(SignUp)
class SignUpAdmin(admin.ModelAdmin):
    list_display = ["player", "tournament", "state", "created_at", "decided_at"]
    list_filter = ["state"]
    search_fields = ["player__display_name", "tournament__name"]
    raw_id_fields = ["player", "tournament", "user", "entry"]


@admin.register(PlayerClaim)
class PlayerClaimAdmin(admin.ModelAdmin):
    """Claims are decided through the services (the actions), never edited: each decision is in
    the identity trail."""

    list_display = ["player", "user", "state", "created_at", "decided_by"]
    list_filter = ["state"]
    search_fields = ["player__display_name", "user__username"]
    readonly_fields = [field.name for field in PlayerClaim._meta.fields]
    actions = ["approve", "decline"]

    def has_add_permission(self, request):
        return False

    def _decide(self, request, queryset, decide) -> None:
        for claim in queryset.filter(state=PlayerClaim.State.PENDING):
            try:
                decide(claim=claim, by=request.user)
            except TournamentError as error:
                self.message_user(request, error.message, level=messages.ERROR)
                return
        self.message_user(request, _("The claims are decided."))

    @admin.action(description=_("Approve the selected claims"))
    def approve(self, request, queryset):
        self._decide(request, queryset, claim_approve)

    @admin.action(description=_("Decline the selected claims"))
    def decline(self, request, queryset):
        self._decide(request, queryset, claim_decline)


@admin.register(IdentityAudit)
class IdentityAuditAdmin(TrailAdmin):
    """A merge is undone on the site's identity page (``/identity/``), by staff."""

    list_display = ["created_at", "action", "actor", "note", "undone_by"]
    list_filter = ["action"]
    search_fields = ["note", "actor__username"]


@admin.register(MatchAnalysis)
class MatchAnalysisAdmin(admin.ModelAdmin):
    list_display = ["match", "status", "plies", "games", "started_at", "finished_at"]
    list_filter = ["status", "plies"]
    raw_id_fields = ["match"]


@admin.register(EventStatus)
class EventStatusAdmin(admin.ModelAdmin):
    list_display = ["name", "code", "order"]
    prepopulated_fields = {"code": ["name"]}


@admin.register(RankNorm)
class RankNormAdmin(admin.ModelAdmin):
    """The table of rank norms staff keep (``manage.py load_rank_norms FILE.csv`` replaces it
    whole). Rows marked ``example`` are the shipped example: the official table could not be
    found."""

    list_display = [
        "status", "discipline", "gender", "rank", "participants_from", "places_up_to", "example"
    ]  # fmt: skip
    list_filter = ["example", "status", "discipline", "gender", "rank"]
