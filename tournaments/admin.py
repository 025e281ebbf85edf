from django.contrib import admin

from tournaments.models import Entry, Player, Tournament


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["display_name", "club", "country", "user", "created_at"]
    list_filter = ["club", "country"]
    search_fields = ["display_name", "club"]
    raw_id_fields = ["user"]


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "variant", "status", "created_at"]
    list_filter = ["variant", "status"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    inlines = [EntryInline]
