"""ASGI entry point (uvicorn indulgence_site.asgi:application), used for live streams."""

import os

from django.core.asgi import get_asgi_application

from indulgence_site.runtime import settle_heap

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "indulgence_site.settings")
application = get_asgi_application()
settle_heap()
