"""The only code that changes games. Every writer here follows one pattern:

1. open a transaction and lock the game row (``select_for_update``) so that two requests
   for one game are serialised: the second sees the first's result, never a half;
2. check who is asking and the ``version`` they saw (stale commands are refused);
3. apply the change through the engine, append the ``Move``, save the snapshot, bump
   the version;
4. after commit, queue what follows (bot turn, hand settlement), never before.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import random
import secrets
import time
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import IntegrityError, transaction
from django.db.models import Q, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

import engine.indulgence as rules
from games import announce, bots, compiled, events, selectors
from games.compiled import CompiledQuery
from games.errors import (
    AbortNotAllowed,
    AlreadySeated,
    DisputeNotAllowed,
    Forbidden,
    GameFull,
    GameNotActive,
    IdempotencyKeyReused,
    IllegalActionError,
    InvalidRequest,
    NotFound,
    NotOpen,
    NotSeated,
    NotYourTurn,
    UnknownBot,
    VersionConflict,
)
from games.models import (
    ActorKind,
    ApiToken,
    Dispute,
    Game,
    GameHistory,
    GameStatus,
    HandSettlement,
    IdempotencyRecord,
    Invitation,
    Move,
    Player,
    Rating,
    RatingChange,
    Seat,
    TokenScope,
    Variant,
)

MIN_TURN_TIMEOUT_SECONDS = 60
MAX_TURN_TIMEOUT_SECONDS = 30 * 24 * 3600
DISPUTE_WINDOW = timedelta(days=7)
MAX_DISPUTE_REASON = 4000
TOKEN_PREFIX = "ind_"  # noqa: S105 (a marker that makes leaked tokens greppable)
TOKEN_TOUCH_INTERVAL = timedelta(minutes=1)


@dataclass(frozen=True)
class ActionResult:
    game: Game
    view: dict[str, Any]
    replayed: bool


# --- players and accounts ---------------------------------------------------------------


def player_ensure(*, user: User, is_bot: bool = False, bot_kind: str = "") -> Player:
    """The user's Player profile, created on first use; ``is_bot`` only ever adds the flag."""
    player, _ = Player.objects.get_or_create(
        user=user, defaults={"display_name": user.get_username()}
    )
    if is_bot and (not player.is_bot or (bot_kind and player.bot_kind != bot_kind)):
        player.is_bot = True
        player.bot_kind = bot_kind or player.bot_kind
        player.save(update_fields=["is_bot", "bot_kind"])
    return player


def bot_player(*, kind: str) -> Player:
    """The shared account a built-in bot plays under (``bot-<kind>``). The accounts exist
    from migration 0011, and no one can sign up under a ``bot-`` name (username_reserved);
    this creates one only for a kind added since."""
    user, _ = get_user_model().objects.get_or_create(username=f"{BOT_NAME_PREFIX}{kind}")
    if user.has_usable_password():
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return player_ensure(user=user, is_bot=True, bot_kind=kind)


LANGUAGE_CODES = frozenset(code for code, _name in settings.LANGUAGES)
BOT_NAME_PREFIX = "bot-"


def username_reserved(username: str) -> bool:
    """True for names only the server's built-in bots may hold: every ``bot-`` name, read
    as the log-in reads it (NFKC, any case, with invisible format characters dropped), so
    ``BOT-Random`` and ``ｂｏｔ-random`` are reserved too."""
    folded = unicodedata.normalize("NFKC", username).casefold().strip()
    visible = "".join(ch for ch in folded if unicodedata.category(ch) != "Cf")
    return visible.startswith(BOT_NAME_PREFIX)


def account_signup(*, username: str, password: str, language: str = "en") -> User:
    """Create a human account and its Player profile in one transaction.

    The caller validates the password (Django's validators run in the sign-up form).
    """
    if language not in LANGUAGE_CODES:
        raise InvalidRequest(
            _("language must be one of %(codes)s.") % {"codes": ", ".join(sorted(LANGUAGE_CODES))}
        )
    if username_reserved(username):
        raise InvalidRequest(
            _("Names beginning with “bot-” belong to the site's built-in bots; choose another.")
        )
    users = get_user_model()
    with transaction.atomic():
        if users.objects.filter(username__iexact=username).exists():
            raise InvalidRequest(_("That username is taken."))
        user = users.objects.create_user(username=username, password=password)
        player = player_ensure(user=user)
        player.language = language
        player.save(update_fields=["language"])
    return user


def player_language_set(*, user: User, language: str) -> Player:
    """Remember the language a signed-in person reads the site in."""
    if language not in LANGUAGE_CODES:
        raise InvalidRequest(
            _("language must be one of %(codes)s.") % {"codes": ", ".join(sorted(LANGUAGE_CODES))}
        )
    player = player_ensure(user=user)
    if player.language != language:
        player.language = language
        player.save(update_fields=["language"])
    return player


