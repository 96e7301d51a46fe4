"""Persistence for Indulgence Online. Only games.services writes these rows."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class BotKind(models.TextChoices):
    RANDOM = "random", "Random"
    HEURISTIC = "heuristic", "Heuristic"
    ISMCTS = "ismcts", "ISMCTS"


class Player(models.Model):
    """The game-side profile of an account (humans and bot accounts alike)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player"
    )
    display_name = models.CharField(max_length=64, blank=True)
    is_bot = models.BooleanField(default=False)
    bot_kind = models.CharField(max_length=16, choices=BotKind.choices, blank=True)
    language = models.CharField(max_length=8, default="en")

    def __str__(self) -> str:
        return self.display_name or self.user.get_username()
