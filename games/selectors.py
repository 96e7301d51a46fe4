"""Reads. Everything a player is shown about a game passes through ``game_view``, which
renders only the engine's per-seat view (engine.indulgence.view) plus public table facts
(usernames, status, version). Hidden cards cannot leave through here.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Exists, F, OuterRef, QuerySet

import engine.indulgence as rules
from games.compiled import CompiledQuery
from games.errors import GameNotFinished, InvalidRequest, NotFound
from games.models import (
    ApiToken,
    Dispute,
    FlorinAdjustment,
    Game,
    GameHistory,
    GameStatus,
    HandSettlement,
    Move,
    Notification,
    Player,
    Rating,
    RatingChange,
    Seat,
    Variant,
    Webhook,
    WebhookDelivery,
)

AnyUser = User | AnonymousUser

# The fields of api.md "The view" that only exist once cards are dealt.
UNDEALT_VIEW: dict[str, Any] = {
    "round": None,
    "hand_number": None,
    "ruler_seat": None,
    "phase": None,
    "to_act": None,
    "edict_row": [],
    "edicts_in_play": [],
    "sinner_seat": None,
    "trump": None,
    "indulgence_used": False,
    "my_hand": [],
    "current_trick": None,
    "tricks": [],
    "legal_actions": [],
    "last_settlement": None,
    "result": None,
}


def games_with_adjustment_flag(games: QuerySet[Game]) -> QuerySet[Game]:
    """The games, each knowing (in the same query) whether staff ever adjusted its florins,
    so that a view needs no query for the (usually empty) adjustment list."""
    return games.annotate(
        has_florin_adjustments=Exists(FlorinAdjustment.objects.filter(game=OuterRef("pk")))
    )


def game_get(*, game_id: int) -> Game:
    game = _GAME.first(game_id)
    if game is None:
        raise NotFound(f"There is no game {game_id}.")
    return game


def seat_of(*, game: Game, user: AnyUser) -> int | None:
    """The seat a human user plays at this game (None for outsiders and anonymous users)."""
    return _seat_number_of(seats_of_game(game), user)


def _seat_number_of(seats: list[Seat], user: AnyUser) -> int | None:
    if not user.is_authenticated:
        return None
    for seat in seats:
        if seat.player.user_id == user.pk and not is_bot_account_seat(seat):
            return seat.number
    return None


def is_bot_account_seat(seat: Seat) -> bool:
    """A seat a built-in bot plays under its own account: no caller's seat, whoever holds
    that account's session or token (issue 26, item 1). A person's seat handed to a bot
    after timeouts stays theirs to watch."""
    return bool(seat.bot_kind and seat.player.bot_kind)


def game_view(
    *,
    game: Game,
    user: AnyUser,
    state: rules.State | None = None,
    seats: list[Seat] | None = None,
) -> dict[str, Any]:
    """api.md "The view" for this user: their seat's view if seated, else a spectator's.
    ``seats``: the game's seats with ``player__user`` loaded, if the caller has them."""
    if seats is None:
        seats = seats_of_game(game)  # one query: the caller's seat and the seat list
    my_seat = _seat_number_of(seats, user)
    if game.snapshot is None:
        view = dict(UNDEALT_VIEW)
        engine_seats: dict[int, dict[str, Any]] = {}
    else:
        if state is None:
            state = rules.state_from_json(game.snapshot)
        view = rules.view(state, my_seat)
        engine_seats = {int(s["seat"]): s for s in view["seats"]}
    view.update(
        {
            "id": game.pk,
            "status": game.status,
            "variant": game.variant,
            "player_count": game.player_count,
            "rated": game.rated,
            "sandbox": game.sandbox,
            "version": game.version,
            "my_seat": my_seat,
            "seed_commitment": game.seed_commitment,
            "turn_timeout_seconds": game.turn_timeout_seconds,
            "turn_deadline": game.turn_deadline.isoformat() if game.turn_deadline else None,
            "seats": [_seat_entry(seat, engine_seats.get(seat.number)) for seat in seats],
            "open_seats": game.player_count - len(seats),
        }
    )
    _florin_adjustments_add(game, view)
    if game.status == GameStatus.VOID:  # voided mid-hand: nobody is to act any more
        view["legal_actions"] = []
        view["to_act"] = None
    return view


