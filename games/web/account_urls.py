"""The account's pages beside the settings (games/web/account_views.py): the email
address and its confirmation link, the notifications page and the header's bell."""

from __future__ import annotations

from django.urls import URLPattern, path

from games.web import account_views

urlpatterns: list[URLPattern] = [
    path("settings/email", account_views.email_settings, name="settings-email"),
    path("accounts/email/confirm/<str:token>", account_views.email_confirm, name="email-confirm"),
    path("notifications/", account_views.notifications_page, name="inbox"),
    path("notifications/bell", account_views.bell, name="inbox-bell"),
    path("notifications/read", account_views.notifications_read_all, name="inbox-read-all"),
    path(
        "notifications/<int:notification_id>/read",
        account_views.notification_read,
        name="inbox-read",
    ),
]
