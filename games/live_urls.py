"""URLs of play by notification: live streams, notifications, webhooks, unsubscribe.

Mounted by ``indulgence_site/urls.py`` before ``api/v1/`` (whose catch-all answers any
other address under it with a JSON 404). Each API route also answers with a trailing
slash, like the rest of the API.
"""

from __future__ import annotations

from typing import Any

from django.urls import URLPattern, path

from games import account_api, streams


def _both(route: str, view: Any, name: str) -> list[URLPattern]:
    return [path(route, view, name=name), path(f"{route}/", view)]


urlpatterns: list[URLPattern] = [
    *_both("api/v1/games/<int:game_id>/stream", streams.game_stream, "game-stream"),
    *_both("api/v1/stream", streams.account_stream, "account-stream"),
    *_both("api/v1/notifications", account_api.NotificationsView.as_view(), "notifications"),
    *_both(
        "api/v1/notifications/read",
        account_api.NotificationsReadView.as_view(),
        "notifications-read-all",
    ),
    *_both(
        "api/v1/notifications/<int:notification_id>/read",
        account_api.NotificationsReadView.as_view(),
        "notification-read",
    ),
    *_both(
        "api/v1/notifications/preferences",
        account_api.PreferencesView.as_view(),
        "notification-preferences",
    ),
    *_both("api/v1/webhooks", account_api.WebhooksView.as_view(), "webhooks"),
    *_both("api/v1/webhooks/<int:webhook_id>", account_api.WebhookDetailView.as_view(), "webhook"),
    *_both(
        "api/v1/webhooks/<int:webhook_id>/deliveries",
        account_api.WebhookDeliveriesView.as_view(),
        "webhook-deliveries",
    ),
    path(
        "notifications/unsubscribe/<str:token>",
        account_api.unsubscribe_page,
        name="notifications-unsubscribe",
    ),
]
