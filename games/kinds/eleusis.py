"""New Eleusis as the server sees it (``engine.eleusis``, rules/new-eleusis.md NE-20 to
NE-31; docs/eleusis.md, "The server").

What it does differently from the defaults of :class:`~games.kinds.base.GameKind`:

- table options (hand size, sudden death, round limit, difficulty, deadlines, ...) and
  the server's own: ``rated``, which seats are bots, the deadlines of NE-27 from the
  table's time per move (Our ruling OR44);
- each phase has its own deadline (NE-26.2, 26.6, 27.3, 27.4); a missed rule submission,
  post_play or dealer choice, or a rated prophet's missed call, is the engine's
  ``timeout_action`` (E29, E32, NE-27.4); a scientist's turn and an unrated call go to
  the novice bot, the autopilot of E31;
- the automatic steps are the end of a round (scoring and reveal) and a house-dealt rule;
- others see a move without what the engine keeps sealed: the rule's source, a library
  rule's id, a prophecy, and a play's prophet intent (NE-23.4, NE-26.2, NE-28.3);
- NE-27.5's notifications: "your play awaits the prophet", "your play was judged",
  "the round ended: the rule was ...", and a "your turn" worded for each phase.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.utils.translation import gettext_lazy

import engine.eleusis as rules
from engine.eleusis.deck import card_ids
from engine.eleusis.record import MASKED_ACTION_KEYS
from engine.eleusis.setup import make_settings
from engine.eleusis.state import (
    DEALER_CHOICE,
    POST_PLAY,
    PROPHET_CALL,
    ROUND_OVER,
    RULE_SETUP,
    TURN,
)
from games.kinds.base import GameKind, JsonDict, Notice

# Options a table may set through the API (the engine's own keys, NE-31, docs/eleusis.md
# "Options"); the server sets ``rated`` and ``bots`` itself, and the variant chooses
# ``house_dealt``.
TABLE_OPTIONS = frozenset(
    {
        "hand_size",
        "sudden_death",
        "sudden_death_prophet",
        "round_limit",
        "difficulty",
        "deadlines",
        "sanity_walks",
        "max_turns",
    }
)
# Which deadline of NE-27.1 each phase runs on.
PHASE_DEADLINE = {
    RULE_SETUP: "rule_submission",
    TURN: "turn",
    PROPHET_CALL: "prophet_call",
    DEALER_CHOICE: "dealer_choice",
    POST_PLAY: "prophet_window",
}
LIVE_BELOW_SECONDS = 3600  # Our ruling OR44: a table with less per move is a live table
LIVE_SHORT = 600  # 10 minutes (NE-26.2, NE-27.3, NE-27.4, live tables)
CORRESPONDENCE_SHORT = 7_200  # 2 hours (NE-26.2, NE-27.4)
CORRESPONDENCE_RULE = 86_400  # 24 hours (NE-27.3)
PROPHET_CALL_CAP = 43_200  # 12 hours (NE-26.6)
VARIANT_TITLES = {
    "standard": gettext_lazy("Standard"),
    "express": gettext_lazy("Express (V5: 12 cards)"),
    "short": gettext_lazy("Short (V3: sudden death at 30 and 20)"),
    "practice": gettext_lazy("Practice (V4: the house deals)"),
}
SEAT_BOTS = frozenset({"random", "novice", "scientist"})  # the dealer bot only sets rules
AUTOPILOT = "novice"  # E31: never declares, never plays strings, may declare no play


def default_deadlines(turn_seconds: int) -> dict[str, int]:
    """NE-27.1's deadlines of a table whose time per move is ``turn_seconds`` (OR44)."""
    live = turn_seconds < LIVE_BELOW_SECONDS
    return {
        "turn": turn_seconds,
        "prophet_call": min(turn_seconds, PROPHET_CALL_CAP),
        "prophet_window": LIVE_SHORT if live else CORRESPONDENCE_SHORT,
        "rule_submission": LIVE_SHORT if live else CORRESPONDENCE_RULE,
        "dealer_choice": LIVE_SHORT if live else CORRESPONDENCE_SHORT,
    }


