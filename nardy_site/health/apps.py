from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class HealthConfig(AppConfig):
    name = "nardy_site.health"
    label = "health"
    verbose_name = _("Health")
