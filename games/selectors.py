"""Reads. Everything a player is shown about a game passes through ``game_view``, which
renders only the engine's per-seat view (the game's ``view(state, seat)``, through
``games.kinds``) plus public table facts (usernames, status, version). Hidden cards and
rules cannot leave through here.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, Exists, F, OuterRef, QuerySet
from django.utils.translation import gettext as _

from games import kinds
from games.compiled import CompiledQuery
from games.errors import GameNotFinished, InvalidRequest, NotFound
from games.kinds.base import ranks
from games.models import (
    ActorKind,
    ApiToken,
    Dispute,
    FlorinAdjustment,
    Game,
    GameHistory,
    GameStatus,
    HandSettlement,
    Notification,
    Player,
    Rating,
    RatingChange,
    Seat,
    Webhook,
    WebhookDelivery,
)

AnyUser = User | AnonymousUser

# The fields of api.md "The view" that only exist once Indulgence's cards are dealt (the
# game's kind says them for each game: ``GameKind.undealt_view``).
UNDEALT_VIEW: dict[str, Any] = kinds.get("indulgence").undealt_view()


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
    state: Any = None,
    seats: list[Seat] | None = None,
    last_move: Any = None,
) -> dict[str, Any]:
    """api.md "The view" for this user: their seat's view if seated, else a spectator's
    (the common fields of api.md "Many games" and the game's own).
    ``seats``: the game's seats with ``player__user`` loaded, if the caller has them;
    ``last_move``: the live log's last move, if the caller has it (a move just made)."""
    if seats is None:
        seats = seats_of_game(game)  # one query: the caller's seat and the seat list
    kind = kinds.of(game)
    my_seat = _seat_number_of(seats, user)
    if game.snapshot is None:
        view = kind.undealt_view()
        engine_seats: dict[int, dict[str, Any]] = {}
    else:
        if state is None:
            state = kind.load(game.snapshot)
        view = kind.view(state, my_seat)
        engine_seats = {int(s["seat"]): s for s in view["seats"]}
    defaults = kind.seat_defaults()
    view.update(
        {
            "id": game.pk,
            "game_type": game.game_type,
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
            "seats": [_seat_entry(seat, engine_seats.get(seat.number), defaults) for seat in seats],
            "open_seats": game.player_count - len(seats),
        }
    )
    if kind.offers_undo:  # 15.5.2 (Pax Illuminaten): whether the caller may undo now
        view["can_undo"] = (
            my_seat is not None
            and game.to_act_seat == my_seat
            and undo_refusal(game=game, state=state, seat=my_seat, last=last_move) is None
        )
    if kind.score_adjustments:
        _florin_adjustments_add(game, view)
    if game.status == GameStatus.VOID:  # voided mid-hand: nobody is to act any more
        view.update({key: [] for key in ("legal_actions", *kind.action_aligned)})
        view["to_act"] = None
    return view


def undo_refusal(*, game: Game, state: Any, seat: int | None, last: Any = None) -> str | None:
    """Why ``seat`` may not take back its last action now (None: it may): the game's
    ``undoable`` (Pax Illuminaten's 15.5.2, docs/pax.md P-79), and the live move log's
    last move (``last``, read when not given) made by that seat's own player (a bot's,
    the autopilot's or a timeout's move closes the window)."""
    kind = kinds.of(game)
    if not kind.offers_undo:
        return _("%(title)s has no undo: every action is final.") % {"title": kind.meta.title}
    if game.status != GameStatus.IN_PROGRESS or state is None or seat is None:
        return _("Only a player of a running game can take back an action (15.5.2).")
    if game.to_act_seat != seat or not kind.undoable(state, seat):
        return _(
            "Nothing to take back: you may undo only your own last actions in your own "
            "turn while you are to act, back to the last point where hidden information "
            "was revealed (a draw, a Scout, an Expel of a face-down card, an Oust reveal, "
            "an event draw); a move by another seat or an automatic step closes the undo "
            "window too (15.5.2)."
        )
    if last is None:
        live = game.moves.filter(archived_at=None).order_by("-seq")
        last = live.only("seat", "actor_kind").first()
    if last is None or last.seat != seat or last.actor_kind != ActorKind.HUMAN:
        return _(
            "Your last action was played for you (by a bot, the autopilot or when your "
            "time ran out): it cannot be taken back (15.5.2)."
        )
    return None


def _seat_entry(
    seat: Seat, engine_seat: dict[str, Any] | None, defaults: dict[str, Any]
) -> dict[str, Any]:
    entry = {
        "seat": seat.number,
        "username": seat.player.user.get_username(),
        "display_name": str(seat.player),
        "is_bot": seat.player.is_bot,
        "bot_kind": seat.bot_kind or None,
        **defaults,
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


def game_list(
    *,
    user: AnyUser,
    status: str | None = None,
    mine: bool = False,
    game_type: str | None = None,
) -> QuerySet[Game]:
    games = Game.objects.prefetch_related("seats__player__user").order_by("-created_at", "-id")
    if game_type is not None:
        if game_type not in kinds.KINDS:
            raise InvalidRequest(f"game_type must be one of {', '.join(kinds.KINDS)}.")
        games = games.filter(game_type=game_type)
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
        "game_type": game.game_type,
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
    """The move log as this user may see it (the game's ``moves_public``): Indulgence
    hides the cards of a face-down trick that is not yet complete, New Eleusis the rule
    sources and sealed intents of a running game; a reader's own moves are whole."""
    moves = list(game.moves.filter(archived_at=None).order_by("seq"))  # rewinds archive
    if game.snapshot is None:
        return [kinds.base.move_entry(move, dict(move.action)) for move in moves]
    view = game_view(game=game, user=user)
    return kinds.of(game).moves_public(moves, view)


def game_state(game: Game) -> Any:
    """The game's whole stored state (started games): the snapshot, with the records it
    leaves out (Indulgence's settled hands) read from ``GameHistory``. Play and views need
    only the snapshot; the full record and verification need this."""
    assert game.snapshot is not None
    kind = kinds.of(game)
    if not kind.history_start(game.snapshot):
        return kind.load(game.snapshot)
    earlier = GameHistory.objects.values_list("hands", flat=True).get(game=game)
    return kind.load_whole(game.snapshot, earlier)


def replay_moves(game: Game, moves: Any) -> list[dict[str, Any]]:
    """Move rows of ``game`` as a replay takes them: seat, action, and who made it
    (``by``, for games whose record keeps it: New Eleusis): "timeout" for the game's own
    default, "autopilot" for the autopilot's move and for a bot's move at a person's
    seat handed to it after timeouts; None for the seat's own player or bot account."""
    bot_accounts = {seat.number for seat in seats_of_game(game) if is_bot_account_seat(seat)}
    return [{"seat": m.seat, "action": m.action, "by": _move_by(m, bot_accounts)} for m in moves]


def _move_by(move: Any, bot_accounts: set[int]) -> str | None:
    if move.actor_kind == "timeout":
        return "timeout"
    if move.actor_kind == "autopilot":
        return "autopilot"
    if move.actor_kind == "bot" and move.seat not in bot_accounts:
        return "autopilot"  # a person's seat handed to a bot
    return None


def hand_summaries(*, game: Game) -> list[dict[str, Any]]:
    """Every finished part of the game as the table saw it (the game's
    ``part_summaries``; Indulgence's ``engine.indulgence.hand_summaries``: the Ruler, the
    edicts, who sinned or passed, the tricks taken, the payments; never a deal), public
    while the game is played. Reads ``GameHistory`` when the snapshot leaves hands out."""
    if game.snapshot is None:
        return []
    return kinds.of(game).part_summaries(game_state(game))


def last_hand_summary(*, game: Game) -> dict[str, Any] | None:
    """The last finished part as in ``hand_summaries`` (every play snapshot holds its
    record: no ``GameHistory`` read), or None before the first."""
    if game.snapshot is None:
        return None
    kind = kinds.of(game)
    summaries = kind.part_summaries(kind.load(game.snapshot))
    return summaries[-1] if summaries else None


def record_published(game: Game) -> bool:
    """Whether the game's full record is public: it has finished (or is void)."""
    return game.status in (GameStatus.FINISHED, GameStatus.VOID)


def game_export(*, game: Game, opened_for_case: bool = False) -> dict[str, Any]:
    """api.md "The full record": of a finished (or void) game; of a running one only when
    ``disputes.running_record_open`` let staff in (``opened_for_case``). The game's own
    record (Indulgence: api.md; New Eleusis: NE-29.3) with the accounts and move log."""
    if not (record_published(game) or opened_for_case):
        raise GameNotFinished("The full record is published when the game has finished.")
    if game.snapshot is None:
        raise GameNotFinished("This game has not started: there is no record yet.")
    kind = kinds.of(game)
    server = {
        "id": game.pk,
        "game_type": game.game_type,
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
    record = kind.export(kind.record(game_state(game)), server)
    if kind.score_adjustments:
        # Staff adjustments sit beside the record as played: ``result`` stays the
        # engine's (so the record still verifies), ``florins_adjusted`` is the total with
        # them.
        adjustments = florin_adjustments(game=game)
        record["florin_adjustments"] = adjustments
        if record.get("result") is not None:
            record["florins_adjusted"] = {
                seat: amount + sum(a["amount"] for a in adjustments if str(a["seat"]) == seat)
                for seat, amount in record["result"]["florins"].items()
            }
    return record


def record_replay(
    *,
    player_count: int,
    variant: str,
    seed: str,
    moves: list[dict[str, Any]],
    game_type: str = kinds.DEFAULT,
    options: dict[str, Any] | None = None,
) -> Any:
    """Rebuild a game from its seed and server move log (``advance`` steps included;
    ``options``: the engine's options, as ``GameKind.engine_options`` gave them)."""
    return kinds.get(game_type).replay(
        player_count=player_count, variant=variant, seed=seed, options=options or {}, moves=moves
    )


def game_replay(game: Game, moves: list[dict[str, Any]]) -> Any:
    """The game after ``moves`` (``replay_moves`` of some of its rows), from its seed and
    the engine options it was started with (``Game.options`` once started)."""
    return kinds.of(game).replay(
        player_count=game.player_count,
        variant=game.variant,
        seed=game.seed,
        options=dict(game.options or {}),
        moves=moves,
    )


def record_verify(record: dict[str, Any]) -> list[str]:
    """Check an exported record against the rules of its game (``game_type``; records
    exported before there were other games are Indulgence's): for Indulgence, the seed
    matches its commitment, and replaying seed + moves gives the same deals, tricks,
    payments and result; for New Eleusis, NE-29.2 by the engine's ``verify``. Returns the
    problems found (empty: the record is consistent)."""
    return kinds.get(record.get("game_type", kinds.DEFAULT)).record_verify(record)


def places(result: dict[str, Any]) -> dict[int, int]:
    """Each seat's place in a finished game (1 = the winner): from the common result's
    ``ranking`` (ties share a place, the next place counts them), or, for Indulgence's
    stored result (``winner_seat``, ``florins``), the winner (after the rules' tie-break)
    alone first, then by florins, equal florins sharing a place."""
    if "ranking" in result:
        return ranks(result["ranking"])
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


DEFAULT_POOL = {"variant": "basic", "player_count": 4}


def leaderboard_busiest_pool(game_type: str = kinds.DEFAULT) -> dict[str, Any]:
    """The rating pool of a game (variant, player count) with the most rated players, so
    that the leaderboard opens on one that has games; the game's first variant with 4
    players (Indulgence: basic 4-player) while none of its games is rated."""
    busiest = (
        Rating.objects.filter(game_type=game_type, games__gt=0)
        .values("variant", "player_count")
        .annotate(players=Count("id"))
        .order_by("-players", "variant", "-player_count")
        .first()
    )
    if busiest is None:
        pool = leaderboard_pool(game_type=game_type)
        return {"variant": pool["variant"], "player_count": pool["player_count"]}
    return {"variant": busiest["variant"], "player_count": busiest["player_count"]}


def game_types() -> list[dict[str, Any]]:
    """api.md "Many games": every game this server hosts, as ``GET /api/v1/game-types/``
    describes it."""
    return [
        {
            "key": kind.key,
            "title": kind.meta.title,
            "player_counts": list(kind.meta.player_counts),
            "rated_player_counts": list(kind.meta.rated_player_counts),
            "variants": [{"key": v, "title": kind.variant_title(v)} for v in kind.meta.variants],
            "bots": [{"key": b, "title": kind.bot_title(b)} for b in sorted(kind.bot_kinds())],
            "autopilot": kind.autopilot_bot(),
            "rules_url": kind.rules_url(),
        }
        for kind in kinds.hosted()
    ]


def leaderboard_pool(
    *, game_type: str, variant: str | None = None, player_count: int | None = None
) -> dict[str, Any]:
    """A rating pool with its defaults filled in: the game's first variant, 4 players."""
    if game_type not in kinds.KINDS:
        raise InvalidRequest(f"game_type must be one of {', '.join(kinds.KINDS)}.")
    meta = kinds.get(game_type).meta
    return {
        "game_type": game_type,
        "variant": variant or meta.default_variant,
        "player_count": 4 if player_count is None else player_count,
    }


def leaderboard(
    *, variant: str, player_count: int, limit: int = 100, game_type: str = kinds.DEFAULT
) -> list[dict[str, Any]]:
    if game_type not in kinds.KINDS:
        raise InvalidRequest(f"game_type must be one of {', '.join(kinds.KINDS)}.")
    kind = kinds.get(game_type)
    if variant not in kind.meta.variants:
        raise InvalidRequest(kind.variant_refusal())
    if player_count not in kind.meta.rated_player_counts:
        raise InvalidRequest(kind.player_count_refusal())
    ratings = (
        # games=0: every rated game of the player was voided (games.disputes.game_void).
        Rating.objects.filter(
            game_type=game_type, variant=variant, player_count=player_count, games__gt=0
        )
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
