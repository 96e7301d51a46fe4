"""Notifications: the in-app list, email (with preferences, quiet hours, unsubscribe) and
the account stream and webhooks they feed.

:func:`notifications_send` is the one writer. It runs inside the caller's transaction:
the notification rows, the account stream events and the webhook deliveries commit with
the change they describe, and emails and webhook calls are queued after commit.

Preferences live in ``Player.notification_preferences``::

    {"email_your_turn": true, "email_reminder": true, "email_game_finished": true,
     "email_dispute_update": true, "email_seat_handed_to_bot": true, "email_challenge": true,
     "quiet_hours": {"start": "22:00", "end": "07:30", "timezone": "Europe/Rome"} | null}

A missing ``email_<kind>`` key means yes. During quiet hours an email is held (status
``held``) until they end; the deadline sweep then sends it. Email states: ``none`` (not
emailed), ``held``, ``pending`` -> ``sending`` (claimed) -> ``sent``, or ``failed`` after
EMAIL_MAX_ATTEMPTS attempts (shown in the in-app list and the API).
"""

from __future__ import annotations

import functools
import logging
import re
import smtplib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, time, timedelta
from typing import Any
from urllib.parse import urlparse
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.urls import NoReverseMatch, get_script_prefix, get_urlconf, reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games import compiled, events, jobs, webhooks
from games.compiled import CompiledQuery
from games.errors import InvalidRequest, NotFound
from games.models import EmailStatus, Game, Notification, NotificationKind, Player, Webhook

logger = logging.getLogger(__name__)

# Kinds that may be emailed (each with its ``email_<kind>`` preference); the others only
# reach the in-app list, the account stream and webhooks.
EMAIL_KINDS = (
    NotificationKind.YOUR_TURN,
    NotificationKind.REMINDER,
    NotificationKind.GAME_FINISHED,
    NotificationKind.DISPUTE_UPDATE,
    NotificationKind.SEAT_HANDED_TO_BOT,
    NotificationKind.CHALLENGE,
)
UNSUBSCRIBE_SALT = "indulgence.notifications.unsubscribe"
UNSUBSCRIBE_ALL = "all"


@dataclass(frozen=True)
class NotificationSpec:
    user_id: int
    kind: str
    title: str
    body: str = ""
    game: Game | None = None
    data: dict[str, Any] = field(default_factory=dict)


def game_url(game_id: int) -> str:
    urlconf = get_urlconf() or settings.ROOT_URLCONF
    before, after = _table_path_around_id(get_script_prefix(), urlconf)
    return f"{settings.SITE_URL}{before}{game_id}{after}"


@functools.lru_cache(maxsize=8)
def _table_path_around_id(script_prefix: str, urlconf: str) -> tuple[str, str]:
    """The table page's path before and after the game id, reversed once per script prefix
    and URLconf (the page is not under a language prefix) rather than for every
    notification: ``reverse`` cost about a tenth of a move's notification."""
    marker = 987654321
    try:
        path = reverse("table", args=[marker], urlconf=urlconf)
    except NoReverseMatch:
        path = f"/games/{marker}/"
    before, after = path.split(str(marker))
    return before, after


def _users_locked(user_ids: list[int]) -> QuerySet[User]:
    return (
        get_user_model()
        .objects.select_for_update(of=("self",))
        .select_related("player")
        .annotate(has_webhooks=Exists(Webhook.objects.filter(user_id=OuterRef("pk"), active=True)))
        .filter(pk__in=user_ids)
        .order_by("pk")
    )


# Nearly every move notifies one account (its "your turn"): that shape is compiled once.
_USER_LOCKED: CompiledQuery[User] = CompiledQuery(lambda user_id: _users_locked([user_id]), int)


