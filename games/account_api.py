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

import unicodedata
from typing import Any, cast
from urllib.parse import urlsplit

from django.contrib.auth.models import User
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import notifications, selectors, webhooks
from games.api.pagination import Pagination
from games.api.parsers import LimitedJSONParser, refuse_oversized
from games.api.permissions import Authenticated, TokenScopes
from games.api.schema import READ_CODES, WRITE_CODES, ApiAutoSchema, errors
from games.errors import InvalidRequest, NotFound
from games.models import DeliveryStatus, EmailStatus, NotificationKind

WEBHOOK_URL_MAX = 500


def webhook_url_problem(url: Any) -> str | None:
    """Why ``url`` cannot be a webhook address, by its spelling alone (where it points is
    games.webhooks' to judge), or None: a string of at most 500 characters, without
    spaces or control characters, ``http``/``https``, a host, a port in 1-65535."""
    must = "The webhook URL must be an http:// or https:// address"
    if not isinstance(url, str):
        return f"{must}, sent as a string."
    if len(url) > WEBHOOK_URL_MAX:
        return f"The webhook URL may be at most {WEBHOOK_URL_MAX} characters long."
    if any(ch.isspace() or unicodedata.category(ch).startswith("C") for ch in url):
        return f"{must}, without spaces or control characters."
    try:
        parts = urlsplit(url)
        port = parts.port  # ValueError: not a number, or out of 0-65535
        host = parts.hostname
        if host and ":" not in host:
            host.encode("idna")  # UnicodeError: an empty or over-long label
    except (ValueError, UnicodeError):
        return f"{must} with a valid host and port."
    if parts.scheme not in ("http", "https") or not host:
        return f"{must}."
    if port == 0:
        return f"{must} with a valid host and port."
    return None


def _user(request: Request) -> User:
    """The caller (the Authenticated permission has refused anonymous requests)."""
    return cast(User, request.user)


# --- documented shapes (the OpenAPI schema only: the views return the helpers' dicts) ----

# The account views take the same bodies as the game API: JSON, at most 64 KiB (413).
ACCOUNT_WRITE_CODES = WRITE_CODES
# Writes that read no body.
BODILESS_WRITE_CODES = ("not_authenticated", "insufficient_scope", "csrf_failed")
PAGE_PARAMETERS = [
    OpenApiParameter("limit", int, description="Page size (default 50, at most 200)."),
    OpenApiParameter("offset", int, description="How many entries to skip."),
]
WEBHOOK_ID = OpenApiParameter(
    "webhook_id", int, OpenApiParameter.PATH, description="The webhook's id."
)
NOTIFICATION_ID = OpenApiParameter(
    "notification_id", int, OpenApiParameter.PATH, description="The notification's id."
)


class NotificationResponse(serializers.Serializer[dict[str, Any]]):
    """games.notifications.notification_json."""

    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=NotificationKind.choices)
    game = serializers.IntegerField(allow_null=True, help_text="The game's id; null: none.")
    title = serializers.CharField(allow_blank=True)
    body = serializers.CharField(allow_blank=True)
    url = serializers.CharField(allow_blank=True, help_text="A site path to open, or empty.")
    created_at = serializers.DateTimeField()
    read = serializers.BooleanField()
    email = serializers.ChoiceField(
        choices=EmailStatus.choices, help_text="The email's state ('none': no email)."
    )

    def get_fields(self) -> dict[str, serializers.Field[Any, Any, Any, Any]]:
        fields = dict(super().get_fields())
        # Added here: a class attribute "data" would shadow Serializer.data.
        fields["data"] = serializers.DictField(help_text="Kind-specific: seat, deadline, ...")
        order = ("id", "kind", "game", "title", "body", "url", "data")  # notification_json's
        return {name: fields[name] for name in (*order, *fields)}


class NotificationPageResponse(serializers.Serializer[dict[str, Any]]):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = NotificationResponse(many=True)


