from django.db.models import Count, QuerySet

from tournaments.models import Tournament


def tournament_list() -> QuerySet[Tournament]:
    """All tournaments, newest first, each with ``entry_count``."""
    return Tournament.objects.annotate(entry_count=Count("entries"))
