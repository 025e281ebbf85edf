from celery import shared_task
from django.db import OperationalError

from nardy_site.health.services import worker_probe_record


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, max_retries=5)
def health_ping(token: str) -> None:
    """Write a WorkerProbe row for ``token``: proof that a worker picks up tasks and reaches
    the database."""
    worker_probe_record(token=token)