DISPLAY_NAME_MAX = 64


def player_display_name_set(*, user: User, display_name: str) -> Player:
    """The name shown at tables and on the leaderboard; blank means the username."""
    name = " ".join(display_name.split())
    if len(name) > DISPLAY_NAME_MAX:
        raise InvalidRequest(
            _("A display name has at most %(max)d characters.") % {"max": DISPLAY_NAME_MAX}
        )
    player = player_ensure(user=user)
    name = name or user.get_username()
    if player.display_name != name:
        player.display_name = name
        player.save(update_fields=["display_name"])
    return player


# --- creating, joining, starting ----------------------------------------------------------


def game_create(
    *,
    creator: User,
    player_count: int,
    variant: str = Variant.BASIC,
    turn_timeout_seconds: int | None = None,
    bots: Sequence[tuple[int, str]] = (),
    rated: bool = True,
    seed: str | None = None,
    invite: Sequence[str] = (),
) -> Game:
    """Create a game with the creator in seat 0 and built-in bots where asked.

    ``invite``: usernames challenged to the open seats (each is told; the seats stay open
    to anyone, and an invitee accepts by joining)."""
    if player_count not in (3, 4):
        raise InvalidRequest(_("player_count must be 3 or 4."))
    if variant not in Variant.values:
        raise InvalidRequest(_("variant must be 'basic' or 'expert'."))
    if turn_timeout_seconds is not None and not (
        MIN_TURN_TIMEOUT_SECONDS <= turn_timeout_seconds <= MAX_TURN_TIMEOUT_SECONDS
    ):
        raise InvalidRequest(
            _("turn_timeout_seconds must be between %(low)d and %(high)d (30 days).")
            % {"low": MIN_TURN_TIMEOUT_SECONDS, "high": MAX_TURN_TIMEOUT_SECONDS}
        )
    if seed is not None:
        if rated:
            raise InvalidRequest(_("A seed may only be chosen for unrated games (rated: false)."))
        if not 1 <= len(seed) <= 128:
            raise InvalidRequest(_("seed must be 1 to 128 characters long."))
    bot_seats = _validate_bot_seats(bots, player_count)
    if seed is not None and (invite or len(bot_seats) != player_count - 1):
        # Whoever chose the seed can compute every deal: no other person may sit here.
        raise InvalidRequest(
            _(
                "A game with a chosen seed is a sandbox for you and the built-in bots: "
                "give every other seat a bot (bots) and invite no one."
            )
        )
    invitees = _validate_invitees(invite, creator, player_count - 1 - len(bot_seats))

    with transaction.atomic():
        game = Game.objects.create(
            variant=variant,
            player_count=player_count,
            rated=rated,
            sandbox=seed is not None,
            seed=seed if seed is not None else server_seed(),
            turn_timeout_seconds=turn_timeout_seconds,
            created_by=creator,
            version=1,
        )
        game.seed_commitment = rules.seed_commitment(game.seed)
        game.save(update_fields=["seed_commitment"])
        Seat.objects.create(game=game, number=0, player=player_ensure(user=creator))
        for number, kind in bot_seats:
            Seat.objects.create(
                game=game, number=number, player=bot_player(kind=kind), bot_kind=kind
            )
        if invitees:
            Invitation.objects.bulk_create([Invitation(game=game, user=u) for u in invitees])
            announce.challenge(game=game, creator=creator, invitees=invitees)
        if len(bot_seats) == player_count - 1:
            _game_start(game)
    return game


def server_seed() -> str:
    """A seed drawn by the server: 256 random bits (64 hex characters), so its public
    commitment (sha256) cannot be searched for the seed."""
    return secrets.token_hex(32)


def _validate_invitees(usernames: Sequence[str], creator: User, free_seats: int) -> list[User]:
    """The active accounts named in ``usernames``, in order (each once, never the creator,
    no more than the seats left for people)."""
    names = [str(name).strip() for name in usernames]
    if not names:
        return []
    if any(not name for name in names):
        raise InvalidRequest(_("invite: a username may not be empty."))
    if len(set(names)) != len(names):
        raise InvalidRequest(_("invite: each username may be named only once."))
    if creator.get_username() in names:
        raise InvalidRequest(_("invite: you cannot invite yourself; you have seat 0."))
    if len(names) > free_seats:
        raise InvalidRequest(
            _("invite: %(count)d invitations but only %(free)d seat(s) left for people.")
            % {"count": len(names), "free": free_seats}
        )
    found = {
        user.get_username(): user
        for user in get_user_model()
        .objects.filter(username__in=names, is_active=True)
        .exclude(player__is_bot=True)
    }
    missing = [name for name in names if name not in found]
    if missing:
        raise InvalidRequest(
            _("invite: no active account is named %(names)s.") % {"names": ", ".join(missing)}
        )
    return [found[name] for name in names]