def notifications_send(
    specs: list[NotificationSpec], *, users: Mapping[int, User] | None = None
) -> list[Notification]:
    """Record notifications (in-app, account stream, webhooks) and queue their emails.

    Runs in the caller's transaction (a new one if there is none). ``users``: accounts the
    caller has read already, each with its ``player`` and ``has_webhooks``
    (``selectors.seats_of_game(game, notifying=True)``); when they are all the recipients,
    their rows are locked without being read again (in the caller's write batch, if any)."""
    if not specs:
        return []
    # No savepoint inside the caller's transaction (two round trips a move): an error here
    # rolls the whole change back, which is what every caller wants.
    with transaction.atomic(savepoint=False):
        # Locked (events.account_events_lock says why), in id order. Read by the same query
        # (preferences, whether any webhook is active) unless the caller read them.
        user_ids = sorted({s.user_id for s in specs})
        known = users or {}
        if all(hasattr(known.get(pk), "has_webhooks") for pk in user_ids):
            events.account_events_lock(user_ids)
            found: Iterable[User] = [known[pk] for pk in user_ids]
        elif len(user_ids) == 1:
            found = _USER_LOCKED(user_ids[0])
        else:
            found = _users_locked(user_ids)
        recipients = {u.pk: u for u in found}
        preferences = {
            pk: getattr(getattr(u, "player", None), "notification_preferences", None) or {}
            for pk, u in recipients.items()
        }
        hooked = [pk for pk, u in recipients.items() if getattr(u, "has_webhooks", False)]
        hooks = webhooks.active_by_user(hooked) if hooked else {}
        now = timezone.now()
        created = []
        for spec in specs:
            user = recipients[spec.user_id]
            url = game_url(spec.game.pk) if spec.game is not None else ""
            status, due = _email_plan(user, spec.kind, preferences[user.pk], now)
            notification = Notification(
                user=user,
                kind=spec.kind,
                game=spec.game,
                title=spec.title,
                body=spec.body,
                url=url,
                data=spec.data,
                email_status=status,
                email_due_at=due,
            )
            compiled.insert(notification)
            payload = {
                "game": spec.game.pk if spec.game is not None else None,
                # In a write batch the notification is not written yet: its id is filled in
                # by the batch's statement (games.compiled.Ref).
                "notification": compiled.Ref(notification),
                "title": spec.title,
                "body": spec.body,
                "url": url,
                "data": spec.data,
            }
            version = spec.game.version if spec.game is not None else None
            events.account_event_add(
                user_id=user.pk, type=spec.kind, payload=payload, version=version
            )
            user_hooks = hooks.get(user.pk, [])
            if user_hooks:
                compiled.flush()  # the deliveries' bodies carry the ids
                webhooks.deliveries_create(
                    hooks=user_hooks,
                    kind=spec.kind,
                    payload={"type": spec.kind, "version": version, **payload},
                )
            if status == EmailStatus.PENDING:
                # Should this message be lost (broker down at commit), the sweep queues the
                # email again once it has waited EMAIL_REQUEUE_SECONDS (emails_requeue).
                jobs.enqueue_on_commit("games.notification_email", compiled.Ref(notification))
            created.append(notification)
    return created


def _email_plan(
    user: User, kind: str, preferences: dict[str, Any], now: datetime
) -> tuple[str, datetime | None]:
    if kind not in EMAIL_KINDS or not user.email or not preferences.get(f"email_{kind}", True):
        return EmailStatus.NONE, None
    held_until = quiet_hours_end(preferences.get("quiet_hours"), now)
    if held_until is not None:
        return EmailStatus.HELD, held_until
    return EmailStatus.PENDING, now


def quiet_hours_end(quiet: dict[str, Any] | None, now: datetime) -> datetime | None:
    """When the quiet hours that ``now`` falls in end (None: not in quiet hours)."""
    if not quiet:
        return None
    zone = ZoneInfo(quiet.get("timezone") or "UTC")
    start, end = time.fromisoformat(quiet["start"]), time.fromisoformat(quiet["end"])
    if start == end:
        return None
    local = now.astimezone(zone)
    clock = local.time().replace(tzinfo=None)
    inside = start <= clock < end if start < end else (clock >= start or clock < end)
    if not inside:
        return None
    day = local.date() if clock < end else local.date() + timedelta(days=1)
    return datetime.combine(day, end, tzinfo=zone).astimezone(ZoneInfo("UTC"))


# --- email --------------------------------------------------------------------------------


