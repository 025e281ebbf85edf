"""The Celery application. Its settings are the Django settings prefixed with ``CELERY_``."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nardy_site.settings")

# DjangoTask adds delay_on_commit(): tasks are enqueued only once the transaction commits.
app = Celery("nardy_site", task_cls="celery.contrib.django.task:DjangoTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
