"""Persistence for Indulgence Online. Only ``games.services`` writes these rows.

A game's ``game_type`` is a key of ``engine.registry`` (its server side: ``games.kinds``).
The move log (``Move``) plus the game's secret seed is the truth; ``Game.snapshot`` is a
cache of the engine state after the last move, always equal to a replay of the log. For
Indulgence the snapshot is the engine's ``play_snapshot``: the records of the settled
hands but the last are in ``GameHistory``, read only for the full record.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.fields import JSONTextField


class BotKind(models.TextChoices):
    """Every built-in bot kind of every game (``engine.registry``: each game's
    ``META.bots``); which of them a game seats is its kind's ``bot_kinds``."""

    RANDOM = "random", "Random"
    HEURISTIC = "heuristic", "Heuristic"
    ISMCTS = "ismcts", "ISMCTS"
    NOVICE = "novice", "Novice"
    SCIENTIST = "scientist", "Scientist"


def default_notification_preferences() -> dict[str, Any]:
    return {
        "email_your_turn": True,
        "email_reminder": True,
        "email_game_finished": True,
        "email_challenge": True,
    }


class Player(models.Model):
    """The game-side profile of an account (humans and bot accounts alike)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player"
    )
    display_name = models.CharField(max_length=64, blank=True)
    is_bot = models.BooleanField(default=False)
    bot_kind = models.CharField(max_length=16, choices=BotKind.choices, blank=True)
    language = models.CharField(max_length=8, default="en")
    notification_preferences = models.JSONField(default=default_notification_preferences)
    # An address given at sign-up or in the settings and not confirmed yet: only the
    # confirmation message goes to it (games/email_addresses.py). The account's
    # ``user.email`` is the confirmed address, the only one any other mail goes to.
    email_pending = models.EmailField(max_length=254, blank=True, default="")

    def __str__(self) -> str:
        return self.display_name or self.user.get_username()


class Variant(models.TextChoices):
    """Indulgence's variants. Every game's own are its ``META.variants`` (a game's
    ``variant`` is checked against its game's list, not these choices)."""

    BASIC = "basic", "Basic"
    EXPERT = "expert", "Expert"


def default_game_type() -> str:
    return "indulgence"


class GameStatus(models.TextChoices):
    OPEN = "open", _("Open")
    IN_PROGRESS = "in_progress", _("In progress")
    FINISHED = "finished", _("Finished")
    VOID = "void", _("Void")


class Game(models.Model):
    # A key of engine.registry.GAMES; games.kinds knows its server side.
    game_type = models.CharField(max_length=16, default=default_game_type)
    variant = models.CharField(max_length=16, default=Variant.BASIC)
    player_count = models.PositiveSmallIntegerField()
    # The game's own table options (validated by its kind; New Eleusis: hand size, ...).
    options = models.JSONField(default=dict, blank=True)
    rated = models.BooleanField(default=True)
    # A game dealt from a seed its creator chose: the creator can compute every deal, so
    # no other person may join or be invited (docs/reliability.md, "Chosen seeds").
    sandbox = models.BooleanField(default=False)
    status = models.CharField(
        max_length=12, choices=GameStatus.choices, default=GameStatus.OPEN, db_index=True
    )
    # Secret until the game ends (rated games); its sha256 is public from creation. Drawn
    # by the server (256 random bits) unless the game is a sandbox.
    seed = models.CharField(max_length=128)
    seed_commitment = models.CharField(max_length=64)
    # Bumps on every state change; clients send it back to detect stale commands.
    version = models.PositiveIntegerField(default=0)
    move_count = models.PositiveIntegerField(default=0)
    # Denormalised from the snapshot for lobbies and deadline sweeps (null: nobody to act).
    to_act_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # engine.indulgence.play_snapshot of the state after the last move (null while open):
    # the state without the records of the settled hands before the last (GameHistory).
    snapshot = JSONTextField(null=True, blank=True)
    turn_timeout_seconds = models.PositiveIntegerField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    result = models.JSONField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="created_games"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return (
            f"Game {self.pk} ({self.game_type} {self.player_count}p {self.variant}, {self.status})"
        )


class GameHistory(models.Model):
    """The records of a game's settled hands (``engine.indulgence.hand_records_json``),
    kept out of the per-move snapshot: every move reads and writes the snapshot, while
    these are written when a hand is settled (or a rewind replays the game) and read
    only to rebuild the whole state (the full record, verification). The first
    ``history_start`` of them are what the snapshot leaves out (games.services)."""

    game = models.OneToOneField(
        Game, on_delete=models.CASCADE, primary_key=True, related_name="history"
    )
    hands = JSONTextField(default=list)

    def __str__(self) -> str:
        return f"Settled hands of game {self.game_id}"


class Seat(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    # Set when a bot plays this seat: a bot account's seat, or a human's seat handed to a
    # bot after repeated timeouts (then player stays the human, for the record).
    bot_kind = models.CharField(max_length=16, choices=BotKind.choices, blank=True)
    autopilot_streak = models.PositiveSmallIntegerField(default=0)
    joined_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="seat_unique_number"),
        ]

    def __str__(self) -> str:
        return f"Seat {self.number} of game {self.game_id}"


