"""What the server needs to know about one game beyond the engine contract: how its state
is stored, which automatic step it waits on, its deadlines and autopilot, what its events
and notifications say, how its moves are shown to others, its record and replay.

:class:`GameKind` holds the behaviour every game shares (the engine contract of
``engine.registry`` used as it is); a game's own module (``games/kinds/<key>.py``)
overrides what differs. The services, selectors, announcements, API and pages call these
methods and never ask which game it is.

Everything here is pure or reads only what it is given (no writes: the services own
those), and this package imports no writer, selector or view of ``games``.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _

from engine import registry
from engine.core import GameMeta, GameModule, IllegalAction
from games.models import BotKind

JsonDict = dict[str, Any]


@dataclass(frozen=True)
class HistoryWrite:
    """Records of finished parts (hands, rounds) the play snapshot leaves out, to store in
    ``GameHistory``: ``parts`` replaces the stored list from index ``start`` on (``start``
    None: the whole list)."""

    start: int | None
    parts: list[Any]


@dataclass(frozen=True)
class Notice:
    """A notification a step sends besides the turn's own (``games.announce``)."""

    seat: int
    kind: str
    title: str
    body: str
    data: JsonDict


class GameKind:
    """One game as the server sees it. Subclasses set ``key`` and override what their game
    does differently; the defaults suit a game whose whole state is its snapshot, whose
    actions are all public and whose every turn has the table's time limit."""

    key: str = ""
    # Whether staff may add to or take from a seat's total beside the record.
    score_adjustments: bool = False
    # The view's lists that hold one entry per entry of ``legal_actions`` (Pax
    # Illuminaten's ``payment_help``, 15.5.1): emptied with it when nobody may act.
    action_aligned: tuple[str, ...] = ()
    # The game's pages (``games/web/pages_<key>.py``, imported by name through
    # ``games.web.pages``): its table's template and the partials an htmx update may ask
    # for, the table's context built from a seat's view alone, its replay and rules pages.
    pages_module: str = ""

    # --- the engine -------------------------------------------------------------------

    @property
    def engine(self) -> GameModule:
        return registry.get(self.key)

    @property
    def meta(self) -> GameMeta:
        return self.engine.META

    def variant_title(self, variant: str) -> str:
        return variant.capitalize()

    def bot_title(self, bot: str) -> str:
        return dict(BotKind.choices).get(bot, bot.capitalize())

    def fixed_bot_seats(self, player_count: int, variant: str) -> list[tuple[int, str]]:
        """Seats a variant gives to a player of the rules' own (Pax Illuminaten's automa),
        as ``(seat, bot kind)``: the server seats it at creation like a built-in bot, and
        the engine never asks it to act (its turns are automatic steps). None by default."""
        return []

    def rules_url(self) -> str:
        return reverse("rules_game", args=[self.key])

    def player_count_refusal(self) -> str:
        return _("player_count must be %(counts)s.") % {
            "counts": _one_of([str(n) for n in self.meta.player_counts])
        }

    def variant_refusal(self) -> str:
        return _("variant must be %(variants)s.") % {
            "variants": _one_of([f"'{v}'" for v in self.meta.variants])
        }

    def options_check(
        self, *, player_count: int, variant: str, rated: bool, options: JsonDict
    ) -> JsonDict:
        """The game's own options as stored with the game (``Game.options``), or
        ``ValueError`` saying what is wrong. By default a game takes none."""
        if options:
            raise ValueError(f"{self.meta.title} takes no options, not {sorted(options)!r}.")
        return {}

    def table_options(self, stored: JsonDict) -> JsonDict:
        """The table options a creator sends (``options_check``) out of a started game's
        ``Game.options`` (the engine options): what a rematch asks for again."""
        return dict(stored)

    def engine_options(self, game: Any, bot_seats: Callable[[], list[bool]]) -> JsonDict:
        """The options ``new_game`` gets for this table (``bot_seats()``: which seats a
        built-in bot plays, read when asked), kept in ``Game.options`` once the game has
        started so that a replay starts it alike."""
        return dict(game.options or {})

    def new_state(self, game: Any, options: JsonDict) -> Any:
        """The first state of ``game`` with ``options`` (:meth:`engine_options`)."""
        return self.engine.new_game(game.player_count, game.variant, game.seed, options)

    # --- the stored state ------------------------------------------------------------

    def snapshot(self, state: Any) -> JsonDict:
        """What ``Game.snapshot`` holds after a move (read back by :meth:`load`)."""
        return self.engine.state_to_json(state)

    def load(self, snapshot: JsonDict) -> Any:
        """The state to play from, out of the snapshot alone."""
        return self.engine.state_from_json(snapshot)

    def history_write(self, old_snapshot: JsonDict | None, state: Any) -> HistoryWrite | None:
        """What to write to ``GameHistory`` before the snapshot of ``state`` replaces
        ``old_snapshot`` (None: nothing). By default the snapshot is the whole state."""
        return None

    def history_start(self, snapshot: JsonDict) -> int:
        """How many stored history parts the snapshot leaves out (0: it is the whole)."""
        return 0

    def load_whole(self, snapshot: JsonDict, earlier: list[Any]) -> Any:
        """The whole state: the snapshot with the history parts it leaves out."""
        return self.load(snapshot)

    # --- turns, deadlines, the automatic step ----------------------------------------

    def step_key(self, state: Any) -> int:
        """Which automatic step ``state`` waits on (``to_act`` None, not over): the task
        that runs it carries this number, and a repeat or a stale copy finds it changed."""
        return 0

    def step_settlement(self, state: Any, key: int) -> JsonDict | None:
        """After the automatic step ``key``: the ``HandSettlement`` row it writes
        (``payments``, ``florins_after``), whose uniqueness claims the step once, or None
        (the game's own state and the version check claim it)."""
        return None

    def deadline_seconds(self, game: Any, state: Any) -> int | None:
        """Seconds the seat to act has (None: no limit): the table's time per move."""
        seconds: int | None = game.turn_timeout_seconds
        return seconds

    def timeout_action(self, state: Any) -> JsonDict | None:
        """What a missed deadline does by itself, or None: the autopilot plays."""
        return self.engine.timeout_action(state)

    def autopilot_bot(self) -> str:
        """The bot that plays a seat whose time ran out (and takes a seat over)."""
        kinds = sorted(self.meta.bots)
        return kinds[0]

    def bot_kinds(self) -> frozenset[str]:
        return frozenset(self.meta.bots)

    def bot_choose(self, kind: str, view: JsonDict, rng: Any) -> JsonDict:
        return self.meta.bots[kind](view, rng)

    def bot_version(self, kind: str) -> str:
        return "1"

    def may_act_off_turn(self, state: Any, seat: int) -> bool:
        """Whether ``seat`` may send an action although it is not ``to_act`` (New
        Eleusis' standing prophecy and votes): when the engine lists one for it."""
        return bool(self.engine.legal_actions(state, seat))

    # --- undo (the spec of Pax Illuminaten, 15.5.2) -----------------------------------

    # Whether the game lets a player take back an action at all: the view then says
    # whether it may now (``can_undo``). Off by default: every action is final.
    offers_undo: bool = False

    def undoable(self, state: Any, seat: int) -> bool:
        """Whether ``seat`` may take back the last action of ``state``'s log, as far as
        the rules go (the server checks that the seat's own player made it, not a bot or
        the autopilot). Never by default."""
        return False

    def refusal(self, exc: IllegalAction) -> str:
        """The engine's refusal in the reader's language (the engine speaks English)."""
        return exc.message

    def not_your_turn(self, to_act: int | None, seat: int) -> str:
        """Why ``seat`` may not act now (409 ``not_your_turn``)."""
        if to_act is None:
            return _("Nobody acts now: the game is taking its next step in a moment.")
        return _("It is seat %(to_act)d's turn, not yours (seat %(seat)d).") % {
            "to_act": to_act,
            "seat": seat,
        }

    # --- what players see -------------------------------------------------------------

    def undealt_view(self) -> JsonDict:
        """The view's game fields before the game starts (no state yet)."""
        return {"phase": None, "to_act": None, "legal_actions": [], "result": None}

    def seat_defaults(self) -> JsonDict:
        """A seat entry's game fields before the game starts."""
        return {}

    def view(self, state: Any, seat: int | None) -> JsonDict:
        """The engine's view with the common ``result`` (None while the game goes on)."""
        view = self.engine.view(state, seat)
        view["result"] = self.engine.result(state) if self.engine.is_over(state) else None
        return view

    def stored_result(self, state: Any) -> JsonDict | None:
        """``Game.result`` of a finished game: the engine's common result."""
        return self.engine.result(state)

    def ranking(self, state: Any) -> list[list[int]]:
        """Seats best first, ties sharing a place: what ratings read."""
        result = self.engine.result(state)
        assert result is not None
        return [list(group) for group in result["ranking"]]

    def seal(self, action: JsonDict) -> JsonDict:
        """The action as another seat may see it while the game goes on (New Eleusis'
        rule source, Pax's Oust card: P-73). By default every action is public."""
        return action

    def move_payloads(self, move: Any, spectator: JsonDict) -> tuple[JsonDict, JsonDict | None]:
        """A move event's public fields and the acting seat's own extras (None: all is
        public)."""
        action = dict(move.action)
        public = self.seal(action)
        if public is action or public == action:
            return _move_public(move, action), None
        return _move_public(move, public), {"action": action}

    def moves_public(self, moves: list[Any], view: JsonDict) -> list[JsonDict]:
        """The move log as the reader of ``view`` may see it: others' moves sealed until
        the game is over."""
        reader = view.get("my_seat")
        over = view.get("status") in ("finished", "void")
        return [
            move_entry(
                move,
                dict(move.action) if over or move.seat == reader else self.seal(dict(move.action)),
            )
            for move in moves
        ]

    # --- what is announced ------------------------------------------------------------

    def event_fields(self, spectator: JsonDict) -> JsonDict:
        """Fields every game event carries besides ``to_act`` and ``status``."""
        return {"phase": spectator.get("phase")}

    def started_fields(self, spectator: JsonDict) -> JsonDict:
        """Extra fields of the ``game_started`` event."""
        return {}

    def step_event(self, move: Any, spectator: JsonDict) -> tuple[str, JsonDict]:
        """The event type and fields of an automatic step."""
        return "step", {"seq": move.seq}

    def started_text(self, game: Any) -> tuple[str, str]:
        return (
            _("Game %(id)d has started") % {"id": game.pk},
            _("Every seat at game %(id)d is taken: the game begins.") % {"id": game.pk},
        )

    def turn_text(self, game: Any, seat: int, spectator: JsonDict) -> tuple[str, str]:
        """The "your turn" notification's title and body for ``seat`` now."""
        deadline = game.turn_deadline.isoformat() if game.turn_deadline else None
        body = f"It is your turn (seat {seat}) in game {game.pk}."
        if deadline:
            body += f" Move before {deadline}."
        return f"Your turn in game {game.pk}", body

    def turn_data(self, game: Any, seat: int, spectator: JsonDict) -> JsonDict:
        """Fields the "your turn" notification's ``data`` carries besides ``seat`` and
        ``deadline``, for the site to say it in the reader's language (the game's pages
        module's ``turn_sentence``; Pax's decision asked, P-74, P-85). None by default."""
        return {}

    def tells_own_next_turn(self, before: Any, after: Any) -> bool:
        """Whether a seat that acts again right after its own move is told so (New
        Eleusis' "decide on prophecy" after a play, NE-27.5). Not by default: a player
        who goes on acting has the answer to their move."""
        return False

    def reminder_text(self, game: Any, seat: int) -> tuple[str, str]:
        deadline = game.turn_deadline.isoformat() if game.turn_deadline else None
        return (
            f"Reminder: your turn in game {game.pk}",
            f"Your time to move in game {game.pk} runs out at {deadline}; then the "
            f"{self.autopilot_bot()} bot moves for you.",
        )

    def finished_text(self, game: Any, seat: int) -> tuple[str, str]:
        result = game.result or {}
        won = seat in (result.get("winner_seats") or [])
        score = (result.get("scores") or {}).get(str(seat))
        return (
            f"Game {game.pk} is over: {'you won' if won else 'it is finished'}",
            f"Game {game.pk} has ended; you finished with {score} points.",
        )

    def challenge_body(self, names: JsonDict) -> str:
        return _(
            "%(user)s invites you to a %(players)d-player game of %(title)s; "
            "join game %(game)d to accept."
        ) % {**names, "title": self.meta.title}

    def notices(self, game: Any, move: Any, before: Any, after: Any) -> list[Notice]:
        """Notifications a step from state ``before`` (None: the game just started) to
        ``after`` sends besides the turn's (New Eleusis' "your play awaits the
        prophet", ...). None by default."""
        return []

    # --- records ----------------------------------------------------------------------

    def record(self, state: Any) -> JsonDict:
        """The full record (the export's body before the server's fields)."""
        return self.engine.full_record(state)

    def export(self, record: JsonDict, server: JsonDict) -> JsonDict:
        """The export's body: the game's record with the server's fields (``id``,
        ``game_type``, ``status``, ``seats`` with the accounts, ``moves``)."""
        return {**record, **server}

    def replay(
        self,
        *,
        player_count: int,
        variant: str,
        seed: str,
        options: JsonDict,
        moves: list[JsonDict],
    ) -> Any:
        """The game rebuilt from its seed and server move log (automatic steps included).
        A move made ``by`` the autopilot or a timeout is replayed as such."""
        state = self.engine.new_game(player_count, variant, seed, options)
        for move in moves:
            if move["action"].get("type") == "advance":
                state = self.engine.advance(state)
            else:
                state = self.engine.apply(state, move["seat"], move["action"], move.get("by"))
        return state

    def record_verify(self, record: JsonDict) -> list[str]:
        """The problems found checking an exported record (empty: it verifies)."""
        return []

    def part_summaries(self, state: Any) -> list[JsonDict]:
        """Every finished part of the game (Indulgence: each settled hand) as the table
        saw it, for the history page and the end-of-hand panel; none by default."""
        return []

    # --- dispute review (staff only) --------------------------------------------------

    def god_view(self, state: Any, player_count: int) -> JsonDict:
        """Everything at one step of a replay, for staff: the spectator's view with every
        seat's view (``hands``) and the full record. The case file shows what it knows."""
        spectator = self.engine.view(state, None)
        return {
            "phase": spectator.get("phase"),
            "to_act": spectator.get("to_act"),
            "result": self.engine.result(state) if self.engine.is_over(state) else None,
            "record": self.engine.full_record(state),
        }

    def verify_game(self, *, game: Any, state: Any, moves: list[JsonDict]) -> JsonDict:
        """The case file's verification of a stored game: the seed against its public
        commitment, the game's record check (:meth:`record_verify` on the record with
        the revealed seed) and a replay of the seed and ``moves`` (the live log) against
        the stored state's record."""
        record = self.record(state)
        commitment = self.engine.seed_commitment(game.seed)
        problems: list[str] = []
        commitment_ok = hmac.compare_digest(commitment, game.seed_commitment)
        if not commitment_ok:
            problems.append("the revealed seed does not hash to the published commitment")
        problems += [f"record: {p}" for p in self.record_verify(record)]
        try:
            replayed = self.replay(
                player_count=game.player_count,
                variant=game.variant,
                seed=game.seed,
                options=dict(game.options or {}),
                moves=moves,
            )
            replay_ok = self.record(replayed) == record
        except (IllegalAction, ValueError) as exc:
            problems.append(f"replay: the move log does not replay ({exc})")
            replay_ok = False
        else:
            if not replay_ok:
                problems.append("replay: the stored game differs from a replay of its log")
        return {
            "verified": not problems,
            "seed": game.seed,
            "commitment": game.seed_commitment,
            "seed_hash": commitment,
            "commitment_ok": commitment_ok,
            "first_ruler_ok": True,
            "replay_ok": replay_ok,
            "hands": [],
            "problems": problems,
        }