def _validate_bot_seats(
    requested: Sequence[tuple[int, str]], player_count: int
) -> list[tuple[int, str]]:
    available = bots.available_kinds()
    seen: set[int] = set()
    for number, kind in requested:
        if not 1 <= number < player_count:
            raise InvalidRequest(
                _("Bot seats must be between 1 and %(last)d; seat 0 is yours.")
                % {"last": player_count - 1}
            )
        if number in seen:
            raise InvalidRequest(_("Seat %(seat)d was given two bots.") % {"seat": number})
        if kind not in available:
            names = ", ".join(sorted(available))
            raise UnknownBot(
                _("There is no built-in bot called %(kind)r; available: %(names)s.")
                % {"kind": kind, "names": names}
            )
        seen.add(number)
    return sorted(requested)


def game_join(*, game_id: int, user: User) -> Game:
    """Take the first free seat; the game starts by itself when the last seat is filled."""
    with transaction.atomic():
        # Locked so two people joining at once cannot both take the last seat.
        game = _lock_game(game_id)
        seats = list(game.seats.select_related("player__user"))
        if any(seat.player.user_id == user.pk for seat in seats):
            raise AlreadySeated(_("You already have a seat at this game."))
        if game.sandbox:
            raise Forbidden(
                _(
                    "This game is a sandbox: its creator chose the seed and can compute "
                    "every deal, so only the creator and built-in bots play in it."
                )
            )
        if game.status != GameStatus.OPEN:
            if len(seats) >= game.player_count:
                raise GameFull(_("Every seat at this game is taken."))
            raise NotOpen(
                _("This game is %(status)s, not open for joining.")
                % {"status": game.get_status_display().lower()}
            )
        taken = {seat.number for seat in seats}
        number = min(set(range(game.player_count)) - taken)
        seat = Seat.objects.create(game=game, number=number, player=player_ensure(user=user))
        game.version += 1
        announce.player_joined(game=game, seat=seat)
        if len(seats) + 1 == game.player_count:
            _game_start(game)
        else:
            game.save(update_fields=["version", "updated_at"])
    return game


def _game_start(game: Game) -> None:
    """Deal the first hand. Called under the game's lock, inside the caller's transaction."""
    state = rules.new_game(game.player_count, game.variant, game.seed)
    game.status = GameStatus.IN_PROGRESS
    game.started_at = timezone.now()
    _store_state(game, state)
    game.save()
    _schedule_next_step(game, state)


# --- moves --------------------------------------------------------------------------------


def action_submit(
    *,
    game_id: int,
    user: User,
    action: Any,
    expected_version: int | None = None,
    idempotency_key: str | None = None,
) -> ActionResult:
    """Apply a seated player's action. A rejected action changes nothing.

    With an ``idempotency_key`` a repeat of the same request is answered with the first
    request's result (``replayed``), never applied twice."""
    request_hash = _request_hash(game_id, action, expected_version)
    try:
        return _action_apply(
            game_id=game_id,
            user=user,
            action=action,
            expected_version=expected_version,
            idempotency_key=idempotency_key,
            request_hash=request_hash,
        )
    except (VersionConflict, NotYourTurn, IllegalActionError, GameNotActive, IdempotencyKeyReused):
        if idempotency_key is None:
            raise
        # A repeat that waited for the game's lock while the first request held it: the
        # locking query's snapshot predates the first's commit, so it could not see the
        # record. Refused, it looks again (a new statement sees what has committed).
        record = IdempotencyRecord.objects.filter(user=user, key=idempotency_key).first()
        if record is None:
            raise
        if record.request_hash != request_hash:
            raise IdempotencyKeyReused(
                "This Idempotency-Key was already used for a different request."
            ) from None
        return ActionResult(game=Game.objects.get(pk=game_id), view=record.response, replayed=True)


