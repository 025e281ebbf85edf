"""ASGI entry point: the site, with the follows of matches being recorded answered before
Django (``tournaments.matches.live.follow``). Production serves it with uvicorn beside gunicorn
for ``/api/v1/matches/<id>/live/next`` (README, Production)."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nardy_site.settings")

django_application = get_asgi_application()

from tournaments.matches.live.follow import follow_router  # noqa: E402  (after Django's setup)

application = follow_router(django_application)
