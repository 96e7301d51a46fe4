"""Reads for dispute review: the queue and the case file of one dispute.

Staff see everything (the seed, every hand); these functions are only reached through
the staff-only views of ``games.staff.views``. The god view is the game's own (its
``full_record`` and every hand, ``GameKind.god_view``) and the per-seat views are the
engine's ``view`` at that step, so the case file shows exactly what each player could
see then.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AnonymousUser
from django.db.models import Q, QuerySet
from django.utils import timezone

from games import kinds, selectors
from games.errors import InvalidRequest, NotFound
from games.kinds import indulgence as indulgence_kind
from games.models import (
    ActorKind,
    AuditAction,
    AuditEntry,
    Dispute,
    DisputeStatus,
    FlorinAdjustment,
    Game,
    HandSettlement,
    Move,
)

# The queue's age filter: label, and the age bounds (newer than, older than).
AGE_FILTERS: dict[str, tuple[str, timedelta | None, timedelta | None]] = {
    "1d": ("Last 24 hours", timedelta(days=1), None),
    "7d": ("Last 7 days", timedelta(days=7), None),
    "30d": ("Last 30 days", timedelta(days=30), None),
    "older": ("Older than 7 days", None, timedelta(days=7)),
}
STATUS_FILTERS: dict[str, tuple[str, tuple[str, ...]]] = {
    "active": ("Open or under review", (DisputeStatus.OPEN, DisputeStatus.UNDER_REVIEW)),
    **{value: (str(label), (value,)) for value, label in DisputeStatus.choices},
    "all": ("All", tuple(DisputeStatus.values)),
}


def dispute_queue(
    *, status: str = "active", age: str = "", game_id: int | None = None
) -> QuerySet[Dispute]:
    """Disputes for review, oldest first (the longest waiting is answered first)."""
    if status not in STATUS_FILTERS:
        raise InvalidRequest(f"status must be one of {', '.join(STATUS_FILTERS)}.")
    if age and age not in AGE_FILTERS:
        raise InvalidRequest(f"age must be one of {', '.join(AGE_FILTERS)}.")
    disputes = (
        Dispute.objects.filter(status__in=STATUS_FILTERS[status][1])
        .select_related("game", "opened_by", "reviewer")
        .order_by("created_at", "id")
    )
    if age:
        disputes = disputes_of_age(disputes, age)
    if game_id is not None:
        disputes = disputes.filter(game_id=game_id)
    return disputes


def disputes_of_age(disputes: QuerySet[Dispute], age: str) -> QuerySet[Dispute]:
    """Narrow disputes to one of ``AGE_FILTERS`` (by when they were opened)."""
    now = timezone.now()
    _label, newer, older = AGE_FILTERS[age]
    if newer is not None:
        disputes = disputes.filter(created_at__gte=now - newer)
    if older is not None:
        disputes = disputes.filter(created_at__lt=now - older)
    return disputes


def dispute_get(*, dispute_id: int) -> Dispute:
    dispute = (
        Dispute.objects.select_related("game", "opened_by", "reviewer")
        .filter(pk=dispute_id)
        .first()
    )
    if dispute is None:
        raise NotFound(f"There is no dispute {dispute_id}.")
    return dispute


@dataclass(frozen=True)
class CaseFile:
    dispute: Dispute
    game: Game
    summary: dict[str, Any]
    other_disputes: list[Dispute]
    timeline: list[dict[str, Any]]
    deadlines: dict[str, Any]
    settlements: list[dict[str, Any]]
    adjustments: list[FlorinAdjustment]
    verification: dict[str, Any]
    audit: list[AuditEntry]
    live_moves: int


def case_file(*, dispute: Dispute, game: Game | None = None) -> CaseFile:
    """Everything staff need to decide a dispute, in one place. ``game`` may be passed
    to review a game object as given (the deal-verification tests tamper with one)."""
    game = game or dispute.game
    timeline = move_timeline(game=game)
    return CaseFile(
        dispute=dispute,
        game=game,
        summary=_summary(game),
        other_disputes=list(game.disputes.exclude(pk=dispute.pk).order_by("created_at")),
        timeline=timeline,
        deadlines=_deadlines(game, timeline),
        settlements=_settlements(game),
        adjustments=list(FlorinAdjustment.objects.filter(game=game).order_by("created_at", "id")),
        verification=deals_verify(game=game),
        audit=list(
            AuditEntry.objects.filter(game=game)
            .select_related("actor")
            .order_by("created_at", "id")
        ),
        live_moves=sum(1 for m in timeline if not m["archived"]),
    )


def _summary(game: Game) -> dict[str, Any]:
    view = selectors.game_view(game=game, user=AnonymousUser())  # a spectator's: no cards
    return {
        "status": game.get_status_display(),
        "version": game.version,
        "move_count": game.move_count,
        "rated": game.rated,
        "variant": game.variant,
        "player_count": game.player_count,
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "hand_number": view.get("hand_number"),
        "phase": view.get("phase"),
        "to_act": game.to_act_seat,
        "result": game.result,
        "seats": view["seats"],
    }


def move_timeline(*, game: Game) -> list[dict[str, Any]]:
    """Every move ever made, archived ones included, in the order they were made, with
    when, who, and how long it came after the previous move (or the start)."""
    seats = {s.number: s for s in game.seats.select_related("player__user")}
    moves = list(
        Move.objects.filter(game=game).select_related("actor_user").order_by("created_at", "id")
    )
    timeout = game.turn_timeout_seconds
    entries = []
    previous_at = game.started_at
    for move in moves:
        waited = (move.created_at - previous_at).total_seconds() if previous_at else None
        previous_at = move.created_at
        seat = seats.get(move.seat) if move.seat is not None else None
        entries.append(
            {
                "seq": move.seq,
                "at": move.created_at,
                "seat": move.seat,
                "player": seat.player.user.get_username() if seat is not None else None,
                "actor_kind": move.actor_kind,
                "actor": _actor(move),
                "bot_name": move.bot_name,
                "bot_version": move.bot_version,
                "idempotency_key": move.idempotency_key,
                "action": move.action,
                "action_text": _action_text(move.action),
                "version_after": move.version_after,
                "archived": move.archived_at is not None,
                "archived_at": move.archived_at,
                "archived_by": move.archived_by_id,
                "waited_seconds": None if waited is None else round(waited, 1),
                "over_time": bool(
                    timeout and waited is not None and move.seat is not None and waited > timeout
                ),
                "timed_out": move.actor_kind == ActorKind.AUTOPILOT,
            }
        )
    return entries


def _actor(move: Move) -> str:
    if move.actor_kind == ActorKind.HUMAN:
        return move.actor_user.get_username() if move.actor_user else "human"
    if move.actor_kind in (ActorKind.BOT, ActorKind.AUTOPILOT):
        return f"{move.actor_kind}: {move.bot_name or '?'} {move.bot_version}".strip()
    return "system"


def _action_text(action: dict[str, Any]) -> str:
    kind = action.get("type", "?")
    extra = ", ".join(f"{k}={v}" for k, v in action.items() if k != "type")
    return f"{kind} ({extra})" if extra else str(kind)


def _deadlines(game: Game, timeline: list[dict[str, Any]]) -> dict[str, Any]:
    seats = []
    for seat in game.seats.select_related("player__user").order_by("number"):
        live = [m for m in timeline if m["seat"] == seat.number and not m["archived"]]
        seats.append(
            {
                "seat": seat.number,
                "player": seat.player.user.get_username(),
                "is_bot": seat.player.is_bot,
                "autopilot": bool(seat.bot_kind) and not seat.player.is_bot,
                "bot_kind": seat.bot_kind,
                "autopilot_streak": seat.autopilot_streak,
                "timeouts": sum(1 for m in live if m["timed_out"]),
                "over_time_moves": sum(1 for m in live if m["over_time"]),
            }
        )
    return {
        "turn_timeout_seconds": game.turn_timeout_seconds,
        "turn_deadline": game.turn_deadline,
        "to_act": game.to_act_seat,
        "seats": seats,
    }


def _settlements(game: Game) -> list[dict[str, Any]]:
    return [
        {
            "hand_number": s.hand_number,
            "settled_at": s.settled_at,
            "archived": s.archived_at is not None,
            "payments": s.payments,
            "florins_after": s.florins_after,
        }
        for s in HandSettlement.objects.filter(game=game).order_by("hand_number", "settled_at")
    ]


# --- the replay ---------------------------------------------------------------------------


def branch_moves(*, game: Game, branch: int | None = None) -> list[Move]:
    """The move log to replay: the live one, or (``branch``: a rewind's audit entry id)
    the log as it stood just before that rewind, the moves it archived included."""
    if branch is None:
        return list(game.moves.filter(archived_at=None).order_by("seq"))
    rewind = AuditEntry.objects.filter(pk=branch, game=game, action=AuditAction.GAME_REWIND).first()
    if rewind is None:
        raise InvalidRequest(f"Game {game.pk} has no rewind {branch}.")
    # Live then: made before the rewind, and not archived by an earlier rewind.
    return list(
        game.moves.filter(created_at__lte=rewind.created_at)
        .filter(Q(archived_by=None) | Q(archived_by_id__gte=rewind.pk))
        .order_by("seq")
    )


def replay_step(
    *, game: Game, step: int | None = None, seat: int | None = None, branch: int | None = None
) -> dict[str, Any]:
    """The game after the first ``step`` moves of its live log (None: all of them), or of
    the log a rewind replaced (``branch``): the god view (every hand, the game's own
    ``god_view``) and, when ``seat`` is given, that seat's own view at that moment (what
    it could see)."""
    if game.snapshot is None:
        raise InvalidRequest("This game has not started: there is nothing to replay.")
    live = branch_moves(game=game, branch=branch)
    if step is None:
        step = len(live)
    if not 0 <= step <= len(live):
        raise InvalidRequest(f"step must be between 0 and {len(live)}.")
    if seat is not None and not 0 <= seat < game.player_count:
        raise InvalidRequest(f"There is no seat {seat} at this table.")
    kind = kinds.of(game)
    state = selectors.game_replay(game, selectors.replay_moves(game, live[:step]))
    last = live[step - 1] if step else None
    return {
        "step": step,
        "steps": len(live),
        "move": None
        if last is None
        else {
            "seq": last.seq,
            "seat": last.seat,
            "actor": _actor(last),
            "action_text": _action_text(last.action),
            "at": last.created_at,
        },
        **kind.god_view(state, game.player_count),
        "seat": seat,
        "seat_view": None if seat is None else kind.engine.view(state, seat),
        "branch": branch,
    }


# --- verification -------------------------------------------------------------------------


def deals_verify(*, game: Game) -> dict[str, Any]:
    """Commitment <-> revealed seed <-> deals <-> record (the game's own ``verify_game``;
    Indulgence re-derives every deal independently of the engine, New Eleusis runs its
    NE-29.2 check), and a replay of the seed and the live move log against the stored
    game. ``game`` is reviewed as given (the verification tests tamper with one)."""
    if game.snapshot is None:
        return {"verified": False, "problems": ["the game has not started"], "hands": []}
    live = game.moves.filter(archived_at=None).order_by("seq")
    return kinds.of(game).verify_game(
        game=game, state=selectors.game_state(game), moves=selectors.replay_moves(game, live)
    )


# Indulgence's independent re-derivation of a deal (tests call it from here).
deal_derive = indulgence_kind.deal_derive