def _action_apply(
    *,
    game_id: int,
    user: User,
    action: Any,
    expected_version: int | None,
    idempotency_key: str | None,
    request_hash: str,
) -> ActionResult:
    with transaction.atomic():
        # Locked: one move at a time per game; a concurrent duplicate waits, then fails
        # the version or turn check (or finds its idempotency record) instead of racing.
        game = _lock_game(game_id, idempotency=(user, idempotency_key))
        recorded_hash = getattr(game, "idempotent_hash", None)
        if recorded_hash is not None:
            # This key's record (read by the same query): a repeat gets the first answer.
            if recorded_hash != request_hash:
                raise IdempotencyKeyReused(
                    "This Idempotency-Key was already used for a different request."
                )
            first_answer: dict[str, Any] = getattr(game, "idempotent_response", None) or {}
            return ActionResult(game=game, view=first_answer, replayed=True)
        # One read of the seats (with their accounts) serves the turn check, the view,
        # the announcement (the next player's notification) and the next-step queueing.
        seats = selectors.seats_of_game(game, notifying=True)
        seat = _human_seat(game, user, seats=seats)
        if game.status != GameStatus.IN_PROGRESS:
            raise GameNotActive(
                _("This game is %(status)s; no moves now.")
                % {"status": game.get_status_display().lower()}
            )
        if expected_version is not None and expected_version != game.version:
            raise VersionConflict(
                _(
                    "The game is at version %(current)d, not %(sent)d: "
                    "fetch the game and decide again."
                )
                % {"current": game.version, "sent": expected_version}
            )
        state = _load_state(game)
        _check_turn(state, seat.number)
        new_state = _apply(state, seat.number, action)
        # The move's writes (the game, the move, its events and notifications, the key's
        # record) go to PostgreSQL as one statement (games.compiled.batched).
        with compiled.batched():
            if seat.autopilot_streak:
                seat.autopilot_streak = 0
                compiled.update(seat, ["autopilot_streak"])
            _step_record(
                game,
                new_state,
                seats=seats,
                seat=seat.number,
                action=action,
                actor_kind=ActorKind.HUMAN,
                user=user,
                idempotency_key=idempotency_key or "",
            )
            view = selectors.game_view(game=game, user=user, state=new_state, seats=seats)
            record = None
            if idempotency_key is not None:
                record = _idempotency_record(
                    user=user, key=idempotency_key, game=game, request_hash=request_hash, view=view
                )
        # The game lock does not cover the key: a request for another game may have claimed
        # it meanwhile; its unique row then refuses this one (and the move rolls back).
        if record is not None and record.pk is None:
            raise IdempotencyKeyReused(
                "This Idempotency-Key was already used for a different request."
            )
    return ActionResult(game=game, view=view, replayed=False)


