"""Top-level URL configuration."""

from django.contrib import admin
from django.urls import include, path

from indulgence_site.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("games.web.urls")),
]