def _seat_entry(seat: Seat, engine_seat: dict[str, Any] | None) -> dict[str, Any]:
    entry = {
        "seat": seat.number,
        "username": seat.player.user.get_username(),
        "display_name": str(seat.player),
        "is_bot": seat.player.is_bot,
        "bot_kind": seat.bot_kind or None,
        "florins": None,
        "papal_bull_available": None,
    }
    if engine_seat is not None:
        entry.update({k: v for k, v in engine_seat.items() if k != "seat"})
    return entry


def florin_adjustments(*, game: Game) -> list[dict[str, Any]]:
    """Florins staff added to or took from seats after review (games.disputes)."""
    return [
        {"seat": a.seat, "amount": a.amount, "reason": a.reason, "at": a.created_at.isoformat()}
        for a in FlorinAdjustment.objects.filter(game=game).order_by("created_at", "id")
    ]


def _florin_adjustments_add(game: Game, view: dict[str, Any]) -> None:
    """A finished game's florin totals include staff adjustments; the list says why.
    While a game is played (again, after a rewind) the totals are the rules' own: the
    rules do not see adjustments, so a bankruptcy or a payment must not seem to."""
    has_any = getattr(game, "has_florin_adjustments", True)  # unknown: look
    adjustments = florin_adjustments(game=game) if has_any else []
    view["florin_adjustments"] = adjustments
    for entry in view["seats"]:
        extra = sum(a["amount"] for a in adjustments if a["seat"] == entry["seat"])
        entry["florins_adjustment"] = extra
        if extra and entry["florins"] is not None and game.status == GameStatus.FINISHED:
            entry["florins"] += extra


# Every game view reads these two: compiled once per process (games.compiled).
_GAME = CompiledQuery(
    lambda game_id: games_with_adjustment_flag(Game.objects.filter(pk=game_id)).order_by("pk")[:1],
    int,
)
_SEATS = CompiledQuery(
    lambda game_id: (
        Seat.objects.filter(game_id=game_id).select_related("player__user").order_by("number")
    ),
    int,
)
# A change that notifies the seated accounts (a move, a bot turn, a settlement) also reads
# whether each has an active webhook, so that games.notifications need not read them again.
_SEATS_NOTIFYING = CompiledQuery(
    lambda game_id: (
        Seat.objects.filter(game_id=game_id)
        .select_related("player__user")
        .annotate(
            has_webhooks=Exists(
                Webhook.objects.filter(user_id=OuterRef("player__user_id"), active=True)
            )
        )
        .order_by("number")
    ),
    int,
)


def seats_of_game(game: Game, *, notifying: bool = False) -> list[Seat]:
    """The game's seats with their players and accounts, in seat order (one query).

    ``notifying``: each account also knows whether it has an active webhook
    (``user.has_webhooks``), as ``games.notifications.notifications_send`` needs to take
    it as read (``users=``)."""
    seats: list[Seat] = list(_SEATS_NOTIFYING(game.pk) if notifying else _SEATS(game.pk))
    for seat in seats:
        seat.game = game  # as game.seats would set it: no query for seat.game
        if notifying:
            seat.player.user.has_webhooks = seat.has_webhooks  # type: ignore[attr-defined]
    return seats


def game_list(*, user: AnyUser, status: str | None = None, mine: bool = False) -> QuerySet[Game]:
    games = Game.objects.prefetch_related("seats__player__user").order_by("-created_at", "-id")
    if status is not None:
        if status not in GameStatus.values:
            raise InvalidRequest(f"status must be one of {', '.join(GameStatus.values)}.")
        games = games.filter(status=status)
    if mine:
        if not user.is_authenticated:
            return games.none()
        games = games.filter(seats__player__user=user).distinct()
    return games