def notification_email_send(*, notification_id: int) -> str | None:
    """Make one attempt at a pending, due email; returns the new email status (None: not
    claimed, e.g. a repeated task whose email is already sent or being sent).

    Nothing lost, never twice: the attempt is claimed with a conditional UPDATE
    (pending -> sending, ``email_claimed_at`` = now, attempts + 1) that exactly one caller
    wins; every later write is conditional on that claim. A failed send goes back to
    pending with a backoff (``email_due_at``) until EMAIL_MAX_ATTEMPTS, then ``failed``. A
    worker that dies mid-send leaves a ``sending`` claim that the sweep takes back after
    EMAIL_CLAIM_STALE_SECONDS (:func:`emails_requeue`)."""
    now = timezone.now()
    # Claim: only the caller whose UPDATE changes the row sends the email.
    claimed = Notification.objects.filter(
        Q(email_due_at__isnull=True) | Q(email_due_at__lte=now),
        pk=notification_id,
        email_status=EmailStatus.PENDING,
    ).update(
        email_status=EmailStatus.SENDING,
        email_claimed_at=now,
        email_attempts=F("email_attempts") + 1,
    )
    if not claimed:
        return None
    mine = Notification.objects.filter(
        pk=notification_id, email_status=EmailStatus.SENDING, email_claimed_at=now
    )
    notification = Notification.objects.select_related("user").get(pk=notification_id)
    user = notification.user
    status, due = _email_plan(user, notification.kind, _preferences(user), now)
    if status != EmailStatus.PENDING:  # unsubscribed or quiet since it was queued
        mine.update(email_status=status, email_due_at=due, email_claimed_at=None)
        return str(status)
    try:
        _email_message(notification, user).send()
    except (smtplib.SMTPException, OSError) as exc:
        error = f"{type(exc).__name__}: {exc}"[:300]
        if notification.email_attempts >= settings.EMAIL_MAX_ATTEMPTS:
            logger.warning("email of notification %s failed for good: %s", notification_id, error)
            mine.update(email_status=EmailStatus.FAILED, email_error=error, email_claimed_at=None)
            return str(EmailStatus.FAILED)
        # Back to pending, due after a backoff: the task queues the retry, the sweep too.
        retry_at = timezone.now() + timedelta(
            seconds=email_backoff_seconds(notification.email_attempts)
        )
        mine.update(
            email_status=EmailStatus.PENDING,
            email_due_at=retry_at,
            email_error=error,
            email_claimed_at=None,
        )
        return str(EmailStatus.PENDING)
    mine.update(email_status=EmailStatus.SENT, emailed_at=now, email_claimed_at=None)
    return str(EmailStatus.SENT)


def email_backoff_seconds(attempts: int) -> float:
    """Wait after the ``attempts``-th failed attempt: base, 2 x base, 4 x base, ..."""
    return float(settings.EMAIL_RETRY_BASE_SECONDS * 2 ** max(attempts - 1, 0))


def _email_message(notification: Notification, user: User) -> EmailMultiAlternatives:
    unsubscribe = unsubscribe_url(user_id=user.pk, kind=notification.kind)
    subject, body, footer = _email_words(notification, user)
    text = "\n\n".join(
        part for part in (body, notification.url, "--\n" + footer + " " + unsubscribe) if part
    )
    domain = urlparse(settings.SITE_URL).hostname or "indulgence.invalid"
    return EmailMultiAlternatives(
        subject=subject,
        body=text,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            # One id per notification: should a worker die between the mail server's
            # "accepted" and the row's "sent", the resent copy carries the same id.
            "Message-ID": f"<notification-{notification.pk}@{domain}>",
        },
    )


def _email_words(notification: Notification, user: User) -> tuple[str, str, str]:
    """The email's subject, body and footer in the reader's language (P-85): the row's
    English title and body for English readers; for the others, the site's sentence
    (``games.web.inbox_text``, translated from the row's kind and data) and its
    deadline, as their inbox and desktop notifications say it."""
    player = getattr(user, "player", None)
    language = getattr(player, "language", "") or settings.LANGUAGE_CODE
    if language.split("-")[0] == "en":
        return notification.title, notification.body, "Indulgence Online. Stop these emails:"
    from games.web.inbox_text import notification_text  # the web's words; imported late

    with translation.override(language):
        sentence = notification_text(notification)
        data = notification.data if isinstance(notification.data, dict) else {}
        body = sentence
        if data.get("deadline") and notification.kind == NotificationKind.YOUR_TURN:
            body += " " + _("Act before %(deadline)s.") % {"deadline": data["deadline"]}
        return sentence, body, _("Indulgence Online. Stop these emails:")