class Invitation(models.Model):
    """A challenge: the game's creator invited this account to one of its open seats.

    The invitee accepts by joining the game; the seats stay open to anyone."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="invitation_unique_user"),
        ]

    def __str__(self) -> str:
        return f"Invitation of user {self.user_id} to game {self.game_id}"


class ActorKind(models.TextChoices):
    HUMAN = "human", "Human"
    BOT = "bot", "Bot"
    AUTOPILOT = "autopilot", "Autopilot"
    SYSTEM = "system", "System"
    # The game's own default when time ran out (New Eleusis' NE-27: a library rule for a
    # dealer who set none, a missed call's overthrow, ...): no bot chose it.
    TIMEOUT = "timeout", "Timeout"


class Move(models.Model):
    """One step of the log: a player's action, or a system step (``{"type": "advance"}``)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves")
    seq = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField(null=True, blank=True)  # null: system step
    action = models.JSONField()
    actor_kind = models.CharField(max_length=12, choices=ActorKind.choices)
    actor_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    bot_name = models.CharField(max_length=32, blank=True)
    bot_version = models.CharField(max_length=32, blank=True)
    # The Idempotency-Key the player's request carried, if any (games.services.action_submit).
    idempotency_key = models.CharField(max_length=128, blank=True)
    version_after = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    # Set when staff rewound the game to before this move (games.disputes.game_rewind):
    # the move stays for the record but is no longer part of the log that is replayed.
    archived_at = models.DateTimeField(null=True, blank=True)
    archived_by = models.ForeignKey(
        "AuditEntry",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="archived_moves",
    )

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            # Two requests racing to append the same step cannot both succeed. Archived
            # moves (a rewound branch) keep their seq, so only the live log is unique.
            models.UniqueConstraint(
                fields=["game", "seq"],
                condition=Q(archived_at__isnull=True),
                name="move_unique_seq",
            ),
        ]

    def __str__(self) -> str:
        return f"Move {self.seq} of game {self.game_id}"


class HandSettlement(models.Model):
    """Written exactly once per hand, by the service that claims the settlement."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="settlements")
    hand_number = models.PositiveSmallIntegerField()
    payments = models.JSONField()
    florins_after = models.JSONField()
    settled_at = models.DateTimeField(auto_now_add=True)
    # Set when a rewind archived the settlement's ``advance`` move; the hand is then
    # settled again (a new row) when play reaches its end once more.
    archived_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "hand_number"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "hand_number"],
                condition=Q(archived_at__isnull=True),
                name="settlement_once",
            ),
        ]

    def __str__(self) -> str:
        return f"Hand {self.hand_number} of game {self.game_id}"


class IdempotencyRecord(models.Model):
    """The first response to an ``Idempotency-Key``; a repeat of the key gets it again."""

    # Indexed by the unique (user, key) constraint, which serves every query by user.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", db_index=False
    )
    key = models.CharField(max_length=128)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    request_hash = models.CharField(max_length=64)
    response = JSONTextField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "key"], name="idempotency_key_once"),
        ]

    def __str__(self) -> str:
        return f"Idempotency-Key {self.key} of user {self.user_id}"


class TokenScope(models.TextChoices):
    READ = "read", "Read"
    PLAY = "play", "Play"


class ApiToken(models.Model):
    """A bearer token. Only its sha256 is stored; the clear token is shown once."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tokens"
    )
    name = models.CharField(max_length=64, blank=True)
    token_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=12)  # first characters, to tell tokens apart
    scopes = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user})"

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None


class Rating(models.Model):
    """OpenSkill (Plackett-Luce) rating per player, game, variant and player count."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    game_type = models.CharField(max_length=16, default=default_game_type)
    variant = models.CharField(max_length=16)
    player_count = models.PositiveSmallIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "game_type", "variant", "player_count"],
                name="rating_unique_pool",
            ),
        ]

    def __str__(self) -> str:
        return (
            f"{self.player} {self.game_type} {self.variant} {self.player_count}p: "
            f"{self.ordinal:.1f}"
        )

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


class RatingChange(models.Model):
    """What one rated game did to one rating, so that voiding the game can undo it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    rating = models.ForeignKey(Rating, on_delete=models.CASCADE, related_name="changes")
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    rolled_back_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            # Once per game and rating while in force; a rewound game that finishes again
            # is rated again after its first change was rolled back (games.disputes).
            models.UniqueConstraint(
                fields=["game", "rating"],
                condition=Q(rolled_back_at__isnull=True),
                name="rating_change_once",
            ),
        ]

    def __str__(self) -> str:
        return f"Rating change of {self.rating_id} in game {self.game_id}"


