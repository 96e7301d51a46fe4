"""One transition's working copy of the current round.

An action is validated against the frozen :class:`~engine.eleusis.state.State` first;
only then is a :class:`Work` made from it, changed, and frozen into a new state. So a
refused action changes nothing, and the stock, events and log of one transition are
written in one place: the draws with their ``deck`` events (E03, NE-29.3.6), and the log
entry that collects the transition's events (NE-29.3.5).
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from engine.core import JsonDict
from engine.eleusis.deck import LOW_STOCK, MAX_DECKS, added_deck, card_ids
from engine.eleusis.state import (
    Exhibit,
    LogEntry,
    MainCard,
    Marker,
    Pending,
    ProphetLine,
    Round,
    RuleSetup,
    SidePlay,
    State,
    Turn,
)


def dumps(value: Any) -> str:
    """JSON text as the state keeps it (compact, keys in insertion order)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


class Work:
    """A mutable copy of the current round of ``state`` (and the game's sequence number)."""

    def __init__(self, state: State) -> None:
        r = state.round
        self.state = state
        self.seq = state.seq
        self.phase = r.phase
        self.rule: RuleSetup | None = r.rule
        self.deal = r.deal
        self.starter: list[tuple[int, bool]] = list(r.starter)
        self.first_player = r.first_player
        self.stock: list[int] = list(r.stock)
        self.decks_in_use = r.decks_in_use
        self.hands: list[list[int]] = [list(h) for h in r.hands]
        self.main: list[MainCard] = list(r.main)
        self.side: list[SidePlay] = list(r.side)
        self.exhibits: list[Exhibit] = list(r.exhibits)
        self.main_played = r.main_played
        self.side_played = r.side_played
        self.markers: list[Marker] = list(r.markers)
        self.prophet = r.prophet
        self.lines: list[ProphetLine] = list(r.lines)
        self.expelled: set[int] = set(r.expelled)
        self.current = r.current
        self.pending: Pending | None = r.pending
        self.prophecy = r.prophecy
        self.turns: list[Turn] = list(r.turns)
        self.turn_count = r.turn_count
        self.log: list[LogEntry] = list(r.log)
        self.end_reason = r.end_reason
        self.events: list[JsonDict] = []
        self._decks_added: list[int] = []

    # --- the stock (E03, NE-29.3.3) ---------------------------------------------------

    @property
    def pc(self) -> int:
        return self.main_played + self.side_played

    @property
    def round_seed(self) -> str:
        return self.state.round.seed

    def add_deck(self) -> bool:
        """Put the next deck beneath the stock (at most six in use); whether it was added."""
        if self.decks_in_use >= MAX_DECKS:
            return False
        self.decks_in_use += 1
        self.stock.extend(added_deck(self.round_seed, self.decks_in_use))
        self._decks_added.append(self.decks_in_use)
        return True

    def take_top(self) -> int | None:
        """The top card (None if the stock is empty); a deck is added when four or fewer
        remain after it (E03)."""
        if not self.stock:
            return None
        card = self.stock.pop(0)
        if len(self.stock) <= LOW_STOCK:
            self.add_deck()
        return card

    def flush_decks(self) -> None:
        """Write a ``deck`` event for every deck added since the last flush."""
        for copy in self._decks_added:
            self.events.append({"type": "deck", "deck": copy})
        self._decks_added = []

    def draw(self, seat: int, count: int, reason: str) -> list[int]:
        """``count`` cards to ``seat``'s hand, fewer if the sixth deck runs out (E25, E42):
        a ``draw`` event (if any card came) followed by its ``deck`` events."""
        cards = []
        for _ in range(count):
            card = self.take_top()
            if card is None:
                break
            cards.append(card)
        if cards:
            self.hands[seat] = sorted(self.hands[seat] + cards)
            self.events.append(
                {"type": "draw", "seat": seat, "reason": reason, "cards": card_ids(cards)}
            )
        self.flush_decks()
        return cards

    @property
    def stock_exhausted(self) -> bool:
        return not self.stock and self.decks_in_use >= MAX_DECKS

    # --- the log ------------------------------------------------------------------------

    def log_entry(
        self,
        seat: int | None,
        by: str,
        action: JsonDict,
        *,
        phase: str | None = None,
        shown: tuple[int, ...] | None = None,
    ) -> int:
        """Append the entry of an accepted action with the events gathered so far."""
        self.seq += 1
        self.log.append(
            LogEntry(
                seq=self.seq,
                seat=seat,
                phase=phase or self.phase,
                by=by,
                action=dumps(action),
                events=dumps(self.events),
                shown=shown,
            )
        )
        self.events = []
        return self.seq

    def next_seq(self) -> int:
        return self.seq + 1

    # --- freezing -----------------------------------------------------------------------

    def round(self) -> Round:
        r = self.state.round
        return replace(
            r,
            phase=self.phase,
            rule=self.rule,
            deal=self.deal,
            starter=tuple(self.starter),
            first_player=self.first_player,
            stock=tuple(self.stock),
            decks_in_use=self.decks_in_use,
            hands=tuple(tuple(h) for h in self.hands),
            main=tuple(self.main),
            side=tuple(self.side),
            exhibits=tuple(self.exhibits),
            main_played=self.main_played,
            side_played=self.side_played,
            markers=tuple(self.markers),
            prophet=self.prophet,
            lines=tuple(self.lines),
            expelled=tuple(sorted(self.expelled)),
            current=self.current,
            pending=self.pending,
            prophecy=self.prophecy,
            turns=tuple(self.turns),
            turn_count=self.turn_count,
            log=tuple(self.log),
            end_reason=self.end_reason,
        )

    def commit(self, **changes: Any) -> State:
        """The new state: this round frozen in place of the current one."""
        state = self.state
        return replace(state, rounds=(*state.rounds[:-1], self.round()), seq=self.seq, **changes)