def game_summary(*, game: Game, user: AnyUser) -> dict[str, Any]:
    """A lobby line: who sits where and whose turn it is, without any cards."""
    seats = sorted(game.seats.all(), key=lambda s: s.number)
    my_seat = _seat_number_of(seats, user)
    return {
        "id": game.pk,
        "status": game.status,
        "variant": game.variant,
        "player_count": game.player_count,
        "rated": game.rated,
        "sandbox": game.sandbox,
        "version": game.version,
        "seats": [
            {"seat": s.number, "username": s.player.user.get_username(), "is_bot": s.player.is_bot}
            for s in seats
        ],
        "open_seats": game.player_count - len(seats),
        "to_act": game.to_act_seat,
        "my_seat": my_seat,
        "my_turn": my_seat is not None and my_seat == game.to_act_seat,
        "turn_deadline": game.turn_deadline.isoformat() if game.turn_deadline else None,
        "created_at": game.created_at.isoformat(),
    }


def game_moves_public(*, game: Game, user: AnyUser) -> list[dict[str, Any]]:
    """The move log as this user may see it: cards of a face-down trick that is not yet
    complete are hidden, except the user's own."""
    moves = list(game.moves.filter(archived_at=None).order_by("seq"))  # rewinds archive
    hidden: set[int] = set()
    if game.snapshot is not None:
        view = rules.view(rules.state_from_json(game.snapshot), seat_of(game=game, user=user))
        trick = view.get("current_trick") or {"plays": []}
        plays = trick["plays"]
        play_moves = (
            [m for m in moves if m.action.get("type") == "play"][-len(plays) :] if plays else []
        )
        hidden = {
            move.seq
            for move, play in zip(play_moves, plays, strict=True)
            if play.get("card") is None
        }
    return [_move_entry(move, hide_card=move.seq in hidden) for move in moves]


def _move_entry(move: Move, *, hide_card: bool = False) -> dict[str, Any]:
    action = dict(move.action)
    if hide_card:
        action["card"] = None
    return {
        "seq": move.seq,
        "seat": move.seat,
        "action": action,
        "actor": move.actor_kind,
        "bot": move.bot_name or None,
        "at": move.created_at.isoformat(),
    }


def game_state(game: Game) -> rules.State:
    """The game's whole stored state (started games): the snapshot, with the records of
    the settled hands it leaves out read from ``GameHistory``. Play and views need only
    the snapshot; the full record and verification need this."""
    assert game.snapshot is not None
    start = rules.snapshot_history_start(game.snapshot)
    if not start:
        return rules.state_from_json(game.snapshot)
    earlier = GameHistory.objects.values_list("hands", flat=True).get(game=game)
    return rules.state_from_json(game.snapshot, earlier=earlier)


def hand_summaries(*, game: Game) -> list[dict[str, Any]]:
    """Every settled hand as the table saw it (``engine.indulgence.hand_summaries``: the
    Ruler, the edicts, who sinned or passed, the tricks taken, the payments; never a
    deal), public while the game is played. Reads ``GameHistory`` when the snapshot
    leaves hands out."""
    if game.snapshot is None:
        return []
    return rules.hand_summaries(game_state(game))


def last_hand_summary(*, game: Game) -> dict[str, Any] | None:
    """The last settled hand as in ``hand_summaries`` (every play snapshot holds its
    record: no ``GameHistory`` read), or None before the first settlement."""
    if game.snapshot is None:
        return None
    summaries = rules.hand_summaries(rules.state_from_json(game.snapshot))
    return summaries[-1] if summaries else None


def record_published(game: Game) -> bool:
    """Whether the game's full record is public: it has finished (or is void)."""
    return game.status in (GameStatus.FINISHED, GameStatus.VOID)


