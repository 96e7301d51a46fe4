"""Pax Illuminaten as the server sees it (``engine.pax``; the spec's section 15 and
Appendix H; docs/pax.md, "The server" and rulings P-70 on).

What it does differently from the defaults of :class:`~games.kinds.base.GameKind`:

- one table option, ``round_cap`` (15.5.3, P-21), checked by the engine;
- the automatic steps (turn start and Event phase, Plot Check, Event Check, the Redraw
  and Court, the end; the automa's turns once it is built) are the engine's ``advance``,
  one program per step, each keyed by the log's length so that a step is claimed once
  (P-70);
- every decision has the table's time per move, the defender's Oust card and favor
  choice too (15.1.2, P-71); an absent defender's Oust card is 15.2.4's public
  autopilot, any other missed decision the autopilot bot's: ``heuristic`` when the
  engine has it, else ``random`` (P-72);
- others see a seat's ``oust_card``, ``keep_event`` and ``keep_plot`` with their type
  only until the game is over (H.8, P-73);
- the notifications name the decision asked (15.1.2: the defender's sealed Oust card
  and favor choice; the Event Check, the Court, ...), P-74;
- the export is H.3's record with the server's fields, and checking a record replays
  its move log from the revealed seed (P-75);
- the active player may take back their own last atomic actions back to the last point
  where hidden information was revealed (15.5.2, P-79, P-80).
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from typing import Any

from django.utils.translation import get_language, gettext_lazy, pgettext_lazy
from django.utils.translation import gettext as _

from engine.core import IllegalAction
from engine.pax import engine as pax_engine
from engine.pax import record as pax_record
from engine.pax.bots import autopilot_oust_card
from engine.pax.loader import data as pax_data
from engine.pax.rng import seed_commitment
from engine.pax.setup import SetupError
from engine.pax.undo import undoable as pax_undoable
from engine.pax.view import SECRET_ACTIONS
from engine.pax.view import view as pax_view
from games.kinds.base import GameKind, JsonDict

TABLE_OPTIONS = frozenset({"round_cap"})
AUTOPILOT_PREFERRED = "heuristic"  # the seat bot of issue 23 item 4 (engine.pax.bots)
AUTOPILOT_FALLBACK = "random"
AUTOMA_PREFIX = "automa-"
# What each decision asks, for the "your turn" notification (H.7's decision kinds).
DECISION_TEXT = {
    "action": "take an action or end your turn",
    "event": "choose a special event to play, or none",
    "pay": "choose how to pay",
    "gain": "choose the favor you gain or lose",
    "overturn": "choose whom to overturn from",
    "conspire": "choose a token to give (Conspire)",
    "place": "choose the card to place",
    "move": "move your disks (Organize)",
    "oust_card": "choose your Oust card in secret",
    "oust_next": "continue, call or yield the Oust",
    "strength": "choose your strength",
    "bonus": "take the scheme's Bonus action or decline",
    "special": "use the scheme's Special ability or decline",
    "keep_event": "choose which event card to keep",
    "keep_plot": "choose which plot to keep",
    "court": "choose Court cards",
}


# The engine's refusals (IllegalAction codes) for a reader who does not read English
# (P-85): the engine's own message names the rule in English.
REFUSALS = {
    "game_over": pgettext_lazy("pax", "The game is over: nothing more is played."),
    "no_decision": pgettext_lazy("pax", "Nobody is to act: the game takes its next step."),
    "not_your_turn": pgettext_lazy("pax", "It is not your decision now."),
    "malformed": pgettext_lazy("pax", "That action is not well formed."),
}
REFUSAL_OTHER = pgettext_lazy("pax", "That action is not one of your options now.")


def pending_kind(state: Any) -> str | None:
    """The open decision's kind (H.7), or None when nobody is to act."""
    return str(state.pending[-1][1]) if state.pending else None


def is_defender_decision(state: Any) -> bool:
    """Whether the seat to act is not the active player (15.1.2: the defender's Oust card
    and favor choice are the only such decisions)."""
    seat = pax_engine.to_act(state)
    return seat is not None and seat != state.active