class MarkedReadResponse(serializers.Serializer[dict[str, Any]]):
    marked_read = serializers.IntegerField(help_text="How many notifications this changed.")
    unread = serializers.IntegerField(help_text="How many are still unread.")


class QuietHoursShape(serializers.Serializer[dict[str, Any]]):
    start = serializers.CharField(help_text="HH:MM, local time.")
    end = serializers.CharField(help_text="HH:MM, local time (may be before start).")
    timezone = serializers.CharField(help_text="An IANA time zone, e.g. Europe/Rome.")


class QuietHoursRequest(serializers.Serializer[dict[str, Any]]):
    start = serializers.CharField(help_text="HH:MM, local time.")
    end = serializers.CharField(help_text="HH:MM, local time (may be before start).")
    timezone = serializers.CharField(required=False, help_text="An IANA time zone (UTC).")


def _email_flag(kind: str, **options: Any) -> serializers.BooleanField:
    return serializers.BooleanField(help_text=f"Email '{kind}' notifications.", **options)


class PreferencesResponse(serializers.Serializer[dict[str, Any]]):
    """games.notifications.preferences_get."""

    email_your_turn = _email_flag("your_turn")
    email_reminder = _email_flag("reminder")
    email_game_finished = _email_flag("game_finished")
    email_dispute_update = _email_flag("dispute_update")
    email_seat_handed_to_bot = _email_flag("seat_handed_to_bot")
    email_challenge = _email_flag("challenge")
    quiet_hours = QuietHoursShape(
        allow_null=True, help_text="Emails due in these hours are held; null: none."
    )


class PreferencesRequest(serializers.Serializer[dict[str, Any]]):
    email_your_turn = _email_flag("your_turn", required=False)
    email_reminder = _email_flag("reminder", required=False)
    email_game_finished = _email_flag("game_finished", required=False)
    email_dispute_update = _email_flag("dispute_update", required=False)
    email_seat_handed_to_bot = _email_flag("seat_handed_to_bot", required=False)
    email_challenge = _email_flag("challenge", required=False)
    quiet_hours = QuietHoursRequest(
        required=False, allow_null=True, help_text="null turns quiet hours off."
    )


class WebhookResponse(serializers.Serializer[dict[str, Any]]):
    """games.webhooks.webhook_json."""

    id = serializers.IntegerField()
    url = serializers.CharField()
    kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=NotificationKind.choices),
        help_text="The notification kinds sent; empty: every kind.",
    )
    active = serializers.BooleanField()
    created_at = serializers.DateTimeField()


class WebhookCreatedResponse(WebhookResponse):
    secret = serializers.CharField(
        help_text="The HMAC-SHA256 signing secret. Shown this once only."
    )


class WebhookCreateRequest(serializers.Serializer[dict[str, Any]]):
    url = serializers.CharField(help_text="An http:// or https:// address (500 characters).")
    kinds = serializers.ListField(
        child=serializers.ChoiceField(choices=NotificationKind.choices),
        required=False,
        help_text="The notification kinds to send; omitted or empty: every kind.",
    )


class DeliveryResponse(serializers.Serializer[dict[str, Any]]):
    """games.webhooks.delivery_json."""

    id = serializers.IntegerField(help_text="Also sent as X-Indulgence-Delivery.")
    kind = serializers.CharField(help_text="The notification kind (X-Indulgence-Event).")
    status = serializers.ChoiceField(choices=DeliveryStatus.choices)
    attempts = serializers.IntegerField()
    next_attempt_at = serializers.DateTimeField(
        allow_null=True, help_text="When it is tried next (pending and retrying only)."
    )
    last_status_code = serializers.IntegerField(allow_null=True)
    last_error = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()
    delivered_at = serializers.DateTimeField(allow_null=True)
    body = serializers.DictField(help_text="The JSON body POSTed (and signed).")


