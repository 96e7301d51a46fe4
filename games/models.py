"""Persistence for Indulgence Online. Only ``games.services`` writes these rows.

The move log (``Move``) plus the game's secret seed is the truth; ``Game.snapshot`` is a
cache of the engine state after the last move, always equal to a replay of the log.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q


class BotKind(models.TextChoices):
    RANDOM = "random", "Random"
    HEURISTIC = "heuristic", "Heuristic"
    ISMCTS = "ismcts", "ISMCTS"


def default_notification_preferences() -> dict[str, Any]:
    return {"email_your_turn": True, "email_reminder": True, "email_game_finished": True}


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

    def __str__(self) -> str:
        return self.display_name or self.user.get_username()


class Variant(models.TextChoices):
    BASIC = "basic", "Basic"
    EXPERT = "expert", "Expert"


class GameStatus(models.TextChoices):
    OPEN = "open", "Open"
    IN_PROGRESS = "in_progress", "In progress"
    FINISHED = "finished", "Finished"
    VOID = "void", "Void"


class Game(models.Model):
    variant = models.CharField(max_length=8, choices=Variant.choices, default=Variant.BASIC)
    player_count = models.PositiveSmallIntegerField()
    rated = models.BooleanField(default=True)
    status = models.CharField(
        max_length=12, choices=GameStatus.choices, default=GameStatus.OPEN, db_index=True
    )
    # Secret until the game ends (rated games); its sha256 is public from creation.
    seed = models.CharField(max_length=128)
    seed_commitment = models.CharField(max_length=64)
    # Bumps on every state change; clients send it back to detect stale commands.
    version = models.PositiveIntegerField(default=0)
    move_count = models.PositiveIntegerField(default=0)
    # Denormalised from the snapshot for lobbies and deadline sweeps (null: nobody to act).
    to_act_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    # engine.indulgence.state_to_json of the state after the last move (null while open).
    snapshot = models.JSONField(null=True, blank=True)
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
        return f"Game {self.pk} ({self.player_count}p {self.variant}, {self.status})"


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


class ActorKind(models.TextChoices):
    HUMAN = "human", "Human"
    BOT = "bot", "Bot"
    AUTOPILOT = "autopilot", "Autopilot"
    SYSTEM = "system", "System"


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
    version_after = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [
            # Two requests racing to append the same step cannot both succeed.
            models.UniqueConstraint(fields=["game", "seq"], name="move_unique_seq"),
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

    class Meta:
        ordering = ["game", "hand_number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "hand_number"], name="settlement_once"),
        ]

    def __str__(self) -> str:
        return f"Hand {self.hand_number} of game {self.game_id}"


class IdempotencyRecord(models.Model):
    """The first response to an ``Idempotency-Key``; a repeat of the key gets it again."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=128)
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    request_hash = models.CharField(max_length=64)
    response = models.JSONField()
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
    """OpenSkill (Plackett-Luce) rating per player, variant and player count."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    variant = models.CharField(max_length=8, choices=Variant.choices)
    player_count = models.PositiveSmallIntegerField()
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["player", "variant", "player_count"], name="rating_unique_pool"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.variant} {self.player_count}p: {self.ordinal:.1f}"

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
            models.UniqueConstraint(fields=["game", "rating"], name="rating_change_once"),
        ]

    def __str__(self) -> str:
        return f"Rating change of {self.rating_id} in game {self.game_id}"


class DisputeStatus(models.TextChoices):
    OPEN = "open", "Open"
    UNDER_REVIEW = "under_review", "Under review"
    UPHELD = "upheld", "Resolved: upheld"
    DISMISSED = "dismissed", "Resolved: dismissed"


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

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="dispute_reason_required"),
        ]

    def __str__(self) -> str:
        return f"Dispute {self.pk} on game {self.game_id} ({self.status})"
