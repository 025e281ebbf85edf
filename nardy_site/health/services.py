import os
import socket

from nardy_site.health.models import WorkerProbe


def worker_probe_record(*, token: str) -> WorkerProbe:
    """Record that this process ran the probe ``token``; running it twice changes nothing."""
    probe, _created = WorkerProbe.objects.get_or_create(
        token=token,
        defaults={"hostname": socket.gethostname(), "pid": os.getpid()},
    )
    return probe
