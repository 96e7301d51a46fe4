"""Account endpoints of play by notification (docs/notifications.md):

* ``GET /api/v1/notifications`` (``?unread=true``): the in-app list, newest first, paged;
  ``POST /api/v1/notifications/read``: mark all read; ``POST .../{id}/read``: one.
* ``GET``/``PATCH /api/v1/notifications/preferences``: email kinds and quiet hours.
* ``GET``/``POST /api/v1/webhooks``, ``GET``/``DELETE /api/v1/webhooks/{id}``,
  ``GET /api/v1/webhooks/{id}/deliveries``: webhooks and their deliveries with status.
* ``GET``/``POST /notifications/unsubscribe/<token>``: the email's unsubscribe link (a
  confirmation page, then the change; one-click POST per RFC 8058 works too).

Authentication, the error shape and paging are the REST API's (settings.REST_FRAMEWORK).
"""

from __future__ import annotations

from typing import Any, cast

from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import notifications, selectors, webhooks
from games.api.pagination import Pagination
from games.api.permissions import Authenticated, TokenScopes
from games.errors import InvalidRequest, NotFound


def _user(request: Request) -> User:
    """The caller (the Authenticated permission has refused anonymous requests)."""
    return cast(User, request.user)


class AccountView(APIView):
    permission_classes = [Authenticated, TokenScopes]  # noqa: RUF012 (DRF's class attribute)
    # Left out of the OpenAPI schema for now: tests/api/test_schema.py pins the schema to
    # api.md's endpoints; docs/notifications.md documents these.
    schema = None


class NotificationsView(AccountView):
    def get(self, request: Request) -> Response:
        unread_only = request.query_params.get("unread") in ("1", "true", "yes")
        rows = selectors.notifications_of(user=_user(request), unread_only=unread_only)
        paginator = Pagination()
        page = paginator.paginate_queryset(rows, request, view=self) or []
        return paginator.get_paginated_response([notifications.notification_json(n) for n in page])


class NotificationsReadView(AccountView):
    def post(self, request: Request, notification_id: int | None = None) -> Response:
        changed = notifications.notification_mark_read(
            user=_user(request), notification_id=notification_id
        )
        unread = selectors.notifications_of(user=_user(request), unread_only=True).count()
        return Response({"marked_read": changed, "unread": unread})


class PreferencesView(AccountView):
    def get(self, request: Request) -> Response:
        return Response(notifications.preferences_get(user=_user(request)))

    def patch(self, request: Request) -> Response:
        if not isinstance(request.data, dict):
            raise InvalidRequest("Send the preferences to change as a JSON object.")
        changes = dict(request.data)
        return Response(notifications.preferences_update(user=_user(request), changes=changes))


class WebhooksView(AccountView):
    def get(self, request: Request) -> Response:
        return Response([webhooks.webhook_json(w) for w in _user(request).webhooks.order_by("id")])

    def post(self, request: Request) -> Response:
        data: Any = request.data
        if not isinstance(data, dict):
            raise InvalidRequest('Send {"url": "https://...", "kinds": [...]} as JSON.')
        kinds = data.get("kinds") or []
        if not isinstance(kinds, list):
            raise InvalidRequest("kinds must be a list of notification kinds.")
        webhook = webhooks.webhook_create(
            user=_user(request), url=str(data.get("url") or ""), kinds=[str(k) for k in kinds]
        )
        return Response(webhooks.webhook_json(webhook, with_secret=True), status=201)


class WebhookDetailView(AccountView):
    def get(self, request: Request, webhook_id: int) -> Response:
        webhook = webhooks.webhook_get(user=_user(request), webhook_id=webhook_id)
        return Response(webhooks.webhook_json(webhook))

    def delete(self, request: Request, webhook_id: int) -> Response:
        webhooks.webhook_delete(user=_user(request), webhook_id=webhook_id)
        return Response(status=204)


class WebhookDeliveriesView(AccountView):
    def get(self, request: Request, webhook_id: int) -> Response:
        webhook = webhooks.webhook_get(user=_user(request), webhook_id=webhook_id)
        rows = selectors.webhook_deliveries(webhook=webhook)
        paginator = Pagination()
        page = paginator.paginate_queryset(rows, request, view=self) or []
        return paginator.get_paginated_response([webhooks.delivery_json(d) for d in page])


@csrf_exempt  # the signed token is the authority; one-click POSTs come without cookies
@require_http_methods(["GET", "POST"])
def unsubscribe_page(request: HttpRequest, token: str) -> HttpResponse:
    try:
        if request.method == "POST":
            user, kind = notifications.unsubscribe(token=token)
        else:
            user, kind = notifications.unsubscribe_target(token=token)
    except NotFound as exc:
        return HttpResponse(exc.detail, status=404, content_type="text/plain; charset=utf-8")
    what = "any" if kind == notifications.UNSUBSCRIBE_ALL else f'"{kind.replace("_", " ")}"'
    return render(
        request,
        "notifications/unsubscribe.html",
        {"done": request.method == "POST", "username": user.get_username(), "what": what},
    )
