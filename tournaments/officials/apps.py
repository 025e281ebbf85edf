from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class OfficialsConfig(AppConfig):
    """An app of its own so that Django loads its models (kept in the tournaments app's tables:
    ``app_label = "tournaments"``)."""

    name = "tournaments.officials"
    label = "tournaments_officials"
    verbose_name = _("Judges and sanctions")