# The automa's names in the reader's language (14.10; the data file holds the English).
AUTOMA_NAMES = {
    "Count of St. Germain": gettext_lazy("Count of St. Germain"),
    "Joseph II": gettext_lazy("Joseph II"),
    "Alessandro Cagliostro": gettext_lazy("Alessandro Cagliostro"),
    "Adam Weishaupt": gettext_lazy("Adam Weishaupt"),
}


def automa_name(variant_or_bot: str) -> str:
    """The automa of ``automa-<code>`` by its name (14.10), translated."""
    code = variant_or_bot.removeprefix(AUTOMA_PREFIX)
    card = pax_data().bots.get(code)
    if card is None:
        return code
    return str(AUTOMA_NAMES.get(card.name, card.name))


class Pax(GameKind):
    key = "pax"
    pages_module = "games.web.pages_pax"
    score_adjustments = False  # scores are the rules' own, recomputed from the record
    action_aligned = ("payment_help",)  # 15.5.1, docs/pax.md P-87

    # --- the engine and the table's options --------------------------------------------

    def variant_title(self, variant: str) -> str:
        if variant.startswith(AUTOMA_PREFIX):
            return _("Against %(automa)s (automa)") % {"automa": automa_name(variant)}
        if variant == "standard":
            return _("Standard")
        return variant.capitalize()

    def fixed_bot_seats(self, player_count: int, variant: str) -> list[tuple[int, str]]:
        """P-78: an automa variant's automa sits in the last seat (3.1, R12; the engine's
        seat N-1), under the bot kind named like the variant (``automa-SG``)."""
        if variant.startswith(AUTOMA_PREFIX):
            return [(player_count - 1, variant)]
        return []

    def refusal(self, exc: IllegalAction) -> str:
        """The engine's refusal: its own English message, or a sentence of the reader's
        language by its code (P-85)."""
        if (get_language() or "en").startswith("en"):
            return exc.message
        return str(REFUSALS.get(exc.code, REFUSAL_OTHER))

    def bot_title(self, bot: str) -> str:
        if bot.startswith(AUTOMA_PREFIX):
            return _("%(automa)s (automa)") % {"automa": automa_name(bot)}
        if bot == "search":
            return _("Search bot")
        return super().bot_title(bot)

    def options_check(
        self, *, player_count: int, variant: str, rated: bool, options: JsonDict
    ) -> JsonDict:
        unknown = sorted(set(options) - TABLE_OPTIONS)
        if unknown:
            raise ValueError(
                f"unknown option(s) {unknown}; a Pax Illuminaten table takes "
                f"{sorted(TABLE_OPTIONS)}"
            )
        try:
            pax_engine.new_game(player_count, variant, "options-check", options)
        except SetupError as exc:
            raise ValueError(str(exc)) from None
        return dict(options)

    def table_options(self, stored: JsonDict) -> JsonDict:
        return {key: value for key, value in stored.items() if key in TABLE_OPTIONS}

    def engine_options(self, game: Any, bot_seats: Callable[[], list[bool]]) -> JsonDict:
        return {key: value for key, value in (game.options or {}).items() if key in TABLE_OPTIONS}

    # --- turns, deadlines, the automatic steps -----------------------------------------

    def step_key(self, state: Any) -> int:
        """P-70: each automatic step (``advance``) writes one log entry, so the log's
        length names the step a state waits on; a repeat finds it changed."""
        return len(state.log)

    def timeout_action(self, state: Any) -> JsonDict | None:
        """P-72: an absent defender's Oust card is 15.2.4's public, deterministic choice,
        made from the defender's own view; every other missed decision goes to the
        autopilot bot."""
        if pending_kind(state) == "oust_card" and is_defender_decision(state):
            seat = pax_engine.to_act(state)
            return autopilot_oust_card(pax_view(state, seat))
        return None

    def autopilot_bot(self) -> str:
        """P-72: ``heuristic`` once the engine has it (META.bots), else ``random``."""
        if AUTOPILOT_PREFERRED in self.meta.bots:
            return AUTOPILOT_PREFERRED
        return AUTOPILOT_FALLBACK

    def may_act_off_turn(self, state: Any, seat: int) -> bool:
        return False  # 15.1: one seat decides at a time, the defender included

    offers_undo = True

    def undoable(self, state: Any, seat: int) -> bool:
        """15.5.2, P-79: the active player's own last action in their turn, back to the
        last point where hidden information was revealed (``engine.pax.undo``)."""
        return pax_undoable(state, seat)

    # --- what players see ---------------------------------------------------------------

    def undealt_view(self) -> JsonDict:
        return {
            "format": "pax-view/1",
            "seat": None,
            "state": None,
            "log": [],
            "to_act": None,
            "legal_actions": [],
            "payment_help": [],
            "decision": None,
            "derived": None,
            "result": None,
        }

    def seat_defaults(self) -> JsonDict:
        return {"automa": None, "placard": None, "facing": None, "contact": None}

    def seal(self, action: JsonDict) -> JsonDict:
        """P-73: while the game goes on, another seat's secret actions show their type."""
        return sealed(action)

    # --- what is announced --------------------------------------------------------------

    def event_fields(self, spectator: JsonDict) -> JsonDict:
        state = spectator.get("state") or {}
        return {
            "phase": state.get("phase"),
            "round": state.get("round"),
            "active_seat": state.get("active_seat"),
        }

    def started_fields(self, spectator: JsonDict) -> JsonDict:
        state = spectator.get("state") or {}
        return {"start_seat": state.get("start_seat")}

    def step_event(self, move: Any, spectator: JsonDict) -> tuple[str, JsonDict]:
        """An automatic step, with what it did as every seat may see it (the log's last
        entry, filtered for a spectator: H.8)."""
        log = spectator.get("log") or []
        steps = log[-1]["steps"] if log else []
        return "step", {"seq": move.seq, "steps": steps}

    def started_text(self, game: Any) -> tuple[str, str]:
        return (
            f"Game {game.pk} has started",
            f"Every seat at game {game.pk} of Pax Illuminaten is taken: the first turn begins.",
        )

    def turn_data(self, game: Any, seat: int, spectator: JsonDict) -> JsonDict:
        """P-74, P-85: the decision asked, whose turn it is and whether it is an Oust
        against the seat, for the site's sentence in the reader's language
        (``games.web.pages_pax.turn_sentence``)."""
        state = spectator.get("state") or {}
        pending = state.get("pending") or []
        active = state.get("active_seat")
        other = active is not None and active != seat
        return {
            "game_type": self.key,
            "decision": pending[-1]["kind"] if pending else "action",
            "turn_of": active if other else None,
            "ousted": bool(other and state.get("oust") is not None),
        }

    def turn_text(self, game: Any, seat: int, spectator: JsonDict) -> tuple[str, str]:
        """P-74: the decision asked; the defender is told that it is an Oust against them."""
        deadline = game.turn_deadline.isoformat() if game.turn_deadline else None
        state = spectator.get("state") or {}
        pending = state.get("pending") or []
        kind = pending[-1]["kind"] if pending else "action"
        what = DECISION_TEXT.get(kind, "decide")
        active = state.get("active_seat")
        if active is not None and active != seat and state.get("oust") is not None:
            title = f"You are ousted in game {game.pk}: {what}"
            body = f"Seat {active} ousts you (seat {seat}) in game {game.pk}: {what}."
        elif active is not None and active != seat:
            title = f"Your decision in seat {active}'s turn, game {game.pk}: {what}"
            body = f"Game {game.pk} waits on you (seat {seat}) in seat {active}'s turn: {what}."
        elif kind == "action":
            title = f"Your turn in game {game.pk}"
            body = f"It is your turn (seat {seat}) in game {game.pk}: {what}."
        else:
            title = f"Your decision in game {game.pk}: {what}"
            body = f"Game {game.pk} waits on you (seat {seat}): {what}."
        if deadline:
            body += f" Act before {deadline}."
        return title, body

    def finished_text(self, game: Any, seat: int) -> tuple[str, str]:
        result = game.result or {}
        won = seat in (result.get("winner_seats") or [])
        how = {"plot": " by a plot victory", "faction_scoring": " by faction scoring"}.get(
            str(result.get("reason")), ""
        )
        score = (result.get("scores") or {}).get(str(seat))
        return (
            f"Game {game.pk} is over: {'you won' if won else 'it is finished'}",
            f"Game {game.pk} of Pax Illuminaten ended{how}; your score: {score}.",
        )

    # --- records ------------------------------------------------------------------------

    def export(self, record: JsonDict, server: JsonDict) -> JsonDict:
        """H.3's record with the server's fields: each seat's account joined to its
        entry, the game's status as ``game_status``."""
        accounts = {entry["seat"]: entry for entry in server["seats"]}
        seats = [{**entry, **accounts.get(entry["seat"], {})} for entry in record["seats"]]
        extra = {k: v for k, v in server.items() if k not in ("seats", "status")}
        return {**record, **extra, "seats": seats, "game_status": server["status"]}

    def record_verify(self, record: JsonDict) -> list[str]:
        """P-75: the revealed seed hashes to the commitment, and a replay of the server's
        move log from it gives the record's set-up, log (with every Oust commitment of
        P-10) and final state."""
        return verify_record(record)

    def verify_game(self, *, game: Any, state: Any, moves: list[JsonDict]) -> JsonDict:
        """The case file's check of a stored game (running or not): P-75's on its record
        with the stored seed revealed and the live move log, which replays the log from
        the seed and compares set-up, log and state."""
        record = self.record(state)
        record["seed"] = {**record["seed"], "value": game.seed}
        record["moves"] = moves
        problems = verify_record(record)
        commitment = seed_commitment(game.seed)
        commitment_ok = hmac.compare_digest(commitment, game.seed_commitment)
        if not commitment_ok and not any("commitment" in p for p in problems):
            problems.insert(0, "the revealed seed does not hash to the published commitment")
        return {
            "verified": not problems,
            "seed": game.seed,
            "commitment": game.seed_commitment,
            "seed_hash": commitment,
            "commitment_ok": commitment_ok,
            "first_ruler_ok": True,
            "replay_ok": not any(p.startswith("replay") for p in problems),
            "hands": [],
            "problems": problems,
        }

    def god_view(self, state: Any, player_count: int) -> JsonDict:
        """Everything at one step, for staff: every seat's view (hands, plots, sealed
        Oust cards) and the full record with the set-up (deck orders)."""
        spectator = pax_view(state, None)
        return {
            "phase": spectator["state"]["phase"],
            "to_act": spectator["to_act"],
            "round": spectator["state"]["round"],
            "seats": [
                {
                    "seat": n,
                    "hand": pax_view(state, n)["state"]["players"][n]["hand"],
                    "plot": pax_view(state, n)["state"]["players"][n]["plot"],
                }
                for n in range(player_count)
            ],
            "result": pax_engine.result(state),
            "record": pax_record.full_record(state),
        }


