"""Indulgence Online: the Django project (settings, URLs, Celery app, ASGI/WSGI)."""

from indulgence_site.celery import app as celery_app

__all__ = ("celery_app",)
