from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class NormsConfig(AppConfig):
    """An app of its own so that Django loads its models (kept in the tournaments app's tables:
    ``app_label = "tournaments"``)."""

    name = "tournaments.norms"
    label = "tournaments_norms"
    verbose_name = _("Rank norms")
