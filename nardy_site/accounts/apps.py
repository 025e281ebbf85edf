from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "nardy_site.accounts"
    label = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        from nardy_site.accounts import checks  # noqa: F401, PLC0415  (registers the checks)
