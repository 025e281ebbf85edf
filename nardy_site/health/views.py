from django.http import HttpRequest, JsonResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from nardy_site.health.checks import analysis_status, broker_status, database_status


@require_safe
@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database and (if configured) the broker answer, 503 otherwise. Match
    analysis is reported, never a fault: a server without gnubg simply analyses nothing."""
    database = database_status()
    broker = broker_status()
    healthy = database == "ok" and broker in ("ok", "eager")
    return JsonResponse(
        {"status": "ok" if healthy else "error", "database": database, "broker": broker,
         "analysis": analysis_status()},
        status=200 if healthy else 503,
    )  # fmt: skip