def ranks(ranking: list[list[int]]) -> dict[int, int]:
    """Each seat's rank: 1 for the first group, and after a group of k the next rank is
    k more (1, 2, 2, 4: standard competition ranking)."""
    rank_of_seat: dict[int, int] = {}
    position = 1
    for group in ranking:
        for seat in group:
            rank_of_seat[seat] = position
        position += len(group)
    return rank_of_seat


def _one_of(texts: list[str]) -> str:
    if len(texts) < 2:
        return "".join(texts)
    return _("%(some)s or %(last)s") % {"some": ", ".join(texts[:-1]), "last": texts[-1]}


def move_entry(move: Any, action: JsonDict) -> JsonDict:
    """One line of the public move log (``GET /api/v1/games/{id}/moves``)."""
    return {
        "seq": move.seq,
        "seat": move.seat,
        "action": action,
        "actor": move.actor_kind,
        "bot": move.bot_name or None,
        "at": move.created_at.isoformat(),
    }


def _move_public(move: Any, action: JsonDict) -> JsonDict:
    return {
        "seq": move.seq,
        "seat": move.seat,
        "actor": move.actor_kind,
        "bot": move.bot_name or None,
        "action": action,
    }


def move_public(move: Any, action: JsonDict) -> JsonDict:
    """A move event's public fields with ``action`` as others may see it."""
    return _move_public(move, action)


def autopilot_setting() -> str:
    """``settings.AUTOPILOT_BOT``: Indulgence's autopilot, as configured."""
    return str(settings.AUTOPILOT_BOT)
