"""Process set-up shared by the entry points: gunicorn (``wsgi``), uvicorn (``asgi``) and
each Celery worker process (``celery``).

:func:`settle_heap` loads what every request needs, then takes the heap built so far out
of the cyclic garbage collector's reach (``gc.freeze``). A Django process holds about
100,000 objects once its modules, URLconf, serializers and schema are loaded, and every
full collection walked all of them: 60-80 ms each (measured in ``loadtest.cost``'s
process), several a minute under load, each one added to the latency of whatever request
it interrupted, and every young collection paid its share too. Those objects live as long
as the process, so freezing them loses nothing. ``GC_FREEZE=false`` turns it off.
"""

from __future__ import annotations

import gc


def settle_heap() -> None:
    """Import the URLconf (every view, serializer and template tag it reaches), then freeze
    every object alive now into the collector's permanent generation."""
    from django.conf import settings
    from django.urls import get_resolver

    if not settings.GC_FREEZE:
        return

    get_resolver().url_patterns  # noqa: B018 (the import is the point)
    gc.collect()
    gc.freeze()
