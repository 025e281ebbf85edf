from django.contrib import admin

from nardy_site.accounts.models import ApiToken


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    list_display = ["name", "user", "prefix", "created_at", "last_used_at"]
    search_fields = ["name", "user__username", "prefix"]
    readonly_fields = ["prefix", "key_digest", "created_at", "last_used_at"]
