"""Webhooks: a user registers a URL, gets a secret, and every notification of theirs is
POSTed there as JSON, signed, retried with exponential backoff, and listed with its status.

Signature (docs/notifications.md shows how to check it)::

    X-Indulgence-Timestamp: <unix seconds>
    X-Indulgence-Signature: sha256=<hex HMAC-SHA256(secret, timestamp + "." + body)>

Each attempt is claimed with a conditional UPDATE, so two workers (or a worker and the
sweep) never send the same attempt twice.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import secrets
import time
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth.models import User
from django.db import transaction
from django.db.models import F, Q
from django.utils import timezone

from games import jobs, webhook_net
from games.errors import InvalidRequest, NotFound
from games.models import DeliveryStatus, NotificationKind, Webhook, WebhookDelivery

logger = logging.getLogger(__name__)

MAX_WEBHOOKS_PER_USER = 5
SIGNATURE_HEADER = "X-Indulgence-Signature"
TIMESTAMP_HEADER = "X-Indulgence-Timestamp"


def signature(secret: str, timestamp: str, body: bytes) -> str:
    """``sha256=<hex>`` of HMAC-SHA256(secret, timestamp + "." + body)."""
    digest = hmac.new(secret.encode(), timestamp.encode() + b"." + body, hashlib.sha256)
    return "sha256=" + digest.hexdigest()


def webhook_json(webhook: Webhook, *, with_secret: bool = False) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": webhook.pk,
        "url": webhook.url,
        "kinds": webhook.kinds,
        "active": webhook.active,
        "created_at": webhook.created_at.isoformat(),
    }
    if with_secret:
        data["secret"] = webhook.secret
    return data


def delivery_json(delivery: WebhookDelivery) -> dict[str, Any]:
    return {
        "id": delivery.pk,
        "kind": delivery.kind,
        "status": delivery.status,
        "attempts": delivery.attempts,
        "next_attempt_at": delivery.next_attempt_at.isoformat()
        if delivery.status in (DeliveryStatus.PENDING, DeliveryStatus.RETRYING)
        else None,
        "last_status_code": delivery.last_status_code,
        "last_error": delivery.last_error,
        "created_at": delivery.created_at.isoformat(),
        "delivered_at": delivery.delivered_at.isoformat() if delivery.delivered_at else None,
        "body": json.loads(delivery.body),
    }


# --- registering --------------------------------------------------------------------------


def webhook_create(*, user: User, url: str, kinds: list[str] | None = None) -> Webhook:
    """Register a URL; the returned webhook's ``secret`` is shown to the user once here."""
    url = (url or "").strip()
    _check_url(url)
    kinds = list(kinds or [])
    unknown = sorted(set(kinds) - set(NotificationKind.values))
    if unknown:
        raise InvalidRequest(
            f"Unknown kind {unknown[0]!r}; kinds: {', '.join(NotificationKind.values)}."
        )
    if Webhook.objects.filter(user=user).count() >= MAX_WEBHOOKS_PER_USER:
        raise InvalidRequest(f"An account may register at most {MAX_WEBHOOKS_PER_USER} webhooks.")
    return Webhook.objects.create(
        user=user, url=url, kinds=sorted(set(kinds)), secret=secrets.token_hex(32)
    )


def webhook_delete(*, user: User, webhook_id: int) -> None:
    deleted, _ = Webhook.objects.filter(pk=webhook_id, user=user).delete()
    if not deleted:
        raise NotFound(f"You have no webhook {webhook_id}.")


def webhook_get(*, user: User, webhook_id: int) -> Webhook:
    webhook = Webhook.objects.filter(pk=webhook_id, user=user).first()
    if webhook is None:
        raise NotFound(f"You have no webhook {webhook_id}.")
    return webhook


def _check_url(url: str) -> None:
    if len(url) > 500:
        raise InvalidRequest("The webhook URL may be at most 500 characters long.")
    try:
        webhook_net.check_url(url, timeout=settings.WEBHOOK_TIMEOUT_SECONDS)
    except webhook_net.Refused as exc:
        raise InvalidRequest(str(exc)) from exc


# --- delivering ---------------------------------------------------------------------------


def active_by_user(user_ids: Iterable[int]) -> dict[int, list[Webhook]]:
    """The active webhooks of these users, in one query."""
    hooks: dict[int, list[Webhook]] = {}
    for webhook in Webhook.objects.filter(user_id__in=list(user_ids), active=True).order_by("id"):
        hooks.setdefault(webhook.user_id, []).append(webhook)
    return hooks