def game_export(*, game: Game, opened_for_case: bool = False) -> dict[str, Any]:
    """api.md "The full record": of a finished (or void) game; of a running one only when
    ``disputes.running_record_open`` let staff in (``opened_for_case``)."""
    if not (record_published(game) or opened_for_case):
        raise GameNotFinished("The full record is published when the game has finished.")
    if game.snapshot is None:
        raise GameNotFinished("This game has not started: there is no record yet.")
    record = rules.full_record(game_state(game))
    record.update(
        {
            "id": game.pk,
            "status": game.status,
            "seats": [
                {
                    "seat": s.number,
                    "username": s.player.user.get_username(),
                    "is_bot": s.player.is_bot,
                }
                for s in seats_of_game(game)
            ],
            "moves": [
                {"seq": m.seq, "seat": m.seat, "action": m.action, "at": m.created_at.isoformat()}
                for m in game.moves.filter(archived_at=None).order_by("seq")
            ],
        }
    )
    # Staff adjustments sit beside the record as played: ``result`` stays the engine's
    # (so the record still verifies), ``florins_adjusted`` is the total with them.
    adjustments = florin_adjustments(game=game)
    record["florin_adjustments"] = adjustments
    if record.get("result") is not None:
        record["florins_adjusted"] = {
            seat: amount + sum(a["amount"] for a in adjustments if str(a["seat"]) == seat)
            for seat, amount in record["result"]["florins"].items()
        }
    return record


def record_replay(
    *, player_count: int, variant: str, seed: str, moves: list[dict[str, Any]]
) -> rules.State:
    """Rebuild a game from its seed and server move log (``advance`` steps included)."""
    state = rules.new_game(player_count, variant, seed)
    for move in moves:
        if move["action"].get("type") == "advance":
            state = rules.advance(state)
        else:
            state = rules.apply(state, move["seat"], move["action"])
    return state


def record_verify(record: dict[str, Any]) -> list[str]:
    """Check an exported record against the rules: the seed matches its commitment, and
    replaying seed + moves gives the same deals, tricks, payments and result.
    Returns the problems found (empty: the record is consistent)."""
    problems: list[str] = []
    if rules.seed_commitment(record["seed"]) != record["seed_commitment"]:
        problems.append("the seed does not match the published seed commitment")
    try:
        state = record_replay(
            player_count=record["player_count"],
            variant=record["variant"],
            seed=record["seed"],
            moves=record["moves"],
        )
    except rules.IllegalAction as exc:
        return [*problems, f"the move log does not replay: {exc.message}"]
    replayed = rules.full_record(state)
    for key in ("first_ruler", "result"):
        if replayed[key] != record[key]:
            problems.append(f"{key}: record says {record[key]!r}, replay gives {replayed[key]!r}")
    if len(replayed["hands"]) != len(record["hands"]):
        problems.append(
            f"the record has {len(record['hands'])} hands, the replay {len(replayed['hands'])}"
        )
    for mine, theirs in zip(replayed["hands"], record["hands"], strict=False):
        for key in sorted(set(mine) | set(theirs)):
            if mine.get(key) != theirs.get(key):
                problems.append(f"hand {theirs.get('number')}: {key} differs from the replay")
    return problems


def places(result: dict[str, Any]) -> dict[int, int]:
    """Each seat's place in a finished game (1 = the winner): the winner (after the rules'
    tie-break) alone first, then by florins, equal florins sharing a place."""
    florins = {int(seat): amount for seat, amount in result["florins"].items()}
    winner = int(result["winner_seat"])
    order = sorted(florins, key=lambda s: (s != winner, -florins[s]))
    place_of: dict[int, int] = {}
    for position, seat in enumerate(order):
        previous = order[position - 1] if position else None
        same = previous is not None and previous != winner and florins[previous] == florins[seat]
        place_of[seat] = place_of[previous] if same and previous is not None else position + 1
    return place_of