def sealed(action: JsonDict) -> JsonDict:
    """P-73: an action as the other seats see it while the game goes on (H.8: a secret
    action keeps only its type)."""
    if action.get("type") in SECRET_ACTIONS:
        return {"type": action["type"]}
    return dict(action)


def verify_record(record: JsonDict) -> list[str]:
    """P-75's check of an exported record (``moves``: the server's log)."""
    problems: list[str] = []
    try:
        seed = record["seed"]["value"]
        commitment = record["seed"]["commitment"]
        settings = record["settings"]
        moves = record["moves"]
    except (KeyError, TypeError):
        return ["the record lacks its seed, settings or moves"]
    if not isinstance(seed, str):
        return ["the seed is not published: the game is not over"]
    if not hmac.compare_digest(seed_commitment(seed), str(commitment)):
        problems.append("the revealed seed does not hash to the published commitment")
    try:
        state = pax_engine.new_game(
            int(settings["players"]),
            str(settings["variant"]),
            seed,
            {"round_cap": settings.get("round_cap")},
        )
        for move in moves:
            if move["action"].get("type") == "advance":
                state = pax_engine.advance(state)
            else:
                state = pax_engine.apply(state, move["seat"], move["action"])
    except (IllegalAction, SetupError, KeyError, TypeError, ValueError) as exc:
        return [*problems, f"replay: the move log does not replay ({exc})"]
    replayed = pax_record.full_record(state)
    for key in ("setup", "log", "state"):
        if replayed[key] != record.get(key):
            problems.append(f"replay: the record's {key} differs from a replay of its moves")
    return problems


KIND = Pax()
