"""The Celery application. Workers: ``celery -A indulgence_site worker``; beat: ``... beat``."""

from __future__ import annotations

import os
from typing import Any

from celery import Celery
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "indulgence_site.settings")

app = Celery("indulgence_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_process_init.connect
def _settle_worker_heap(**_: Any) -> None:
    from indulgence_site.runtime import settle_heap

    settle_heap()
