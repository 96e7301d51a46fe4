"""ASGI entry point (uvicorn indulgence_site.asgi:application), used for live streams."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "indulgence_site.settings")
application = get_asgi_application()
