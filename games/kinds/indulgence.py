"""Indulgence as the server sees it (``engine.indulgence``, api.md).

What it does differently from the defaults of :class:`~games.kinds.base.GameKind`:

- the play snapshot leaves the records of settled hands but the last out; they are kept
  in ``GameHistory`` (``engine.indulgence.play_snapshot``);
- its automatic step is the hand settlement, one ``HandSettlement`` row per hand;
- a card played face down is hidden from others in events and the move log until its
  trick is complete;
- its result keeps Indulgence's own shape (``winner_seat``, ``florins``) in the record;
- staff may adjust a seat's florins beside the record.
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections.abc import Callable
from typing import Any

from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

import engine.indulgence as rules
from engine.bots import version as bot_version
from engine.core import IllegalAction
from games.kinds.base import GameKind, HistoryWrite, JsonDict, autopilot_setting, move_entry
from games.kinds.base import move_public as public_fields

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


class Indulgence(GameKind):
    key = "indulgence"
    pages_module = "games.web.pages_indulgence"
    score_adjustments = True

    def rules_url(self) -> str:
        return reverse("rules")

    def variant_title(self, variant: str) -> str:
        titles = {"basic": _("Basic"), "expert": _("Expert")}
        return titles.get(variant) or super().variant_title(variant)

    def player_count_refusal(self) -> str:
        return _("player_count must be 3 or 4.")

    def variant_refusal(self) -> str:
        return _("variant must be 'basic' or 'expert'.")

    def options_check(
        self, *, player_count: int, variant: str, rated: bool, options: JsonDict
    ) -> JsonDict:
        if options:
            raise ValueError(f"Indulgence takes no options, not {sorted(options)!r}.")
        return {}

    def table_options(self, stored: JsonDict) -> JsonDict:
        return {}

    def engine_options(self, game: Any, bot_seats: Callable[[], list[bool]]) -> JsonDict:
        return {}

    def new_state(self, game: Any, options: JsonDict) -> Any:
        return rules.new_game(game.player_count, game.variant, game.seed)

    # --- the stored state: settled hands but the last in GameHistory ------------------

    def snapshot(self, state: Any) -> JsonDict:
        return rules.play_snapshot(state)

    def load(self, snapshot: JsonDict) -> Any:
        return rules.state_from_json(snapshot)

    def history_write(self, old_snapshot: JsonDict | None, state: Any) -> HistoryWrite | None:
        """Keep ``GameHistory`` holding the record of every settled hand of ``state``, so
        that the play snapshot may leave all but the last out. ``old_snapshot`` (the one
        this state's replaces) says how many records were kept with it.

        Ordinary moves write nothing. A settlement adds one record (one read, one write,
        once per hand); a whole state (a game replayed by a rewind, or a snapshot of the
        older form that held every record) is written whole when it has hands to leave
        out."""
        settled = rules.settled_count(state)
        if settled < 2:
            return None  # the snapshot holds the only settled hand, if any
        old = old_snapshot
        kept = None if old is None else rules.snapshot_history_start(old) + len(old["history"])
        if state.history_start == 0:
            return HistoryWrite(None, rules.hand_records_json(state))
        if kept == settled:
            return None  # an ordinary move: the records are kept already
        if kept is not None and state.history_start <= kept < settled:
            # A settlement from a play snapshot: the stored records before the ones the
            # state holds, then those (the last settled hand's again, and the new one).
            return HistoryWrite(state.history_start, rules.hand_records_json(state))
        raise ValueError(f"{settled} settled hands, but the stored records end at {kept}")

    def history_start(self, snapshot: JsonDict) -> int:
        return int(rules.snapshot_history_start(snapshot))

    def load_whole(self, snapshot: JsonDict, earlier: list[Any]) -> Any:
        return rules.state_from_json(snapshot, earlier=earlier)

    # --- the hand settlement -------------------------------------------------------------

    def step_key(self, state: Any) -> int:
        return int(rules.view(state, None)["hand_number"])

    def step_settlement(self, state: Any, key: int) -> JsonDict | None:
        hand = rules.settled_hand(state, key)
        return {"payments": hand["payments"], "florins_after": hand["florins_after"]}

    def autopilot_bot(self) -> str:
        return autopilot_setting()

    def bot_version(self, kind: str) -> str:
        return str(bot_version(kind))

    def may_act_off_turn(self, state: Any, seat: int) -> bool:
        return False

    def refusal(self, exc: IllegalAction) -> str:
        if (get_language() or "en").startswith("en") or exc.code not in _ENGINE_REFUSALS:
            return exc.message
        return str(_ENGINE_REFUSALS[exc.code])

    def not_your_turn(self, to_act: int | None, seat: int) -> str:
        if to_act is None:
            return _("The hand is being settled; the next hand is dealt in a moment.")
        return _("It is seat %(to_act)d's turn, not yours (seat %(seat)d).") % {
            "to_act": to_act,
            "seat": seat,
        }

    # --- what players see -------------------------------------------------------------

    def undealt_view(self) -> JsonDict:
        return dict(UNDEALT_VIEW)

    def seat_defaults(self) -> JsonDict:
        return {"florins": None, "papal_bull_available": None}

    def view(self, state: Any, seat: int | None) -> JsonDict:
        """``engine.indulgence.view``; a finished game's ``result`` has the common keys
        (``ranking``, ``scores``, ``winner_seats``) beside Indulgence's own."""
        view = rules.view(state, seat)
        if view.get("result") is not None:
            view["result"] = self.engine.result(state)
        return view

    def stored_result(self, state: Any) -> JsonDict | None:
        """Indulgence's own result (``winner_seat``, ``florins``, ``reason``), as the
        record has it."""
        return rules.result(state)

    def move_payloads(self, move: Any, spectator: JsonDict) -> tuple[JsonDict, JsonDict | None]:
        """A played card is public only if the spectator view shows it (a face-down play
        in a trick not yet complete is ``null`` for others; the player's own extras
        carry it)."""
        action = dict(move.action)
        if action.get("type") != "play" or _card_shown(spectator, move.seat, action.get("card")):
            return public_fields(move, action), None
        return public_fields(move, {**action, "card": None}), {"action": action}

    def moves_public(self, moves: list[Any], view: JsonDict) -> list[JsonDict]:
        """Cards of a face-down trick that is not yet complete are hidden, except the
        reader's own (the view is the reader's)."""
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
        entries = []
        for move in moves:
            action = dict(move.action)
            if move.seq in hidden:
                action["card"] = None
            entries.append(move_entry(move, action))
        return entries

    # --- what is announced ------------------------------------------------------------

    def event_fields(self, spectator: JsonDict) -> JsonDict:
        return {"hand_number": spectator["hand_number"], "phase": spectator["phase"]}

    def started_fields(self, spectator: JsonDict) -> JsonDict:
        return {"ruler_seat": spectator["ruler_seat"]}

    def step_event(self, move: Any, spectator: JsonDict) -> tuple[str, JsonDict]:
        return "hand_settled", {"seq": move.seq, "settlement": spectator["last_settlement"]}

    def started_text(self, game: Any) -> tuple[str, str]:
        return (
            f"Game {game.pk} has started",
            f"Every seat at game {game.pk} is taken: the cards are dealt.",
        )

    def finished_text(self, game: Any, seat: int) -> tuple[str, str]:
        result = game.result or {}
        won = result.get("winner_seat") == seat
        florins = (result.get("florins") or {}).get(str(seat))
        return (
            f"Game {game.pk} is over: {'you won' if won else 'it is finished'}",
            f"Game {game.pk} has ended; you finished with {florins} florins.",
        )

    def challenge_body(self, names: JsonDict) -> str:
        return (
            _(
                "%(user)s invites you to a %(players)d-player game of Indulgence; "
                "join game %(game)d to accept."
            )
            % names
        )

    # --- records ----------------------------------------------------------------------

    def replay(
        self,
        *,
        player_count: int,
        variant: str,
        seed: str,
        options: JsonDict,
        moves: list[JsonDict],
    ) -> Any:
        state = rules.new_game(player_count, variant, seed)
        for move in moves:
            if move["action"].get("type") == "advance":
                state = rules.advance(state)
            else:
                state = rules.apply(state, move["seat"], move["action"])
        return state

    def part_summaries(self, state: Any) -> list[JsonDict]:
        """``engine.indulgence.hand_summaries``: the Ruler, the edicts, who sinned or
        passed, the tricks taken, the payments; never a deal."""
        summaries: list[JsonDict] = rules.hand_summaries(state)
        return summaries

    def record_verify(self, record: JsonDict) -> list[str]:
        """Check an exported record against the rules: the seed matches its commitment,
        and replaying seed + moves gives the same deals, tricks, payments and result."""
        problems: list[str] = []
        if rules.seed_commitment(record["seed"]) != record["seed_commitment"]:
            problems.append("the seed does not match the published seed commitment")
        try:
            state = self.replay(
                player_count=record["player_count"],
                variant=record["variant"],
                seed=record["seed"],
                options={},
                moves=record["moves"],
            )
        except rules.IllegalAction as exc:
            return [*problems, f"the move log does not replay: {exc.message}"]
        replayed = rules.full_record(state)
        for key in ("first_ruler", "result"):
            if replayed[key] != record[key]:
                problems.append(
                    f"{key}: record says {record[key]!r}, replay gives {replayed[key]!r}"
                )
        if len(replayed["hands"]) != len(record["hands"]):
            problems.append(
                f"the record has {len(record['hands'])} hands, the replay {len(replayed['hands'])}"
            )
        for mine, theirs in zip(replayed["hands"], record["hands"], strict=False):
            for key in sorted(set(mine) | set(theirs)):
                if mine.get(key) != theirs.get(key):
                    problems.append(f"hand {theirs.get('number')}: {key} differs from the replay")
        return problems

    # --- dispute review (staff only) --------------------------------------------------

    def god_view(self, state: Any, player_count: int) -> JsonDict:
        """Every hand as dealt and as held, the trick and the tricks of the hand, the
        florins, trump and edicts, the result (the case file's replay)."""
        record = rules.full_record(state)
        spectator = rules.view(state, None)
        hand = record["hands"][-1] if record["hands"] else None
        held = {n: rules.view(state, n)["my_hand"] for n in range(player_count)}
        return {
            "hand_number": spectator["hand_number"],
            "phase": spectator["phase"],
            "to_act": spectator["to_act"],
            "trump": spectator["trump"],
            "edicts_in_play": [e["title"] for e in spectator["edicts_in_play"]],
            "florins": {s["seat"]: s["florins"] for s in spectator["seats"]},
            "seats": [
                {
                    "seat": n,
                    "dealt": hand["deal"][str(n)] if hand else [],
                    "held": held[n],
                }
                for n in range(player_count)
            ],
            "current_trick": hand["current_trick"] if hand else None,
            "tricks": hand["tricks"] if hand else [],
            "result": record["result"],
        }

    def verify_game(self, *, game: Any, state: Any, moves: list[JsonDict]) -> JsonDict:
        """Commitment <-> revealed seed <-> deals: the seed hashes to the commitment
        published at the start, every recorded deal is the one the seed gives (re-derived
        by :func:`deal_derive`, independently of the engine), and replaying the seed and
        the live move log gives the recorded game (:meth:`record_verify`)."""
        recorded = rules.full_record(state)
        problems: list[str] = []
        commitment = hashlib.sha256(game.seed.encode()).hexdigest()
        commitment_ok = hmac.compare_digest(commitment, game.seed_commitment)
        if not commitment_ok:
            problems.append("the revealed seed does not hash to the published commitment")
        if recorded["seed"] != game.seed:
            problems.append("the game state was dealt from another seed than the revealed one")
        first_ruler = _first_ruler_derive(game.seed, game.player_count)
        if first_ruler != recorded["first_ruler"]:
            problems.append(
                f"first Ruler: recorded seat {recorded['first_ruler']}, "
                f"seed gives seat {first_ruler}"
            )
        hands = []
        for hand in recorded["hands"]:
            derived = deal_derive(
                seed=game.seed, hand_number=hand["number"], player_count=game.player_count
            )
            ok = {k: sorted(v) for k, v in derived.items()} == {
                k: sorted(v) for k, v in hand["deal"].items()
            }
            if not ok:
                problems.append(f"hand {hand['number']}: the recorded deal is not the seed's deal")
            hands.append(
                {"number": hand["number"], "ok": ok, "recorded": hand["deal"], "derived": derived}
            )
        # The recorded game checked against a replay of the revealed seed and the live log.
        claimed = {
            **recorded,
            "seed": game.seed,
            "seed_commitment": game.seed_commitment,
            "moves": [{"seat": m["seat"], "action": m["action"]} for m in moves],
        }
        replay_problems = [p for p in self.record_verify(claimed) if "commitment" not in p]
        problems.extend(f"replay: {p}" for p in replay_problems)
        return {
            "verified": not problems,
            "seed": game.seed,
            "commitment": game.seed_commitment,
            "seed_hash": commitment,
            "commitment_ok": commitment_ok,
            "first_ruler_ok": first_ruler == recorded["first_ruler"],
            "replay_ok": not replay_problems,
            "hands": hands,
            "problems": problems,
        }


# docs/engine.md "Seeds" (and engine/indulgence/shuffle.py): the 36 card ids in id order.
DECK_IN_ID_ORDER = tuple(f"{family}{rank}" for family in "BMOS" for rank in range(1, 10))


def deal_derive(*, seed: str, hand_number: int, player_count: int) -> dict[str, list[str]]:
    """The deal of a hand re-derived from the seed by the documented scheme, written
    independently of the engine: HMAC-SHA256(key=seed, msg="deal:<hand>") seeds a
    ``random.Random`` that shuffles the 36 card ids in id order; seat k gets the k-th
    slice of 36 // player_count cards."""
    digest = hmac.new(seed.encode(), f"deal:{hand_number}".encode(), hashlib.sha256).digest()
    cards = list(DECK_IN_ID_ORDER)
    random.Random(int.from_bytes(digest, "big")).shuffle(cards)
    per_seat = len(cards) // player_count
    return {
        str(n): sorted(cards[n * per_seat : (n + 1) * per_seat], key=DECK_IN_ID_ORDER.index)
        for n in range(player_count)
    }


def _first_ruler_derive(seed: str, player_count: int) -> int:
    digest = hmac.new(seed.encode(), b"first-ruler", hashlib.sha256).digest()
    return random.Random(int.from_bytes(digest, "big")).randrange(player_count)


def _card_shown(spectator: JsonDict, seat: int | None, card: Any) -> bool:
    tricks = [spectator.get("current_trick") or {"plays": []}]
    if spectator.get("tricks"):
        tricks.append(spectator["tricks"][-1])
    return any(
        play.get("seat") == seat and play.get("card") == card
        for trick in tricks
        for play in trick["plays"]
    )


KIND = Indulgence()