class DisputeStatus(models.TextChoices):
    OPEN = "open", _("Open")
    UNDER_REVIEW = "under_review", _("Under review")
    UPHELD = "upheld", _("Resolved: upheld")
    DISMISSED = "dismissed", _("Resolved: dismissed")


class Dispute(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="disputes")
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    reason = models.TextField()
    status = models.CharField(
        max_length=16, choices=DisputeStatus.choices, default=DisputeStatus.OPEN, db_index=True
    )
    resolution = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    # Written by games.disputes: who took the case up, and when it was resolved.
    reviewer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="dispute_reason_required"),
        ]

    def __str__(self) -> str:
        return f"Dispute {self.pk} on game {self.game_id} ({self.status})"


# --- dispute review (games.disputes writes these) -----------------------------------------


class AppendOnlyError(Exception):
    """Raised on any attempt to change or remove a row of an append-only table."""


class AppendOnlyQuerySet(models.QuerySet[Any]):
    """Rows can be added and read; ``update()``, ``delete()`` and ``bulk_update()`` refuse."""

    def update(self, **kwargs: Any) -> int:
        raise AppendOnlyError(f"{self.model.__name__} rows are append-only: update refused.")

    def delete(self) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError(f"{self.model.__name__} rows are append-only: delete refused.")

    def bulk_update(self, objs: Any, fields: Any, batch_size: int | None = None) -> int:
        raise AppendOnlyError(f"{self.model.__name__} rows are append-only: update refused.")


class AppendOnlyModel(models.Model):
    """A row is written once and never changed or removed through the ORM.

    On PostgreSQL a trigger (migration 0002_disputes) also refuses UPDATE and DELETE in
    SQL, whoever sends it.
    """

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnlyError(f"{type(self).__name__} rows are append-only: save refused.")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        raise AppendOnlyError(f"{type(self).__name__} rows are append-only: delete refused.")


class AuditAction(models.TextChoices):
    DISPUTE_REVIEW = "dispute_review", "Dispute taken up for review"
    DISPUTE_DISMISS = "dispute_dismiss", "Dispute dismissed"
    DISPUTE_UPHOLD = "dispute_uphold", "Dispute upheld"
    GAME_VOID = "game_void", "Game voided"
    GAME_REWIND = "game_rewind", "Game rewound"
    FLORINS_ADJUST = "florins_adjust", "Florins adjusted"
    RECORD_READ = "record_read", "Full record of a running game read"
    MOVE_UNDO = "move_undo", "Move taken back by its player"


class AuditEntry(AppendOnlyModel):
    """Who did what to a game or dispute, when, and why. Append-only."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="audit_entries")
    dispute = models.ForeignKey(
        Dispute, on_delete=models.PROTECT, null=True, blank=True, related_name="audit_entries"
    )
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    action = models.CharField(max_length=32, choices=AuditAction.choices)
    reason = models.TextField()
    # What the action did, for the record: moves archived, ratings restored, amounts.
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name_plural = "audit entries"
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="audit_reason_required"),
        ]

    def __str__(self) -> str:
        return f"{self.get_action_display()} on game {self.game_id} by {self.actor_id}"


class FlorinAdjustment(AppendOnlyModel):
    """Florins added to (or taken from) a seat's total by staff, beside the game's own
    record: the move log and settlements stay as they were played."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="florin_adjustments")
    seat = models.PositiveSmallIntegerField()
    amount = models.IntegerField()
    reason = models.TextField()
    audit_entry = models.OneToOneField(
        AuditEntry, on_delete=models.PROTECT, related_name="florin_adjustment"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="florin_adjustment_nonzero"),
            models.CheckConstraint(condition=~Q(reason=""), name="florin_adjustment_reason"),
        ]

    def __str__(self) -> str:
        return f"{self.amount:+d} florins to seat {self.seat} of game {self.game_id}"


# The play-by-notification models live in games/models_messages.py (this file's length).
from games.models_messages import (  # noqa: E402
    DeliveryStatus,
    EmailStatus,
    Event,
    Notification,
    NotificationKind,
    TurnReminder,
    Webhook,
    WebhookDelivery,
)

__all__ = [
    "ActorKind",
    "ApiToken",
    "AppendOnlyError",
    "AppendOnlyModel",
    "AppendOnlyQuerySet",
    "AuditAction",
    "AuditEntry",
    "BotKind",
    "DeliveryStatus",
    "Dispute",
    "DisputeStatus",
    "EmailStatus",
    "Event",
    "FlorinAdjustment",
    "Game",
    "GameHistory",
    "GameStatus",
    "HandSettlement",
    "IdempotencyRecord",
    "Invitation",
    "Move",
    "Notification",
    "NotificationKind",
    "Player",
    "Rating",
    "RatingChange",
    "Seat",
    "TokenScope",
    "TurnReminder",
    "Variant",
    "Webhook",
    "WebhookDelivery",
]