class Eleusis(GameKind):
    key = "eleusis"
    pages_module = "games.web.pages_eleusis"
    score_adjustments = False  # scores are recomputed from the record (NE-29.2)

    def options_check(
        self, *, player_count: int, variant: str, rated: bool, options: JsonDict
    ) -> JsonDict:
        unknown = sorted(set(options) - TABLE_OPTIONS)
        if unknown:
            raise ValueError(
                f"unknown option(s) {unknown}; a New Eleusis table takes {sorted(TABLE_OPTIONS)}"
            )
        make_settings(player_count, variant, {**options, "rated": rated})  # ValueError
        return dict(options)

    def table_options(self, stored: JsonDict) -> JsonDict:
        """The table's own options (the deadlines as they were, written out)."""
        return {key: value for key, value in stored.items() if key in TABLE_OPTIONS}

    def engine_options(self, game: Any, bot_seats: Callable[[], list[bool]]) -> JsonDict:
        options = dict(game.options or {})
        given = dict(options.pop("deadlines", None) or {})
        deadlines = (
            default_deadlines(game.turn_timeout_seconds) if game.turn_timeout_seconds else {}
        )
        deadlines.update(given)
        return {**options, "rated": bool(game.rated), "bots": bot_seats(), "deadlines": deadlines}

    # --- turns, deadlines, the automatic steps ----------------------------------------

    def variant_title(self, variant: str) -> str:
        return str(VARIANT_TITLES.get(variant, variant))

    def step_key(self, state: Any) -> int:
        """Two steps a round can take by itself: its house rule (V4) and its end."""
        r = state.round
        return int(r.number) * 2 + (1 if r.phase == ROUND_OVER else 0)

    def deadline_seconds(self, game: Any, state: Any) -> int | None:
        """The phase's deadline (NE-27.1), when the table has a time per move (OR44)."""
        if not game.turn_timeout_seconds:
            return None
        key = PHASE_DEADLINE.get(state.round.phase)
        if key is None:
            return None
        return int(dict(state.settings.deadlines)[key])

    def autopilot_bot(self) -> str:
        return AUTOPILOT

    def bot_kinds(self) -> frozenset[str]:
        return SEAT_BOTS & frozenset(self.meta.bots)

    # --- what players see -------------------------------------------------------------

    def undealt_view(self) -> JsonDict:
        return {
            "game": self.key,
            "phase": None,
            "to_act": None,
            "round": None,
            "my_hand": None,
            "legal_actions": [],
            "result": None,
        }

    def seat_defaults(self) -> JsonDict:
        return {"role": None, "hand_count": None, "total": None}

    def seal(self, action: JsonDict) -> JsonDict:
        """While the game goes on, every move but the reader's own is shown sealed."""
        return sealed(action)

    # --- what is announced ------------------------------------------------------------

    def event_fields(self, spectator: JsonDict) -> JsonDict:
        r = spectator.get("round") or {}
        return {"round_number": r.get("number"), "phase": spectator["phase"]}

    def started_fields(self, spectator: JsonDict) -> JsonDict:
        return {"dealer_seat": (spectator.get("round") or {}).get("dealer")}

    def step_event(self, move: Any, spectator: JsonDict) -> tuple[str, JsonDict]:
        """The end of a round (scored, its rule revealed) or a house-dealt rule."""
        previous = spectator["previous_rounds"]
        if spectator["end"] is not None or spectator["round"]["phase"] == RULE_SETUP:
            finished = spectator["round"]["record"] if spectator["end"] else previous[-1]
            summary = {key: finished[key] for key in ("number", "dealer", "rule", "end")}
            return "round_scored", {"seq": move.seq, "round": summary}
        return "round_started", {"seq": move.seq}

    def started_text(self, game: Any) -> tuple[str, str]:
        return (
            f"Game {game.pk} has started",
            f"Every seat at game {game.pk} is taken: the first dealer sets a rule.",
        )

    def turn_text(self, game: Any, seat: int, spectator: JsonDict) -> tuple[str, str]:
        """NE-27.5: the prophet must call, decide on prophecy, choose a card, set a rule,
        or play."""
        deadline = game.turn_deadline.isoformat() if game.turn_deadline else None
        phase = spectator["phase"]
        title, body = {
            RULE_SETUP: (
                f"Set the rule in game {game.pk}",
                f"You deal round {spectator['round']['number']} of game {game.pk}: "
                "write a rule or pick one from the library.",
            ),
            PROPHET_CALL: (
                f"The prophet must call in game {game.pk}",
                f"As prophet (seat {seat}) in game {game.pk}, call the pending play "
                "right or wrong.",
            ),
            DEALER_CHOICE: (
                f"Choose a card in game {game.pk}",
                f"A no play was declared wrongly in game {game.pk}: choose which right card "
                "of the shown hand goes on the main line.",
            ),
            POST_PLAY: (
                f"Decide on prophecy in game {game.pk}",
                f"Your play in game {game.pk} was judged: declare yourself prophet, or pass.",
            ),
        }.get(
            phase,
            (
                f"Your turn in game {game.pk}",
                f"It is your turn (seat {seat}) in game {game.pk}.",
            ),
        )
        if deadline:
            body += f" Act before {deadline}."
        return title, body

    def tells_own_next_turn(self, before: Any, after: Any) -> bool:
        """NE-27.5's "decide on prophecy" goes to the player whose play opened post_play."""
        return (
            before is not None
            and after.round.phase == POST_PLAY
            and before.round.phase != POST_PLAY
        )

    def finished_text(self, game: Any, seat: int) -> tuple[str, str]:
        result = game.result or {}
        won = seat in (result.get("winner_seats") or [])
        points = (result.get("scores") or {}).get(str(seat))
        return (
            f"Game {game.pk} is over: {'you won' if won else 'it is finished'}",
            f"Game {game.pk} has ended; you finished with {points} points.",
        )

    def notices(self, game: Any, move: Any, before: Any, after: Any) -> list[Notice]:
        """NE-27.5: "your play awaits the prophet" (to the player), "your play was judged"
        (to the scientist who waited on the call), "the round ended: the rule was ..."
        (to everyone seated)."""
        out: list[Notice] = []
        if before is None:
            return out
        waiting, now = before.round.pending, after.round.pending
        fresh = now is not None and (waiting is None or waiting.seq != now.seq)
        if fresh and now is not None and after.round.phase == PROPHET_CALL:
            out.append(
                Notice(
                    seat=now.seat,
                    kind="play_pending",
                    title=f"Your play in game {game.pk} awaits the prophet",
                    body=f"The prophet (seat {after.round.prophet}) calls your play in "
                    f"game {game.pk} before it is judged.",
                    data={"seat": now.seat, "seq": now.seq},
                )
            )
        if waiting is not None and (now is None or now.seq != waiting.seq):
            judged = next(
                (t for r in reversed(after.rounds) for t in r.turns if t.seq == waiting.seq),
                None,
            )
            if judged is not None:
                verdict = "right" if judged.truth else "wrong"
                approval = {True: "approved", False: "not approved", None: "not made"}[
                    judged.approved
                ]
                out.append(
                    Notice(
                        seat=judged.seat,
                        kind="play_judged",
                        title=f"Your play in game {game.pk} was judged",
                        body=f"Your play in game {game.pk} was {verdict}; the prophet's call "
                        f"was {approval}.",
                        data={
                            "seat": judged.seat,
                            "seq": judged.seq,
                            "truth": judged.truth,
                            "approved": judged.approved,
                        },
                    )
                )
        scored = [r for r in after.rounds if r.score is not None]
        if len(scored) > len([r for r in before.rounds if r.score is not None]):
            r = scored[-1]
            source = r.rule.source if r.rule is not None else None
            for seat in range(after.player_count):
                out.append(
                    Notice(
                        seat=seat,
                        kind="round_ended",
                        title=f"Round {r.number} of game {game.pk} ended",
                        body=f"Round {r.number} of game {game.pk} ended; the rule was: {source}",
                        data={"round": r.number, "rule": source},
                    )
                )
        return out

    # --- dispute review (staff only) --------------------------------------------------

    def god_view(self, state: Any, player_count: int) -> JsonDict:
        """The round as staff see it: every seat's hand as dealt and as held, the dealer's
        rule (source, library id, sanity verdict), the prophecy, the main line, and the
        full record with the unrevealed rounds as the engine masks them."""
        r = state.round
        spectator = rules.view(state, None)
        deal = r.deal or ((),) * player_count
        return {
            "hand_number": r.number,
            "phase": spectator["phase"],
            "to_act": spectator["to_act"],
            "seats": [
                {"seat": n, "dealt": card_ids(deal[n]), "held": card_ids(r.hands[n])}
                for n in range(player_count)
            ],
            "rule": None
            if r.rule is None
            else {
                "source": r.rule.source,
                "library_id": r.rule.library_id,
                "sanity": r.rule.sanity,
            },
            "prophecy": r.prophecy,
            "main": spectator["round"]["main"],
            "result": rules.result(state),
            "record": rules.full_record(state),
        }

    # --- records ----------------------------------------------------------------------

    def export(self, record: JsonDict, server: JsonDict) -> JsonDict:
        """NE-29.3's record as the engine writes it (``verify`` reads its ``status`` and
        each seat's ``bot``), with the server's fields beside it: each seat's account
        added to its entry, the game's status as ``game_status``."""
        accounts = {entry["seat"]: entry for entry in server["seats"]}
        seats = [{**entry, **accounts.get(entry["seat"], {})} for entry in record["seats"]]
        extra = {k: v for k, v in server.items() if k not in ("seats", "status")}
        return {**record, **extra, "seats": seats, "game_status": server["status"]}

    def record_verify(self, record: JsonDict) -> list[str]:
        """NE-29.2 by the engine's own ``verify``: commitments, shuffles, every verdict
        and score of the revealed rounds."""
        return list(rules.verify(record).problems)


def sealed(action: JsonDict) -> JsonDict:
    """An action as the other seats may see it while the game goes on: without a rule's
    source, a library rule's id or a prophecy (NE-23.4, NE-29.3.9), nor a play's prophet
    intent (NE-26.2, OR37)."""
    out = dict(action)
    key = MASKED_ACTION_KEYS.get(str(out.get("type")))
    if key is not None and key in out:
        out[key] = None
    if out.get("type") in ("play", "no_play") and "prophet" in out:
        out["prophet"] = None
    if out.get("type") == "set_rule":
        out.pop("confirm_warnings", None)  # says whether the sanity check warned
    return out


KIND = Eleusis()