class DeliveryPageResponse(serializers.Serializer[dict[str, Any]]):
    count = serializers.IntegerField()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = DeliveryResponse(many=True)


NOTIFICATION_EXAMPLE_VALUE = {
    "id": 31,
    "kind": "your_turn",
    "game": 7,
    "title": "Your turn in game 7",
    "body": "It is your turn to play.",
    "url": "/games/7/",
    "data": {"seat": 1, "deadline": "2026-11-23T03:00:00+00:00"},
    "created_at": "2026-11-22T03:00:00+00:00",
    "read": False,
    "email": "sent",
}
PREFERENCES_EXAMPLE_VALUE = {
    "email_your_turn": True,
    "email_reminder": True,
    "email_game_finished": True,
    "email_dispute_update": True,
    "email_seat_handed_to_bot": False,
    "email_challenge": True,
    "quiet_hours": {"start": "22:00", "end": "07:30", "timezone": "Europe/Rome"},
}
WEBHOOK_EXAMPLE_VALUE = {
    "id": 3,
    "url": "https://bots.example.com/indulgence",
    "kinds": ["your_turn", "game_finished"],
    "active": True,
    "created_at": "2026-11-22T03:00:00+00:00",
}
DELIVERY_EXAMPLE_VALUE = {
    "id": 120,
    "kind": "your_turn",
    "status": "succeeded",
    "attempts": 1,
    "next_attempt_at": None,
    "last_status_code": 200,
    "last_error": "",
    "created_at": "2026-11-22T03:00:00+00:00",
    "delivered_at": "2026-11-22T03:00:01+00:00",
    "body": {
        "delivery": 120,
        "webhook": 3,
        "type": "your_turn",
        "game": 7,
        "version": 12,
        "notification": 31,
        "title": "Your turn in game 7",
        "body": "It is your turn to play.",
        "url": "/games/7/",
        "data": {"seat": 1},
    },
}


def _page_example(name: str, item: dict[str, Any]) -> OpenApiExample:
    return OpenApiExample(
        name,
        value={"count": 1, "next": None, "previous": None, "results": [item]},
        response_only=True,
        status_codes=["200"],
    )


MARKED_READ_EXAMPLE = OpenApiExample(
    "Marked read", value={"marked_read": 1, "unread": 2}, response_only=True, status_codes=["200"]
)


# --- views -------------------------------------------------------------------------------


class AccountView(APIView):
    permission_classes = [Authenticated, TokenScopes]  # noqa: RUF012 (DRF's class attribute)
    parser_classes = [LimitedJSONParser]  # noqa: RUF012
    schema = ApiAutoSchema()

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        refuse_oversized(request)  # 413 payload_too_large, as in the game API
        super().initial(request, *args, **kwargs)


class NotificationsView(AccountView):
    @extend_schema(
        operation_id="notifications_list",
        summary="Your notifications",
        description=(
            "The in-app list, newest first, paginated with limit/offset; `unread=true`: "
            "only the unread ones. Each one is also an event of `GET /api/v1/stream`."
        ),
        parameters=[
            OpenApiParameter(
                "unread", bool, description="true (or 1, yes): only unread notifications."
            ),
            *PAGE_PARAMETERS,
        ],
        responses={200: NotificationPageResponse, **errors(*READ_CODES)},
        examples=[_page_example("A page of notifications", NOTIFICATION_EXAMPLE_VALUE)],
        tags=["notifications"],
    )
    def get(self, request: Request) -> Response:
        unread_only = request.query_params.get("unread") in ("1", "true", "yes")
        rows = selectors.notifications_of(user=_user(request), unread_only=unread_only)
        paginator = Pagination()
        page = paginator.paginate_queryset(rows, request, view=self) or []
        return paginator.get_paginated_response([notifications.notification_json(n) for n in page])


