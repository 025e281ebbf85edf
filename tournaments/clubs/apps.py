from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class ClubsConfig(AppConfig):
    """An app of its own so that Django loads its models (kept in the tournaments app's tables:
    ``app_label = "tournaments"``), its tasks and its subscriptions."""

    name = "tournaments.clubs"
    label = "tournaments_clubs"
    verbose_name = _("Clubs")
