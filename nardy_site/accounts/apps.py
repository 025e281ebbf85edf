from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class AccountsConfig(AppConfig):
    name = "nardy_site.accounts"
    label = "accounts"
    verbose_name = _("Accounts")

    def ready(self) -> None:
        # Imported for what they register: the system checks, the schema's token schemes.
        from nardy_site.accounts import checks, schema  # noqa: F401, PLC0415
