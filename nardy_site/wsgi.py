"""WSGI entry point, e.g. ``gunicorn nardy_site.wsgi``. A worker loads the whole site before its
first request and freezes what it loaded (``freeze_loaded_heap``)."""

import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nardy_site.settings")


def freeze_loaded_heap() -> None:
    """Load every view (the URLconf imports them), then move every object alive into the
    collector's permanent generation. A request that allocates a great deal (a season's table
    from 70 events: a million objects) sets off full collections; without this each walked the
    150,000 objects of the code loaded as well, a third of that page's first drawing."""
    get_resolver().url_patterns  # noqa: B018  (the import is the point)
    gc.collect()
    gc.freeze()


application = get_wsgi_application()
freeze_loaded_heap()