class MarkReadSchema(ApiAutoSchema):
    """One view serves ``notifications/read`` (all) and ``notifications/{id}/read`` (one):
    each route is documented as what it does."""

    def _one(self) -> bool:
        return "{notification_id}" in self.path

    def get_operation_id(self) -> str:
        return "notifications_read" if self._one() else "notifications_read_all"

    def get_summary(self) -> str:
        return "Mark one notification read" if self._one() else "Mark every notification read"

    def get_description(self) -> str:  # type: ignore[override]  # drf-spectacular's
        if self._one():
            return "`marked_read` is 0 when it was read already."
        return "Marks every unread notification read; `unread` is then 0."

    def get_override_parameters(self) -> list[Any]:
        return [NOTIFICATION_ID] if self._one() else []

    def get_response_serializers(self) -> Any:
        codes = ("not_found", *BODILESS_WRITE_CODES) if self._one() else BODILESS_WRITE_CODES
        return {200: MarkedReadResponse, **errors(*codes)}


class NotificationsReadView(AccountView):
    schema = MarkReadSchema()

    @extend_schema(request=None, examples=[MARKED_READ_EXAMPLE], tags=["notifications"])
    def post(self, request: Request, notification_id: int | None = None) -> Response:
        changed = notifications.notification_mark_read(
            user=_user(request), notification_id=notification_id
        )
        unread = selectors.notifications_of(user=_user(request), unread_only=True).count()
        return Response({"marked_read": changed, "unread": unread})


class PreferencesView(AccountView):
    @extend_schema(
        operation_id="notifications_preferences_retrieve",
        summary="Your notification preferences",
        description="Which kinds are emailed (a kind never set is on), and the quiet hours.",
        responses={200: PreferencesResponse, **errors(*READ_CODES)},
        examples=[
            OpenApiExample(
                "Preferences",
                value=PREFERENCES_EXAMPLE_VALUE,
                response_only=True,
                status_codes=["200"],
            )
        ],
        tags=["notifications"],
    )
    def get(self, request: Request) -> Response:
        return Response(notifications.preferences_get(user=_user(request)))

    @extend_schema(
        operation_id="notifications_preferences_update",
        summary="Change notification preferences",
        description=(
            "Send any of the keys; the others stay as they are. Emails due during quiet "
            "hours (which may span midnight) are held until they end. Returns every "
            "preference."
        ),
        request=PreferencesRequest,
        responses={
            200: OpenApiResponse(PreferencesResponse, description="Every preference, after."),
            **errors("invalid_request", *ACCOUNT_WRITE_CODES),
        },
        examples=[
            OpenApiExample(
                "Quiet nights, no reminder emails",
                value={
                    "email_reminder": False,
                    "quiet_hours": {"start": "22:00", "end": "07:30", "timezone": "Europe/Rome"},
                },
                request_only=True,
            ),
            OpenApiExample("No quiet hours", value={"quiet_hours": None}, request_only=True),
            OpenApiExample(
                "Preferences",
                value=PREFERENCES_EXAMPLE_VALUE,
                response_only=True,
                status_codes=["200"],
            ),
        ],
        tags=["notifications"],
    )
    def patch(self, request: Request) -> Response:
        if not isinstance(request.data, dict):
            raise InvalidRequest("Send the preferences to change as a JSON object.")
        changes = dict(request.data)
        return Response(notifications.preferences_update(user=_user(request), changes=changes))