def emails_requeue(*, now: datetime | None = None, limit: int = 200) -> dict[str, int]:
    """The sweep's part of email delivery; returns counts by what it did.

    * ``released``: held emails whose quiet hours are over (held -> pending, queued);
    * ``stale``: ``sending`` claims older than EMAIL_CLAIM_STALE_SECONDS (the worker died
      mid-send): taken back to pending and queued, or ``failed`` after the last attempt;
    * ``requeued``: pending emails due for EMAIL_REQUEUE_SECONDS and still not sent (their
      message was lost or never queued: the broker was down at commit) queued again.

    Each change is a conditional UPDATE, so two sweeps at once handle each email once; a
    spare message is harmless (the send task claims)."""
    now = now or timezone.now()
    counts = {"released": 0, "stale": 0, "requeued": 0, "failed": 0}
    held = list(
        Notification.objects.filter(email_status=EmailStatus.HELD, email_due_at__lte=now)
        .order_by("email_due_at")
        .values_list("pk", flat=True)[:limit]
    )
    for pk in held:
        # Claim: two sweeps at once release each email once.
        # email_due_at stays the end of the quiet hours (<= now): due at once.
        if Notification.objects.filter(pk=pk, email_status=EmailStatus.HELD).update(
            email_status=EmailStatus.PENDING
        ):
            counts["released"] += 1
            jobs.enqueue_on_commit("games.notification_email", pk)
    stale_before = now - timedelta(seconds=settings.EMAIL_CLAIM_STALE_SECONDS)
    stale = list(
        Notification.objects.filter(
            email_status=EmailStatus.SENDING, email_claimed_at__lt=stale_before
        )
        .order_by("email_claimed_at")
        .values_list("pk", "email_claimed_at", "email_attempts")[:limit]
    )
    for pk, claimed_at, attempts in stale:
        # Conditional on the very claim read above: a sender that finishes meanwhile wins.
        claim = Notification.objects.filter(
            pk=pk, email_status=EmailStatus.SENDING, email_claimed_at=claimed_at
        )
        if attempts >= settings.EMAIL_MAX_ATTEMPTS:
            counts["failed"] += claim.update(
                email_status=EmailStatus.FAILED,
                email_claimed_at=None,
                email_error="the sender stopped mid-send on the last attempt",
            )
        elif claim.update(
            email_status=EmailStatus.PENDING, email_due_at=claimed_at, email_claimed_at=None
        ):
            counts["stale"] += 1
            jobs.enqueue_on_commit("games.notification_email", pk)
    lost_before = now - timedelta(seconds=settings.EMAIL_REQUEUE_SECONDS)
    for pk in (
        Notification.objects.filter(email_status=EmailStatus.PENDING, email_due_at__lte=lost_before)
        .exclude(pk__in=[*held, *(row[0] for row in stale)])
        .order_by("email_due_at")
        .values_list("pk", flat=True)[:limit]
    ):
        counts["requeued"] += 1
        jobs.enqueue_on_commit("games.notification_email", pk)
    return counts


# --- preferences and unsubscribe -------------------------------------------------------


def _preferences(user: User) -> dict[str, Any]:
    player = Player.objects.filter(user=user).first()
    return dict(player.notification_preferences) if player is not None else {}


def preferences_get(*, user: User) -> dict[str, Any]:
    """Every preference spelled out (missing email keys shown as their default, on)."""
    stored = _preferences(user)
    result: dict[str, Any] = {
        f"email_{kind}": bool(stored.get(f"email_{kind}", True)) for kind in EMAIL_KINDS
    }
    result["quiet_hours"] = stored.get("quiet_hours")
    return result


def preferences_update(*, user: User, changes: dict[str, Any]) -> dict[str, Any]:
    """Change some preferences; unknown keys and malformed quiet hours are refused."""
    if not isinstance(changes, dict):
        raise InvalidRequest("Send the preferences to change as a JSON object.")
    allowed = {f"email_{kind}" for kind in EMAIL_KINDS} | {"quiet_hours"}
    unknown = sorted(set(changes) - allowed)
    if unknown:
        raise InvalidRequest(
            f"Unknown preference {unknown[0]!r}; known: {', '.join(sorted(allowed))}."
        )
    for key, value in changes.items():
        if key.startswith("email_") and not isinstance(value, bool):
            raise InvalidRequest(f"{key} must be true or false.")
    if "quiet_hours" in changes:
        changes = {**changes, "quiet_hours": _quiet_hours_clean(changes["quiet_hours"])}
    with transaction.atomic():
        # An account that never played has no profile yet: preferences_get shows it the
        # defaults, so changing them creates the profile (as services.player_ensure does).
        Player.objects.get_or_create(user=user, defaults={"display_name": user.get_username()})
        # Locked: two preference updates at once must not lose one another's changes.
        player = Player.objects.select_for_update().get(user=user)
        player.notification_preferences = {**player.notification_preferences, **changes}
        player.save(update_fields=["notification_preferences"])
    return preferences_get(user=user)