def rating_changes(*, game: Game) -> dict[int, tuple[float, float]]:
    """What the game did to each rated account: player id -> (rating before, rating after),
    rating = mu - 3 sigma (changes rolled back by a void or a rewind left out)."""
    rows = RatingChange.objects.filter(game=game, rolled_back_at__isnull=True).select_related(
        "rating"
    )
    return {
        row.rating.player_id: (
            row.mu_before - 3 * row.sigma_before,
            row.mu_after - 3 * row.sigma_after,
        )
        for row in rows
    }


DEFAULT_POOL = {"variant": Variant.BASIC.value, "player_count": 4}


def leaderboard_busiest_pool() -> dict[str, Any]:
    """The rating pool (variant, player count) with the most rated players, so that the
    leaderboard opens on one that has games; basic 4-player while no game is rated."""
    busiest = (
        Rating.objects.filter(games__gt=0)
        .values("variant", "player_count")
        .annotate(players=Count("id"))
        .order_by("-players", "variant", "-player_count")
        .first()
    )
    if busiest is None:
        return dict(DEFAULT_POOL)
    return {"variant": busiest["variant"], "player_count": busiest["player_count"]}


def leaderboard(*, variant: str, player_count: int, limit: int = 100) -> list[dict[str, Any]]:
    if variant not in Variant.values:
        raise InvalidRequest("variant must be 'basic' or 'expert'.")
    if player_count not in (3, 4):
        raise InvalidRequest("player_count must be 3 or 4.")
    ratings = (
        # games=0: every rated game of the player was voided (games.disputes.game_void).
        Rating.objects.filter(variant=variant, player_count=player_count, games__gt=0)
        .select_related("player__user")
        .annotate(conservative=F("mu") - 3 * F("sigma"))
        .order_by("-conservative", "player__user__username")[:limit]
    )
    return [
        {
            "rank": position,
            "username": rating.player.user.get_username(),
            "display_name": str(rating.player),
            "is_bot": rating.player.is_bot,
            "rating": round(rating.ordinal, 2),
            "mu": round(rating.mu, 3),
            "sigma": round(rating.sigma, 3),
            "games": rating.games,
        }
        for position, rating in enumerate(ratings, start=1)
    ]


# --- account reads (the caller's own rows) ------------------------------------------------


def hand_settlements(*, game: Game) -> QuerySet[HandSettlement]:
    """The settlements that stand (a rewind archives the ones it undid)."""
    return HandSettlement.objects.filter(game=game, archived_at__isnull=True).order_by(
        "hand_number"
    )


def player_of(*, user: User) -> Player | None:
    """The user's profile, if they have one yet (reads never create it)."""
    return Player.objects.filter(user=user).first()


def tokens_of(*, user: User) -> QuerySet[ApiToken]:
    return ApiToken.objects.filter(user=user).order_by("-created_at", "-id")


def webhooks_of(*, user: User) -> QuerySet[Webhook]:
    return Webhook.objects.filter(user=user).order_by("id")


def webhook_deliveries(*, webhook: Webhook) -> QuerySet[WebhookDelivery]:
    return WebhookDelivery.objects.filter(webhook=webhook).order_by("-id")


def notifications_of(*, user: User, unread_only: bool = False) -> QuerySet[Notification]:
    rows = Notification.objects.filter(user=user).order_by("-id")
    return rows.filter(read_at__isnull=True) if unread_only else rows


def disputes_visible(*, user: AnyUser, game: Game | None = None) -> QuerySet[Dispute]:
    """Disputes on games where the user has a seat (every dispute, for staff)."""
    disputes = Dispute.objects.select_related("opened_by").order_by("-created_at", "-id")
    if game is not None:
        disputes = disputes.filter(game=game)
    if not user.is_authenticated:
        return disputes.none()
    if user.is_staff:
        return disputes
    return disputes.filter(game__seats__player__user_id=user.pk).distinct()
