"""Dispute review: the names the staff pages, the API and the admin use, from
``games.services.disputes`` (the lifecycle, notifications, the audited record read) and
``games.services.remedies`` (void, rewind, adjust). docs/disputes.md describes them."""

from __future__ import annotations

from games.services.disputes import (
    ACTIVE,
    HEADLINES,
    MAX_ADJUSTMENT,
    MAX_TEXT,
    RESOLVED,
    DisputeStateError,
    RemedyNotAllowed,
    dispute_dismiss,
    dispute_notify,
    dispute_review_start,
    dispute_uphold,
    running_record_open,
)
from games.services.remedies import florins_adjust, game_rewind, game_void

__all__ = [
    "ACTIVE",
    "HEADLINES",
    "MAX_ADJUSTMENT",
    "MAX_TEXT",
    "RESOLVED",
    "DisputeStateError",
    "RemedyNotAllowed",
    "dispute_dismiss",
    "dispute_notify",
    "dispute_review_start",
    "dispute_uphold",
    "florins_adjust",
    "game_rewind",
    "game_void",
    "running_record_open",
]