class WebhooksView(AccountView):
    @extend_schema(
        operation_id="webhooks_list",
        summary="Your webhooks",
        description="Oldest first (at most 5), without their secrets.",
        responses={200: WebhookResponse(many=True), **errors(*READ_CODES)},
        examples=[
            OpenApiExample(
                "Webhooks",
                value=WEBHOOK_EXAMPLE_VALUE,  # drf-spectacular lists a list's example
                response_only=True,
                status_codes=["200"],
            )
        ],
        tags=["webhooks"],
    )
    def get(self, request: Request) -> Response:
        return Response([webhooks.webhook_json(w) for w in _user(request).webhooks.order_by("id")])

    @extend_schema(
        operation_id="webhooks_create",
        summary="Register a webhook",
        description=(
            "Every notification of the chosen kinds is POSTed to the URL as JSON, signed "
            "with the secret (header X-Indulgence-Signature: sha256=HMAC-SHA256(secret, "
            "timestamp + '.' + body)) and retried with backoff. The response carries the "
            "secret: it is shown this once only. At most 5 per account."
        ),
        request=WebhookCreateRequest,
        responses={
            201: WebhookCreatedResponse,
            **errors("invalid_request", *ACCOUNT_WRITE_CODES),
        },
        examples=[
            OpenApiExample(
                "Turns and results",
                value={
                    "url": "https://bots.example.com/indulgence",
                    "kinds": ["your_turn", "game_finished"],
                },
                request_only=True,
            ),
            OpenApiExample(
                "Created",
                value={**WEBHOOK_EXAMPLE_VALUE, "secret": "9f86d081884c7d65" * 4},
                response_only=True,
                status_codes=["201"],
            ),
        ],
        tags=["webhooks"],
    )
    def post(self, request: Request) -> Response:
        data: Any = request.data
        if not isinstance(data, dict):
            raise InvalidRequest('Send {"url": "https://...", "kinds": [...]} as JSON.')
        kinds = data.get("kinds") or []
        if not isinstance(kinds, list):
            raise InvalidRequest("kinds must be a list of notification kinds.")
        url = data.get("url")
        problem = webhook_url_problem(url)
        if problem:
            raise InvalidRequest(problem)
        webhook = webhooks.webhook_create(
            user=_user(request), url=str(url), kinds=[str(k) for k in kinds]
        )
        return Response(webhooks.webhook_json(webhook, with_secret=True), status=201)


class WebhookDetailView(AccountView):
    @extend_schema(
        operation_id="webhooks_retrieve",
        summary="One of your webhooks",
        parameters=[WEBHOOK_ID],
        responses={200: WebhookResponse, **errors("not_found", *READ_CODES)},
        examples=[
            OpenApiExample(
                "Webhook", value=WEBHOOK_EXAMPLE_VALUE, response_only=True, status_codes=["200"]
            )
        ],
        tags=["webhooks"],
    )
    def get(self, request: Request, webhook_id: int) -> Response:
        webhook = webhooks.webhook_get(user=_user(request), webhook_id=webhook_id)
        return Response(webhooks.webhook_json(webhook))

    @extend_schema(
        operation_id="webhooks_destroy",
        summary="Delete a webhook",
        description="Nothing more is sent to it; its deliveries are deleted with it.",
        parameters=[WEBHOOK_ID],
        responses={
            204: None,
            **errors("not_found", *BODILESS_WRITE_CODES),
        },
        examples=[
            OpenApiExample(
                "Unknown webhook",
                value={"code": "not_found", "detail": "You have no webhook 4."},
                response_only=True,
                status_codes=["404"],
            )
        ],
        tags=["webhooks"],
    )
    def delete(self, request: Request, webhook_id: int) -> Response:
        webhooks.webhook_delete(user=_user(request), webhook_id=webhook_id)
        return Response(status=204)


class WebhookDeliveriesView(AccountView):
    @extend_schema(
        operation_id="webhooks_deliveries_list",
        summary="A webhook's deliveries",
        description=(
            "Newest first, paginated with limit/offset: each one's status, attempts, last "
            "answer and the exact body sent."
        ),
        parameters=[WEBHOOK_ID, *PAGE_PARAMETERS],
        responses={200: DeliveryPageResponse, **errors("not_found", *READ_CODES)},
        examples=[_page_example("A page of deliveries", DELIVERY_EXAMPLE_VALUE)],
        tags=["webhooks"],
    )
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
