from django.contrib import admin
from django.urls import include, path

from nardy_site.health.views import healthz
from tournaments.views import home

urlpatterns = [
    path("", home, name="home"),
    path("healthz", healthz, name="healthz"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
]
