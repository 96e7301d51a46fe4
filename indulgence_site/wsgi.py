"""WSGI entry point (gunicorn indulgence_site.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

from indulgence_site.runtime import settle_heap

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "indulgence_site.settings")
application = get_wsgi_application()
settle_heap()
