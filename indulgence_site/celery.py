"""The Celery application. Workers: ``celery -A indulgence_site worker``; beat: ``... beat``."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "indulgence_site.settings")

app = Celery("indulgence_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