def deliveries_create(*, hooks: list[Webhook], kind: str, payload: dict[str, Any]) -> list[int]:
    """Queue one delivery per webhook (of one user) that wants ``kind``.

    Runs in the caller's transaction; the deliveries are sent after it commits."""
    ids = []
    now = timezone.now()
    for webhook in hooks:
        if webhook.kinds and kind not in webhook.kinds:
            continue
        delivery = WebhookDelivery.objects.create(
            webhook=webhook, kind=kind, body="", next_attempt_at=now
        )
        body = {"delivery": delivery.pk, "webhook": webhook.pk, **payload}
        delivery.body = json.dumps(body, separators=(",", ":"), sort_keys=True)
        delivery.save(update_fields=["body"])
        jobs.enqueue_on_commit("games.webhook_deliver", delivery.pk)
        ids.append(delivery.pk)
    return ids


def backoff_seconds(attempts: int) -> float:
    """Wait after the ``attempts``-th failed attempt: base, 2 x base, 4 x base, ..."""
    return float(settings.WEBHOOK_RETRY_BASE_SECONDS * 2 ** max(attempts - 1, 0))


def delivery_attempt(*, delivery_id: int) -> str | None:
    """Make one attempt if the delivery is due; returns the new status (None: not claimed).

    On failure the delivery is rescheduled with exponential backoff (the caller queues
    the retry; the sweep also picks up due retries), until WEBHOOK_MAX_ATTEMPTS."""
    now = timezone.now()
    # Claim this attempt: exactly one caller's UPDATE changes the row.
    claimed = WebhookDelivery.objects.filter(
        Q(status=DeliveryStatus.PENDING) | Q(status=DeliveryStatus.RETRYING),
        pk=delivery_id,
        next_attempt_at__lte=now,
    ).update(status=DeliveryStatus.SENDING, claimed_at=now, attempts=F("attempts") + 1)
    if not claimed:
        return None
    delivery = WebhookDelivery.objects.select_related("webhook").get(pk=delivery_id)
    code, error = _post(delivery)
    done = timezone.now()
    if code is not None and 200 <= code < 300:
        WebhookDelivery.objects.filter(pk=delivery_id).update(
            status=DeliveryStatus.SUCCEEDED, delivered_at=done, last_status_code=code, last_error=""
        )
        return DeliveryStatus.SUCCEEDED
    if delivery.attempts >= settings.WEBHOOK_MAX_ATTEMPTS:
        status = DeliveryStatus.FAILED
        next_at = done
    else:
        status = DeliveryStatus.RETRYING
        next_at = done + timedelta(seconds=backoff_seconds(delivery.attempts))
    WebhookDelivery.objects.filter(pk=delivery_id).update(
        status=status, next_attempt_at=next_at, last_status_code=code, last_error=error[:300]
    )
    return status


def _post(delivery: WebhookDelivery) -> tuple[int | None, str]:
    """One attempt (games.webhook_net: the addresses checked and pinned, no redirects, one
    deadline, a size cap)."""
    webhook = delivery.webhook
    body = delivery.body.encode()
    timestamp = str(int(time.time()))
    headers = {
        "Content-Type": "application/json",
        "User-Agent": "IndulgenceOnline-Webhooks/1",
        "X-Indulgence-Delivery": str(delivery.pk),
        "X-Indulgence-Event": delivery.kind,
        TIMESTAMP_HEADER: timestamp,
        SIGNATURE_HEADER: signature(webhook.secret, timestamp, body),
        "Connection": "close",
    }
    return webhook_net.post(webhook.url, body, headers)


def deliveries_due(*, now: datetime | None = None, limit: int = 200) -> list[int]:
    """Deliveries whose next attempt is due, and attempts abandoned mid-way (a worker died
    after claiming): those are made due again."""
    now = now or timezone.now()
    stale = now - timedelta(seconds=settings.WEBHOOK_TIMEOUT_SECONDS * 4 + 60)
    with transaction.atomic():
        WebhookDelivery.objects.filter(status=DeliveryStatus.SENDING, claimed_at__lt=stale).update(
            status=DeliveryStatus.RETRYING, next_attempt_at=now
        )
    return list(
        WebhookDelivery.objects.filter(
            Q(status=DeliveryStatus.PENDING) | Q(status=DeliveryStatus.RETRYING),
            next_attempt_at__lte=now,
        )
        .order_by("next_attempt_at")
        .values_list("pk", flat=True)[:limit]
    )
