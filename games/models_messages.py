"""Play by notification (issue 5): live events, turn reminders, notifications and webhooks
with their deliveries. Split from ``games.models`` (games, seats, moves, ratings,
disputes), which imports and exports these; the game is named by its label
("games.Game"), so this module imports nothing of ``games.models``."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

# --- Play by notification (issue 5): events, turn reminders, notifications, webhooks ------


class Event(models.Model):
    """One message of a live stream, written in the transaction of the change it describes.

    The id is the Server-Sent Events id. A game event (``game`` set) goes to the game's
    stream: ``payload`` is public (what a spectator may know) and ``seat_payloads`` holds,
    per seat number (as a string), the fields that seat alone may see (its own face-down
    card). An account event (``user`` set) goes to that account's stream only.
    """

    # Indexed by the resume indexes below, each holding only its audience's rows: every
    # move writes one or two events, and each index an event is entered in is work.
    game = models.ForeignKey(
        "games.Game",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="events",
        db_index=False,
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="stream_events",
        db_index=False,
    )
    type = models.CharField(max_length=32)
    version = models.PositiveIntegerField(null=True, blank=True)
    payload = models.JSONField(default=dict)
    seat_payloads = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        indexes = [
            models.Index(
                fields=["game", "id"], name="event_game_resume", condition=Q(game__isnull=False)
            ),
            models.Index(
                fields=["user", "id"], name="event_user_resume", condition=Q(user__isnull=False)
            ),
        ]
        constraints = [
            models.CheckConstraint(
                condition=Q(game__isnull=False, user__isnull=True)
                | Q(game__isnull=True, user__isnull=False),
                name="event_one_audience",
            ),
        ]

    def __str__(self) -> str:
        audience = f"game {self.game_id}" if self.game_id else f"user {self.user_id}"
        return f"Event {self.pk} {self.type} for {audience}"


class TurnReminder(models.Model):
    """The reminder due at 80% of a human's time for one turn (one game version)."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="turn_reminders")
    version = models.PositiveIntegerField()  # the game's version when the turn began
    seat = models.PositiveSmallIntegerField()
    remind_at = models.DateTimeField()
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "version"], name="turn_reminder_once"),
        ]
        indexes = [
            models.Index(
                fields=["remind_at"], condition=Q(sent_at__isnull=True), name="turn_reminder_due"
            ),
        ]

    def __str__(self) -> str:
        return f"Reminder for seat {self.seat} of game {self.game_id} at version {self.version}"


class NotificationKind(models.TextChoices):
    YOUR_TURN = "your_turn", "Your turn"
    REMINDER = "reminder", "Reminder"
    GAME_STARTED = "game_started", "Game started"
    PLAYER_JOINED = "player_joined", "Player joined"
    GAME_FINISHED = "game_finished", "Game finished"
    SEAT_HANDED_TO_BOT = "seat_handed_to_bot", "Seat handed to a bot"
    DISPUTE_UPDATE = "dispute_update", "Dispute update"
    CHALLENGE = "challenge", "Challenge"
    AUTOPILOT_MOVE = "autopilot_move", "Autopilot moved for you"
    # New Eleusis (NE-27.5): a play waits on the prophet's call, then is judged; a round
    # ends and its rule is revealed.
    PLAY_PENDING = "play_pending", "Your play awaits the prophet"
    PLAY_JUDGED = "play_judged", "Your play was judged"
    ROUND_ENDED = "round_ended", "A round ended"


class EmailStatus(models.TextChoices):
    NONE = "none", "No email"
    PENDING = "pending", "Pending"
    HELD = "held", "Held for quiet hours"
    SENDING = "sending", "Sending"
    SENT = "sent", "Sent"
    FAILED = "failed", "Failed"


class Notification(models.Model):
    """One entry of a user's in-app list, and the state of its email."""

    # Indexed by notification_inbox (user, -id), which serves every query by user.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notifications",
        db_index=False,
    )
    kind = models.CharField(max_length=24, choices=NotificationKind.choices)
    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, null=True, blank=True, related_name="notifications"
    )
    title = models.CharField(max_length=200)
    body = models.TextField(blank=True)
    url = models.CharField(max_length=300, blank=True)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    email_status = models.CharField(
        max_length=8, choices=EmailStatus.choices, default=EmailStatus.NONE
    )
    # held: when quiet hours end; pending: when it became due (or its next attempt is due)
    email_due_at = models.DateTimeField(null=True, blank=True)
    email_claimed_at = models.DateTimeField(null=True, blank=True)  # sending: since when
    email_attempts = models.PositiveSmallIntegerField(default=0)
    email_error = models.CharField(max_length=300, blank=True)  # the last failure
    emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["user", "-id"], name="notification_inbox"),
            models.Index(
                fields=["email_due_at"],
                condition=Q(email_status="held"),
                name="notification_email_held",
            ),
            models.Index(
                fields=["email_due_at"],
                condition=Q(email_status="pending"),
                name="notification_email_pending",
            ),
            models.Index(
                fields=["email_claimed_at"],
                condition=Q(email_status="sending"),
                name="notification_email_sending",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} for user {self.user_id}"


class Webhook(models.Model):
    """A URL a user registered; every delivery to it is signed with ``secret``."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="webhooks"
    )
    url = models.URLField(max_length=500)
    secret = models.CharField(max_length=64)
    kinds = models.JSONField(default=list, blank=True)  # empty: every notification kind
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"Webhook {self.pk} of user {self.user_id}"


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    SENDING = "sending", "Sending"
    RETRYING = "retrying", "Retrying"
    SUCCEEDED = "succeeded", "Succeeded"
    FAILED = "failed", "Failed"


class WebhookDelivery(models.Model):
    """One event for one webhook: the exact body signed, attempts and outcome."""

    webhook = models.ForeignKey(Webhook, on_delete=models.CASCADE, related_name="deliveries")
    kind = models.CharField(max_length=24)
    body = models.TextField()
    status = models.CharField(
        max_length=12, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField()
    claimed_at = models.DateTimeField(null=True, blank=True)
    last_status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    last_error = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    delivered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [
            models.Index(fields=["status", "next_attempt_at"], name="webhook_delivery_due"),
        ]

    def __str__(self) -> str:
        return f"Delivery {self.pk} ({self.kind}) to webhook {self.webhook_id}: {self.status}"