def bot_turn_play(*, game_id: int, expected_version: int) -> bool:
    """Let the bot whose turn it is move. Returns False (and does nothing) when stale."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None or game.version != expected_version or game.status != GameStatus.IN_PROGRESS:
        return False
    state = _load_state(game)
    number = rules.to_act(state)
    seat = game.seats.filter(number=number).first() if number is not None else None
    if seat is None or not seat.bot_kind:
        return False
    # The bot thinks outside the transaction: it sees only its seat's view, and its
    # answer is applied below only if the game has not moved meanwhile.
    view = rules.view(state, seat.number)
    rng = random.Random(_derive_int(game.seed, f"bot:{game.move_count}"))
    started = time.monotonic()
    action = bots.choose(seat.bot_kind, view, rng)
    _think_at_least(seat.bot_kind, started)
    with transaction.atomic():
        game = _lock_game(game_id)  # Locked: the version check and the append are one step.
        if game.version != expected_version:
            return False
        new_state = _apply(state, seat.number, action)
        # Read before the batch: a read inside it would send its writes in two statements.
        seats = selectors.seats_of_game(game, notifying=True)
        with compiled.batched():
            _step_record(
                game,
                new_state,
                seats=seats,
                seat=seat.number,
                action=action,
                actor_kind=ActorKind.BOT,
                bot_name=seat.bot_kind,
                bot_version=bots.version(seat.bot_kind),
            )
    return True


def _think_at_least(kind: str, started: float) -> None:
    """Wait out the kind's least thinking time (settings.BOT_MIN_THINK_SECONDS), so a move
    the bot found at once (a single legal card) is not told apart by its timestamp."""
    floor = float(settings.BOT_MIN_THINK_SECONDS.get(kind, 0.0))
    left = floor - (time.monotonic() - started)
    if left > 0:
        time.sleep(left)


def hand_settle(*, game_id: int, hand_number: int) -> bool:
    """Settle a finished hand and deal the next one, exactly once per hand."""
    with transaction.atomic():
        # Locked: settlement is claimed by whoever holds the lock and finds it still due;
        # a second delivery of the same task then finds nothing to do.
        game = _lock_game(game_id)
        if game.status != GameStatus.IN_PROGRESS:
            return False
        state = _load_state(game)
        if rules.to_act(state) is not None or rules.is_over(state):
            return False
        if rules.view(state, None)["hand_number"] != hand_number:
            return False
        new_state = rules.advance(state)
        hand = rules.settled_hand(new_state, hand_number)
        try:
            with transaction.atomic():
                HandSettlement.objects.create(
                    game=game,
                    hand_number=hand_number,
                    payments=hand["payments"],
                    florins_after=hand["florins_after"],
                )
        except IntegrityError:
            return False  # already settled: the unique row is the claim
        seats = selectors.seats_of_game(game, notifying=True)  # before the batch, as above
        with compiled.batched():
            _step_record(
                game,
                new_state,
                seats=seats,
                seat=None,
                action={"type": "advance"},
                actor_kind=ActorKind.SYSTEM,
            )
    return True


def _step_record(game: Game, state: rules.State, *, seats: list[Seat], **step: Any) -> Move:
    """Append a step (``_append_move``'s fields) to the move log, store the state it led
    to, and announce it. Called under the game's lock, in the caller's write batch, with
    the game's seats read before it (``selectors.seats_of_game(game, notifying=True)``)."""
    move = _append_move(game, **step)
    _store_state(game, state)
    compiled.update(game, GAME_PLAY_FIELDS)
    _schedule_next_step(game, state, move=move, seats=seats)
    return move


def _schedule_next_step(
    game: Game, state: rules.State, *, move: Move | None = None, seats: list[Seat] | None = None
) -> None:
    """Announce the stored state (stream events, notifications: games.announce), then,
    after commit, queue whatever it waits for: a settlement or a bot. ``seats``: the
    game's seats with their accounts, when the caller has already read them."""
    if seats is None:
        seats = selectors.seats_of_game(game, notifying=True)
    announce.game_changed(game=game, state=state, move=move, seats=seats)
    _queue_next_step(game, state, seats=seats)


def _queue_next_step(game: Game, state: rules.State, *, seats: list[Seat] | None = None) -> None:
    """After commit, queue whatever the stored state waits for: a settlement or a bot.
    (games.disputes.game_rewind calls this alone: it announces the rewind itself.)"""
    from games import tasks

    if game.status != GameStatus.IN_PROGRESS:
        return
    if game.to_act_seat is None:
        hand_number = int(rules.view(state, None)["hand_number"])
        tasks.enqueue_on_commit(tasks.hand_settle, game.pk, hand_number)
        return
    if seats is None:
        seat = game.seats.filter(number=game.to_act_seat).first()
    else:
        seat = next((s for s in seats if s.number == game.to_act_seat), None)
    if seat is not None and seat.bot_kind:
        tasks.enqueue_on_commit(tasks.bot_turn, game.pk, game.version)


def _game_finish(game: Game, state: rules.State) -> None:
    game.status = GameStatus.FINISHED
    game.finished_at = timezone.now()
    game.result = rules.result(state)
    game.turn_deadline = None
    if game.rated:
        _ratings_update(game)


def _ratings_update(game: Game) -> None:
    """OpenSkill (Plackett-Luce) update for every distinct account at the table."""
    from openskill.models import PlackettLuce

    assert game.result is not None
    model = PlackettLuce()
    rank_of_seat = selectors.places(game.result)
    best_rank: dict[int, int] = {}
    for seat in game.seats.all():
        rank = rank_of_seat[seat.number]
        best_rank[seat.player_id] = min(rank, best_rank.get(seat.player_id, rank))
    player_ids = sorted(best_rank)
    ratings = []
    for player_id in player_ids:
        rating, _ = Rating.objects.select_for_update().get_or_create(
            player_id=player_id,
            variant=game.variant,
            player_count=game.player_count,
            defaults={"mu": model.mu, "sigma": model.sigma},
        )
        ratings.append(rating)
    teams = [[model.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    updated = model.rate(teams, ranks=[best_rank[p] for p in player_ids])
    for rating, [new] in zip(ratings, updated, strict=True):
        RatingChange.objects.create(
            game=game,
            rating=rating,
            mu_before=rating.mu,
            sigma_before=rating.sigma,
            mu_after=new.mu,
            sigma_after=new.sigma,
        )
        rating.mu, rating.sigma = new.mu, new.sigma
        rating.games += 1
        rating.save()


# --- abort and rematch ----------------------------------------------------------------------


def game_abortable(game: Game, user: User) -> bool:
    """Whether ``user`` may abort ``game`` now (``game_abort`` decides; pages use this to
    offer the button): its creator, while it is open or played, when no person has moved
    in it yet, or at any time when it is a sandbox (only its creator and built-in bots
    play there, unrated, so nobody else loses anything)."""
    if game.created_by_id != user.pk or game.status not in (
        GameStatus.OPEN,
        GameStatus.IN_PROGRESS,
    ):
        return False
    return game.sandbox or not _person_moved(game)


def _person_moved(game: Game) -> bool:
    """Whether a person (not a bot, the autopilot or a settlement) ever moved in the game."""
    return game.moves.filter(actor_kind=ActorKind.HUMAN, archived_at__isnull=True).exists()


def game_abort(*, game_id: int, user: User, expected_version: int | None = None) -> Game:
    """The creator calls a game off that nobody played (no litter of games abandoned
    after their creation, or left behind by a tool): it becomes ``void``, nobody is to act
    any more, and pending bot turns and settlements find nothing to do. Allowed to its
    creator while it is open or in progress, when no person has moved in it yet, and for
    sandbox games at any time (``game_abortable``). Nothing is rated: a game that never
    finished has no rating change."""
    with transaction.atomic():
        game = _lock_game(game_id)  # Locked: no move, bot turn or settlement lands meanwhile.
        if game.created_by_id != user.pk:
            raise Forbidden(_("Only the player who created a game may abort it."))
        if game.status not in (GameStatus.OPEN, GameStatus.IN_PROGRESS):
            raise GameNotActive(
                _("This game is %(status)s; only an open or running game can be aborted.")
                % {"status": game.get_status_display().lower()}
            )
        if expected_version is not None and expected_version != game.version:
            raise VersionConflict(
                _(
                    "The game is at version %(current)d, not %(sent)d: "
                    "fetch the game and decide again."
                )
                % {"current": game.version, "sent": expected_version}
            )
        if not game.sandbox and _person_moved(game):
            raise AbortNotAllowed(
                _(
                    "A person has moved in this game, so it can no longer be aborted: "
                    "play it to the end."
                )
            )
        status_before = game.status
        game.status = GameStatus.VOID
        game.to_act_seat = None
        game.turn_deadline = None
        game.version += 1
        game.save(update_fields=["status", "to_act_seat", "turn_deadline", "version", "updated_at"])
        # The stream event is written here and announced after commit (games.events).
        events.game_event_add(
            game=game,
            type="game_voided",
            payload={"status": game.status, "aborted": True, "status_before": status_before},
        )
    return game


def game_rematch(*, game_id: int, user: User) -> Game:
    """A new game like a finished one (variant, player count, rated, turn time), started
    by one of its people: they take seat 0, the same built-in bots sit at the last seats
    and the other people are challenged to the open ones. A sandbox's rematch is dealt
    from a seed the server draws (it is an ordinary unrated game against the same bots)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise NotFound(_("There is no game %(id)d.") % {"id": game_id})
    seats = selectors.seats_of_game(game)
    people = [s for s in seats if not selectors.is_bot_account_seat(s)]
    if not any(s.player.user_id == user.pk for s in people):
        raise NotSeated(_("Only the people who played a game can ask for a rematch."))
    if game.status != GameStatus.FINISHED:
        raise GameNotActive(_("A rematch can be asked for once the game has finished."))
    kinds = [s.bot_kind for s in seats if selectors.is_bot_account_seat(s)]
    first_bot = game.player_count - len(kinds)
    return game_create(
        creator=user,
        player_count=game.player_count,
        variant=game.variant,
        turn_timeout_seconds=game.turn_timeout_seconds,
        bots=[(first_bot + i, kind) for i, kind in enumerate(kinds)],
        rated=game.rated and not game.sandbox,
        invite=[s.player.user.get_username() for s in people if s.player.user_id != user.pk],
    )


# --- disputes -----------------------------------------------------------------------------


def dispute_create(*, game_id: int, user: User, reason: str) -> Dispute:
    reason = reason.strip()
    if not reason:
        raise InvalidRequest(_("Say what went wrong: the reason may not be empty."))
    if len(reason) > MAX_DISPUTE_REASON:
        raise InvalidRequest(
            _("The reason may be at most %(max)d characters long.") % {"max": MAX_DISPUTE_REASON}
        )
    with transaction.atomic():
        game = _lock_game(game_id)  # Locked so the status read is the one we act on.
        people = Q(bot_kind="") | Q(player__bot_kind="")  # not a bot account's seat
        if not game.seats.filter(people, player__user=user).exists():
            raise NotSeated(_("Only players seated at this game can dispute it."))
        if game.status == GameStatus.FINISHED:
            assert game.finished_at is not None
            if timezone.now() - game.finished_at > DISPUTE_WINDOW:
                raise DisputeNotAllowed(_("Games can be disputed up to 7 days after they end."))
        elif game.status != GameStatus.IN_PROGRESS:
            raise DisputeNotAllowed(
                _("A %(status)s game cannot be disputed.")
                % {"status": game.get_status_display().lower()}
            )
        dispute = Dispute.objects.create(game=game, opened_by=user, reason=reason)
        from games import disputes  # games.disputes imports this module

        disputes.dispute_notify(game=game, dispute=dispute, event="opened")
    return dispute


# --- API tokens ---------------------------------------------------------------------------


def _token_hash(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


def token_issue(
    *, user: User, name: str = "", scopes: Sequence[str] = ("read", "play")
) -> tuple[ApiToken, str]:
    """Create a token; the clear text is returned once and never stored."""
    unknown = set(scopes) - set(TokenScope.values)
    if unknown or not scopes:
        raise InvalidRequest(
            _("Scopes must be chosen from %(scopes)s.") % {"scopes": ", ".join(TokenScope.values)}
        )
    if len(name) > 64:
        raise InvalidRequest(_("A token name may be at most 64 characters long."))
    raw = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user,
        name=name,
        token_hash=_token_hash(raw),
        prefix=raw[:12],
        scopes=sorted(set(scopes)),
    )
    return token, raw


def token_revoke(*, token_id: int, user: User) -> None:
    updated = ApiToken.objects.filter(pk=token_id, user=user, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )
    if not updated and not ApiToken.objects.filter(pk=token_id, user=user).exists():
        raise NotFound(_("You have no token with that id."))


def token_authenticate(*, raw: str) -> ApiToken | None:
    token = _TOKEN.first(_token_hash(raw))
    if token is None:
        return None
    now = timezone.now()
    if token.last_used_at is None or now - token.last_used_at > TOKEN_TOUCH_INTERVAL:
        ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token


# --- helpers ------------------------------------------------------------------------------


def _games_locked(game_id: int) -> QuerySet[Game]:
    return selectors.games_with_adjustment_flag(
        Game.objects.select_for_update().filter(pk=game_id)
    ).order_by("pk")[:1]


def _games_locked_with_key(game_id: int, user_id: int, key: str) -> QuerySet[Game]:
    record = IdempotencyRecord.objects.filter(user_id=user_id, key=key)
    return _games_locked(game_id).annotate(
        idempotent_hash=Subquery(record.values("request_hash")[:1]),
        idempotent_response=Subquery(record.values("response")[:1]),
    )


# Every move and bot turn runs these: compiled once per process (games.compiled).
_GAME_LOCKED = CompiledQuery(_games_locked, int)
_GAME_LOCKED_WITH_KEY = CompiledQuery(_games_locked_with_key, int, int, str)


# Every API request authenticates: compiled once per process too.
_TOKEN = CompiledQuery(
    lambda token_hash: (
        ApiToken.objects.select_related("user")
        .filter(token_hash=token_hash, revoked_at__isnull=True, user__is_active=True)
        .order_by("pk")[:1]
    ),
    str,
)


def _lock_game(game_id: int, *, idempotency: tuple[User, str | None] | None = None) -> Game:
    """The game row, locked. With ``idempotency`` = (user, key), the same query also reads
    that key's record: ``game.idempotent_hash`` and ``game.idempotent_response`` (None when
    the key is new or absent)."""
    if idempotency is not None and idempotency[1] is not None:
        user, key = idempotency
        game = _GAME_LOCKED_WITH_KEY.first(game_id, user.pk, key)
    else:
        game = _GAME_LOCKED.first(game_id)
    if game is None:
        raise NotFound(_("There is no game %(id)d.") % {"id": game_id})
    return game


def _human_seat(game: Game, user: User, *, seats: list[Seat] | None = None) -> Seat:
    if seats is None:
        seat = game.seats.filter(player__user=user).first()
    else:
        seat = next((s for s in seats if s.player.user_id == user.pk), None)
    if seat is None:
        raise NotSeated(_("You are not seated at this game."))
    if seat.bot_kind:
        # A built-in bot plays this seat: its own account's seat, or one handed to a bot
        # after repeated timeouts. Only the server moves for it (issue 26, item 1).
        if selectors.is_bot_account_seat(seat):
            raise NotSeated(_("You are not seated at this game."))
        raise Forbidden(
            _("Your seat is played by the %(bot)s bot for the rest of this game.")
            % {"bot": seat.bot_kind}
        )
    return seat


def _check_turn(state: rules.State, seat_number: int) -> None:
    to_act = rules.to_act(state)
    if to_act == seat_number:
        return
    if to_act is None:
        raise NotYourTurn(_("The hand is being settled; the next hand is dealt in a moment."))
    raise NotYourTurn(
        _("It is seat %(to_act)d's turn, not yours (seat %(seat)d).")
        % {"to_act": to_act, "seat": seat_number}
    )


# The engine explains refusals in precise English ("You must follow medici: you hold M3,
# M8."). Readers of other languages get the same refusal as one translated sentence.
_ENGINE_REFUSALS = {
    "game_over": gettext_lazy("The game is over."),
    "invalid_seat": gettext_lazy("That seat is not at this table."),
    "malformed_action": gettext_lazy("That action is not well formed."),
    "not_your_turn": gettext_lazy("It is not your turn."),
    "wrong_phase": gettext_lazy("That action does not fit this moment of the hand."),
    "unknown_edict": gettext_lazy("There is no such edict."),
    "edict_not_in_row": gettext_lazy("That edict is not in the row."),
    "papal_bull_unavailable": gettext_lazy("You have no papal bull to play."),
    "card_not_in_hand": gettext_lazy("That card is not in your hand."),
    "must_follow_suit": gettext_lazy("You must follow the led family."),
    "first_lead_restricted": gettext_lazy(
        "The first lead may not be of a family named by an edict in force."
    ),
    "indulgence_not_allowed": gettext_lazy("You may not use the Indulgence ring now."),
    "invalid_tie_choice": gettext_lazy("That is not one of the tied players."),
}


def _engine_refusal(exc: rules.IllegalAction) -> str:
    if (get_language() or "en").startswith("en") or exc.code not in _ENGINE_REFUSALS:
        return exc.message
    return str(_ENGINE_REFUSALS[exc.code])


def _apply(state: rules.State, seat_number: int, action: Any) -> rules.State:
    try:
        return rules.apply(state, seat_number, action)
    except rules.IllegalAction as exc:
        raise IllegalActionError(_engine_refusal(exc)) from exc


def _append_move(
    game: Game,
    *,
    seat: int | None,
    action: Any,
    actor_kind: str,
    user: User | None = None,
    bot_name: str = "",
    bot_version: str = "",
    idempotency_key: str = "",
) -> Move:
    game.move_count += 1
    game.version += 1
    move = Move(
        game=game,
        seq=game.move_count,
        seat=seat,
        action=action,
        actor_kind=actor_kind,
        actor_user=user,
        bot_name=bot_name,
        bot_version=bot_version,
        idempotency_key=idempotency_key,
        version_after=game.version,
    )
    compiled.insert(move)
    return move


# What a move (and the settlement or finish it may bring) changes on the game row:
# _append_move, _store_state and _game_finish write these fields and no others.
GAME_PLAY_FIELDS = [
    "move_count",
    "version",
    "snapshot",
    "to_act_seat",
    "turn_deadline",
    "status",
    "finished_at",
    "result",
    "updated_at",
]


def _load_state(game: Game) -> rules.State:
    """The stored state, as the snapshot holds it: enough for play and views (only the
    last settled hand's record; ``selectors.game_state`` restores them all)."""
    if game.snapshot is None:
        raise GameNotActive(_("This game has not started yet."))
    return rules.state_from_json(game.snapshot)


def _store_state(game: Game, state: rules.State) -> None:
    """Cache the state on the row, with what lobbies and deadline sweeps read from it;
    the settled hands' records go to ``GameHistory`` when there are more of them."""
    _history_store(game, state)
    game.snapshot = rules.play_snapshot(state)
    game.to_act_seat = rules.to_act(state)
    if game.to_act_seat is not None and game.turn_timeout_seconds:
        game.turn_deadline = timezone.now() + timedelta(seconds=game.turn_timeout_seconds)
    else:
        game.turn_deadline = None
    if rules.is_over(state) and game.status == GameStatus.IN_PROGRESS:
        _game_finish(game, state)


def _history_store(game: Game, state: rules.State) -> None:
    """Keep ``GameHistory`` holding the record of every settled hand of ``state``, so that
    the play snapshot may leave all but the last out. Called before the snapshot is
    replaced: the snapshot it replaces says how many records were kept with it.

    Ordinary moves write nothing. A settlement adds one record (one read, one write, once
    per hand); a whole state (a game replayed by a rewind, or a snapshot of the older
    form that held every record) is written whole when it has hands to leave out."""
    settled = rules.settled_count(state)
    if settled < 2:
        return  # the snapshot holds the only settled hand, if any
    old = game.snapshot
    kept = None if old is None else rules.snapshot_history_start(old) + len(old["history"])
    if state.history_start == 0:
        hands = rules.hand_records_json(state)
        GameHistory.objects.update_or_create(game=game, defaults={"hands": hands})
    elif kept == settled:
        return  # an ordinary move: the records are kept already
    elif kept is not None and state.history_start <= kept < settled:
        # A settlement from a play snapshot: the stored records before the ones the
        # state holds, then those (the last settled hand's again, and the new one).
        history = GameHistory.objects.get(game=game)
        history.hands = history.hands[: state.history_start] + rules.hand_records_json(state)
        history.save(update_fields=["hands"])
    else:
        raise ValueError(
            f"game {game.pk}: {settled} settled hands, but the stored records end at {kept}"
        )


def _idempotency_record(
    *, user: User, key: str, game: Game, request_hash: str, view: dict[str, Any]
) -> IdempotencyRecord:
    """Record an action's answer under its Idempotency-Key. The key may be taken already
    (the game's lock does not cover it): then nothing is written and the record's ``pk``
    is None once written (``INSERT ... ON CONFLICT DO NOTHING``, one statement, or part of
    the move's write batch)."""
    record = IdempotencyRecord(
        user=user, key=key, game=game, request_hash=request_hash, response=view
    )
    compiled.insert(record, on_conflict=("user", "key"))
    return record


def _request_hash(game_id: int, action: Any, expected_version: int | None) -> str:
    body = json.dumps([game_id, action, expected_version], sort_keys=True, default=str)
    return hashlib.sha256(body.encode()).hexdigest()


def _derive_int(seed: str, label: str) -> int:
    return int.from_bytes(hmac.new(seed.encode(), label.encode(), hashlib.sha256).digest(), "big")
