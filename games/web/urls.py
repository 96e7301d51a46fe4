"""Server-rendered pages (HTMX partials)."""

from django.urls import path

from games.web import views

urlpatterns = [
    path("", views.home, name="home"),
]
