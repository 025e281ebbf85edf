"""The Django project: settings, URLs and the Celery application."""

# Load the Celery app with Django so that tasks enqueued from web code use its configuration.
from nardy_site.celery import app as celery_app

__all__ = ("celery_app",)
