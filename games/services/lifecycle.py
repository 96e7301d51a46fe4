"""A game's life before play: created (the creator in seat 0, built-in bots where asked,
invitations), joined seat by seat, and started (dealt) when the last seat is taken."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games import announce, bots, events, kinds, selectors
from games.errors import (
    AbortNotAllowed,
    AlreadySeated,
    Forbidden,
    GameFull,
    GameNotActive,
    InvalidRequest,
    NotFound,
    NotOpen,
    NotSeated,
    UnknownBot,
    VersionConflict,
)
from games.models import ActorKind, Game, GameStatus, Invitation, Seat
from games.services import steps, store
from games.services.accounts import bot_player, player_ensure

MIN_TURN_TIMEOUT_SECONDS = 60
MAX_TURN_TIMEOUT_SECONDS = 30 * 24 * 3600


def game_create(
    *,
    creator: User,
    player_count: int,
    variant: str | None = None,
    turn_timeout_seconds: int | None = None,
    bots: Sequence[tuple[int, str]] = (),
    rated: bool = True,
    seed: str | None = None,
    invite: Sequence[str] = (),
    game_type: str = kinds.DEFAULT,
    options: dict[str, Any] | None = None,
) -> Game:
    """Create a game of ``game_type`` (a key of ``engine.registry``) with the creator in
    seat 0 and built-in bots where asked. ``player_count``, ``variant`` (None: the game's
    first), ``bots`` and ``options`` (the game's own table settings) are checked against
    that game's entry.

    ``invite``: usernames challenged to the open seats (each is told; the seats stay open
    to anyone, and an invitee accepts by joining)."""
    kind = game_kind(game_type)
    meta = kind.meta
    if player_count not in meta.player_counts:
        raise InvalidRequest(kind.player_count_refusal())
    variant = meta.default_variant if variant is None else variant
    if variant not in meta.variants:
        raise InvalidRequest(kind.variant_refusal())
    if rated and player_count not in meta.rated_player_counts:
        raise InvalidRequest(
            _("Rated %(title)s tables have %(counts)s seats; set rated to false.")
            % {"title": meta.title, "counts": one_of(meta.rated_player_counts)}
        )
    try:
        stored_options = kind.options_check(
            player_count=player_count, variant=variant, rated=rated, options=dict(options or {})
        )
    except ValueError as exc:
        problem = str(exc).rstrip(".")
        raise InvalidRequest(_("options: %(problem)s.") % {"problem": problem}) from None
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
    bot_seats = _validate_bot_seats(bots, player_count, game_type)
    fixed = kind.fixed_bot_seats(player_count, variant)
    for number, bot in fixed:
        if number in {n for n, _bot in bot_seats}:
            raise InvalidRequest(
                _("Seat %(seat)d is %(bot)s's in this variant; give your bots other seats.")
                % {"seat": number, "bot": kind.bot_title(bot)}
            )
    bot_seats = sorted(bot_seats + fixed)
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
            game_type=game_type,
            options=stored_options,
            variant=variant,
            player_count=player_count,
            rated=rated,
            sandbox=seed is not None,
            seed=seed if seed is not None else server_seed(),
            turn_timeout_seconds=turn_timeout_seconds,
            created_by=creator,
            version=1,
        )
        game.seed_commitment = kind.engine.seed_commitment(game.seed)
        game.save(update_fields=["seed_commitment"])
        Seat.objects.create(game=game, number=0, player=player_ensure(user=creator))
        for number, bot in bot_seats:
            Seat.objects.create(game=game, number=number, player=bot_player(kind=bot), bot_kind=bot)
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


def game_kind(game_type: str) -> kinds.GameKind:
    """The kind of ``game_type``, or 400 naming the games there are."""
    if game_type not in kinds.KINDS:
        raise InvalidRequest(
            _("game_type must be %(keys)s.") % {"keys": one_of([f"'{key}'" for key in kinds.KINDS])}
        )
    return kinds.KINDS[game_type]


def one_of(values: Sequence[Any]) -> str:
    """``3 or 4``, ``'a', 'b' or 'c'``: the allowed values in a refusal."""
    texts = [str(value) for value in values]
    if len(texts) < 2:
        return "".join(texts)
    return _("%(some)s or %(last)s") % {"some": ", ".join(texts[:-1]), "last": texts[-1]}


def _validate_bot_seats(
    requested: Sequence[tuple[int, str]], player_count: int, game_type: str
) -> list[tuple[int, str]]:
    available = bots.available_kinds(game_type)
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
        game = store.lock_game(game_id)
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
    """Start the game (Indulgence deals the first hand; New Eleusis asks the first dealer
    for a rule). Called under the game's lock, inside the caller's transaction."""

    def bot_seats() -> list[bool]:
        kinds_by_seat = dict(game.seats.values_list("number", "bot_kind"))
        return [bool(kinds_by_seat.get(n)) for n in range(game.player_count)]

    kind = kinds.of(game)
    game.options = kind.engine_options(game, bot_seats)
    state = kind.new_state(game, game.options)
    game.status = GameStatus.IN_PROGRESS
    game.started_at = timezone.now()
    store.store_state(game, state)
    game.save()
    steps.schedule_next_step(game, state)


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
    """Whether a person (not a bot, the autopilot, a timeout or the server) ever moved."""
    return game.moves.filter(actor_kind=ActorKind.HUMAN, archived_at__isnull=True).exists()


def game_abort(*, game_id: int, user: User, expected_version: int | None = None) -> Game:
    """The creator calls a game off that nobody played (no litter of games abandoned
    after their creation, or left behind by a tool): it becomes ``void``, nobody is to act
    any more, and pending bot turns and automatic steps find nothing to do. Allowed to its
    creator while it is open or in progress, when no person has moved in it yet, and for
    sandbox games at any time (``game_abortable``). Nothing is rated: a game that never
    finished has no rating change."""
    with transaction.atomic():
        game = store.lock_game(game_id)  # Locked: no move, bot turn or step lands meanwhile.
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
    """A new game like a finished one (the game, its variant, player count, table
    options, rated, turn time), started by one of its people: they take seat 0, the same
    built-in bots sit at the last seats and the other people are challenged to the open
    ones. A sandbox's rematch is dealt from a seed the server draws (it is an ordinary
    unrated game against the same bots)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        raise NotFound(_("There is no game %(id)d.") % {"id": game_id})
    seats = selectors.seats_of_game(game)
    people = [s for s in seats if not selectors.is_bot_account_seat(s)]
    if not any(s.player.user_id == user.pk for s in people):
        raise NotSeated(_("Only the people who played a game can ask for a rematch."))
    if game.status != GameStatus.FINISHED:
        raise GameNotActive(_("A rematch can be asked for once the game has finished."))
    fixed = kinds.of(game).fixed_bot_seats(game.player_count, game.variant)
    bots_at_table = [
        s.bot_kind
        for s in seats
        if selectors.is_bot_account_seat(s) and (s.number, s.bot_kind) not in fixed
    ]
    first_bot = game.player_count - len(fixed) - len(bots_at_table)
    return game_create(
        creator=user,
        game_type=game.game_type,
        options=kinds.of(game).table_options(game.options or {}),
        player_count=game.player_count,
        variant=game.variant,
        turn_timeout_seconds=game.turn_timeout_seconds,
        bots=[(first_bot + i, kind) for i, kind in enumerate(bots_at_table)],
        rated=game.rated and not game.sandbox,
        invite=[s.player.user.get_username() for s in people if s.player.user_id != user.pk],
    )
