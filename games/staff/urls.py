"""``/staff/``: dispute review pages (mounted by ``indulgence_site/urls.py``)."""

from __future__ import annotations

from django.urls import path

from games.staff import views

app_name = "staff"

urlpatterns = [
    path("disputes/", views.queue, name="queue"),
    path("disputes/<int:dispute_id>/", views.case, name="case"),
    path("disputes/<int:dispute_id>/<slug:action>", views.act, name="act"),
]
