"""The Celery application. Workers: ``celery -A indulgence_site worker``; beat: ``... beat``."""

from __future__ import annotations

import os
from typing import Any

from celery import Celery, bootsteps
from celery.signals import worker_process_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "indulgence_site.settings")

app = Celery("indulgence_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


class WorkerHeartbeat(bootsteps.StartStopStep):
    """While the worker consumes, write its heartbeat to Redis every
    ``WORKER_HEARTBEAT_SECONDS`` (``/healthz`` reads it: indulgence_site.health)."""

    requires = ("celery.worker.consumer.tasks:Tasks",)

    def __init__(self, parent: Any, **kwargs: Any) -> None:
        super().__init__(parent, **kwargs)
        self.tref: Any = None

    def start(self, c: Any) -> None:
        from indulgence_site import health

        queues = [queue.name for queue in c.task_consumer.queues]
        health.heartbeat_forget(c.hostname, older_than=health.FORGET_AFTER_SECONDS)
        health.heartbeat_write(c.hostname, queues)
        self.tref = c.timer.call_repeatedly(
            health.heartbeat_seconds(), health.heartbeat_write, (c.hostname, queues), priority=10
        )

    def stop(self, c: Any) -> None:
        from indulgence_site import health

        if self.tref is not None:
            self.tref.cancel()
            self.tref = None
            health.heartbeat_forget(c.hostname)

    shutdown = stop


app.steps["consumer"].add(WorkerHeartbeat)


@worker_process_init.connect
def _settle_worker_heap(**_: Any) -> None:
    from indulgence_site.runtime import settle_heap

    settle_heap()
