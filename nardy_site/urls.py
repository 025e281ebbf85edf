from typing import Any

from django.contrib import admin
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.decorators.http import require_safe
from django.views.generic import RedirectView
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SpectacularAPIView, SpectacularRedocView, SpectacularSwaggerView

from nardy_site.health.views import healthz


class RedocView(SpectacularRedocView):
    """Redoc as drf-spectacular serves it, with its one outside request (the Redocly logo of its
    footer, https://cdn.redoc.ly) refused by the browser: the page loads only the site's files."""

    @extend_schema(exclude=True)
    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = super().get(request, *args, **kwargs)
        response["Content-Security-Policy"] = "img-src 'self' data:"
        return response


urlpatterns = [
    # First: the API's requests (a phone's entry at the table, many a second) are resolved
    # without trying every page's pattern; no page's address starts with it.
    path("api/v1/", include("tournaments.api.urls")),
    path("", include("tournaments.web.urls")),
    path("accounts/", include("nardy_site.accounts.urls")),
    path("healthz", healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("api/schema/", SpectacularAPIView.as_view(), name="api-schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="api-schema"), name="api-docs"),
    path("api/redoc/", RedocView.as_view(url_name="api-schema"), name="api-redoc"),
    # Where people look for the API first: its documentation.
    path(
        "api/",
        RedirectView.as_view(pattern_name="api-docs", http_method_names=["get", "head"]),
        name="api-root",
    ),
    # Browsers ask for /favicon.ico whatever the page says: the site's icon, from its static files.
    path(
        "favicon.ico",
        require_safe(lambda request: redirect(static("nardy/favicon.svg"))),
        name="favicon",
    ),
]
