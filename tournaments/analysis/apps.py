from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AnalysisConfig(AppConfig):
    """An app of its own so that Django loads its models (kept in the tournaments app's tables:
    ``app_label = "tournaments"``), its tasks and its subscriptions to the results."""

    name = "tournaments.analysis"
    label = "tournaments_analysis"
    verbose_name = _("Match analysis")

    def ready(self) -> None:
        from tournaments.analysis import receivers  # noqa: PLC0415
        from tournaments.matches.signals import result_cleared, result_decided  # noqa: PLC0415

        result_decided.connect(receivers.analyse, dispatch_uid="analysis.analyse_decided")
        result_cleared.connect(receivers.analyse, dispatch_uid="analysis.analyse_cleared")