def _quiet_hours_clean(value: Any) -> dict[str, str] | None:
    if value is None:
        return None
    if not isinstance(value, dict) or not {"start", "end"} <= set(value):
        raise InvalidRequest(
            "quiet_hours must be null or "
            '{"start": "HH:MM", "end": "HH:MM", "timezone": "Area/City"}.'
        )
    start, end = _clock(value["start"]), _clock(value["end"])
    zone_name = str(value.get("timezone") or "UTC")
    try:
        ZoneInfo(zone_name)
    except (ZoneInfoNotFoundError, ValueError):
        raise InvalidRequest(f"Unknown time zone {zone_name!r}.") from None
    return {"start": start.strftime("%H:%M"), "end": end.strftime("%H:%M"), "timezone": zone_name}


def _clock(value: Any) -> time:
    match = re.fullmatch(r"(\d{1,2}):(\d{2})", str(value).strip())
    if match is None or int(match[1]) > 23 or int(match[2]) > 59:
        raise InvalidRequest("quiet_hours start and end must be times like 22:00 or 7:30.")
    return time(int(match[1]), int(match[2]))


def unsubscribe_token(*, user_id: int, kind: str) -> str:
    return signing.dumps({"u": user_id, "k": kind}, salt=UNSUBSCRIBE_SALT, compress=True)


def unsubscribe_url(*, user_id: int, kind: str) -> str:
    path = reverse(
        "notifications-unsubscribe", args=[unsubscribe_token(user_id=user_id, kind=kind)]
    )
    return f"{settings.SITE_URL}{path}"


def unsubscribe_target(*, token: str) -> tuple[User, str]:
    """The account and email kind a signed unsubscribe token names."""
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        raise NotFound("This unsubscribe link is not valid (it may have been cut short).") from None
    user = get_user_model().objects.filter(pk=data.get("u")).first()
    kind = data.get("k")
    if user is None or (kind != UNSUBSCRIBE_ALL and kind not in EMAIL_KINDS):
        raise NotFound("This unsubscribe link does not name an account and an email kind.")
    return user, kind


def unsubscribe(*, token: str) -> tuple[User, str]:
    """Turn off the email kind the token names (``all``: every email)."""
    user, kind = unsubscribe_target(token=token)
    kinds = EMAIL_KINDS if kind == UNSUBSCRIBE_ALL else (kind,)
    Player.objects.get_or_create(user=user, defaults={"display_name": user.get_username()})
    preferences_update(user=user, changes={f"email_{k}": False for k in kinds})
    return user, kind


# --- the in-app list ------------------------------------------------------------------


def notification_mark_read(*, user: User, notification_id: int | None = None) -> int:
    """Mark one notification (or, with None, all of them) read; returns how many changed."""
    unread = Notification.objects.filter(user=user, read_at__isnull=True)
    if notification_id is not None:
        if not Notification.objects.filter(user=user, pk=notification_id).exists():
            raise NotFound(f"You have no notification {notification_id}.")
        unread = unread.filter(pk=notification_id)
    return unread.update(read_at=timezone.now())


def notification_json(notification: Notification) -> dict[str, Any]:
    return {
        "id": notification.pk,
        "kind": notification.kind,
        "game": notification.game_id,
        "title": notification.title,
        "body": notification.body,
        "url": notification.url,
        "data": notification.data,
        "created_at": notification.created_at.isoformat(),
        "read": notification.read_at is not None,
        "email": notification.email_status,
    }


def dispute_update_notify(*, dispute_id: int, user_ids: list[int], title: str, body: str) -> None:
    """For the disputes code: tell these accounts that a dispute changed (in-app, email,
    stream, webhooks). Call inside the transaction that changed the dispute."""
    from games.models import Dispute

    dispute = Dispute.objects.select_related("game").get(pk=dispute_id)
    notifications_send(
        [
            NotificationSpec(
                user_id=user_id,
                kind=NotificationKind.DISPUTE_UPDATE,
                title=title,
                body=body,
                game=dispute.game,
                data={"dispute": dispute.pk, "status": dispute.status},
            )
            for user_id in sorted(set(user_ids))
        ]
    )
