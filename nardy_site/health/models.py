from django.db import models
from django.utils.translation import gettext_lazy as _


class WorkerProbe(models.Model):
    """A row written by the ``health_ping`` task, proving that a worker ran it."""

    token = models.CharField(_("token"), max_length=64, unique=True)
    hostname = models.CharField(_("host name"), max_length=255)
    pid = models.PositiveIntegerField(_("process id"))
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("worker probe")
        verbose_name_plural = _("worker probes")

    def __str__(self) -> str:
        return f"{self.token} by {self.hostname}:{self.pid}"
