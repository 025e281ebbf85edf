from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RatingsConfig(AppConfig):
    """An app of its own so that Django loads its models (kept in the tournaments app's tables:
    ``app_label = "tournaments"``), its tasks and its subscriptions to the results."""

    name = "tournaments.ratings"
    label = "tournaments_ratings"
    verbose_name = _("Ratings")

    def ready(self) -> None:
        from tournaments.matches.signals import result_cleared, result_decided  # noqa: PLC0415
        from tournaments.ratings import receivers  # noqa: PLC0415

        result_decided.connect(receivers.rate_decided, dispatch_uid="ratings.rate_decided")
        result_cleared.connect(receivers.replay_cleared, dispatch_uid="ratings.replay_cleared")
