"""Top-level URL configuration."""

from django.contrib import admin
from django.contrib.auth.views import LoginView
from django.urls import include, path

from games.mail_limits import password_reset_view
from games.web.ratelimit import rate_limited
from indulgence_site.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    # The admin's log-in counts against the same limits as the site's (games.web.ratelimit).
    path("admin/login/", rate_limited("login")(admin.site.login)),
    path("admin/", admin.site.urls),
    path("staff/", include("games.staff.urls")),  # dispute review (games/staff)
    # Live streams, notifications, webhooks (games/live_urls.py): before the API catch-all.
    path("", include("games.live_urls")),
    path("api/v1/", include("games.api_disputes")),  # before games.api.urls' catch-all 404
    path("api/v1/", include("games.api.urls")),
    # Log-in attempts are rate limited (games.web.ratelimit); the rest of auth as Django's.
    path("accounts/login/", rate_limited("login")(LoginView.as_view()), name="login"),
    # Password resets send mail: limited, and the mail goes out from the task queue.
    path("accounts/password_reset/", password_reset_view, name="password_reset"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("games.web.urls")),
]

# JSON errors under /api/ (Django's own pages elsewhere): games.api.exceptions.
handler400 = "games.api.exceptions.handler400"
handler403 = "games.api.exceptions.handler403"
handler404 = "games.api.exceptions.handler404"
handler500 = "games.api.exceptions.handler500"
