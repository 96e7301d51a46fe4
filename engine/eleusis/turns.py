"""A scientist's turn, the prophet's call, the dealer's choice and the judgement that
closes a turn (NE-7 to NE-12, NE-26, E11-E31, E37-E39).

A turn is judged when it closes (NE-26.1): at once without a prophet, else after the
prophet's call (and the dealer's choice when there is one). Until then it is a *pending*
play whose verdict is computed nowhere (NE-28.3) and whose prophet intent is sealed.
Every consequence (placement, penalty cards, exhibit, expulsion, overthrow, markers, end
of the round, a declaration) is applied by :func:`close_turn`, which writes the events in
the order of NE-29.3.6.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from engine.core import IllegalAction, JsonDict
from engine.eleusis.deck import card_id, card_ids, choice_index, face_of, parse_card
from engine.eleusis.erl import ErlError, compile_rule
from engine.eleusis.state import (
    DEALER_CHOICE,
    POST_PLAY,
    PROPHET_CALL,
    ROUND_OVER,
    TURN,
    Call,
    Exhibit,
    MainCard,
    Marker,
    Pending,
    ProphetLine,
    SidePlay,
    State,
    Turn,
)
from engine.eleusis.table import (
    end_reason,
    line_of,
    main_faces,
    may_declare,
    next_player,
    office_line,
    round_scientists,
    sudden_death,
)
from engine.eleusis.work import Work

WRONG_PLAY_PENALTY = 2  # per card (NE-8.1, E13)
WRONG_NO_PLAY_PENALTY = 5  # NE-9.3
OVERTHROW_PENALTY = 5  # NE-10.6
NEW_HAND_SMALLER_BY = 4  # NE-9.2


def _hand_cards(hand: tuple[int, ...], ids: list[str]) -> list[int]:
    """The cards of a play, checked against the hand only (NE-28.3: never the rule)."""
    if len(set(ids)) != len(ids):
        dup = next(i for i in ids if ids.count(i) > 1)
        raise IllegalAction("duplicate_card", f"{dup} appears twice in your play.")
    cards = []
    for text in ids:
        try:
            card = parse_card(text)
        except ValueError:
            card = -1
        if card not in hand:
            raise IllegalAction("card_not_in_hand", f"{text} is not a card of your hand.")
        cards.append(card)
    return cards


# --- a scientist's turn (NE-7.2) -------------------------------------------------------


def take_turn(state: State, seat: int, action: JsonDict, by: str) -> State:
    """A play of 1-4 cards or a no play: judged now, or pending for the prophet's call."""
    r = state.round
    hand = r.hands[seat]
    if action["type"] == "play":
        cards = tuple(_hand_cards(hand, action["cards"]))
        shown = None
    else:
        cards = shown = hand
    work = Work(state)
    work.turn_count += 1
    pending = Pending(
        seat=seat,
        kind=action["type"],
        cards=cards,
        prophet=action["prophet"],
        seq=work.next_seq(),
        sudden_death=sudden_death(state.settings, work.pc, office_line(work.lines, work.prophet)),
        under=len(work.main) - 1,
        call=None,
    )
    if work.prophet is not None:  # NE-26.3: face up, awaiting the call
        work.pending = pending
        work.phase = PROPHET_CALL
        work.log_entry(seat, by, action, phase=TURN, shown=shown)
        if work.prophecy is not None:
            call_from_prophecy(work)
        return work.commit()
    if not close_turn(work, pending, None):
        work.pending = pending
        work.phase = DEALER_CHOICE
    work.log_entry(seat, by, action, phase=TURN, shown=shown)
    return work.commit()


# --- the prophet's call (NE-10.3, NE-26.3-26.6) ----------------------------------------


def check_call(state: State, action: JsonDict, by: str) -> Call:
    """The call's form against the pending play (E37: ``bad_action``, NE-31.3)."""
    pending = state.round.pending
    assert pending is not None
    verdict = action["verdict"]
    named = action.get("card")
    if verdict is None:
        if by != "timeout" or not state.settings.rated:
            raise IllegalAction(
                "bad_action", "Only a missed call in a rated table has no verdict (E29)."
            )
        if named is not None:
            raise IllegalAction("bad_action", "A missed call names no card (E29).")
        return Call(None, None, state.seq + 1, by)
    if pending.kind == "play":
        if verdict not in ("right", "wrong") or named is not None:
            raise IllegalAction(
                "bad_action", 'Call a play "right" or "wrong", naming no card (NE-26.3).'
            )
        return Call(verdict, None, state.seq + 1, by)
    if verdict == "correct":
        if named is not None:
            raise IllegalAction("bad_action", 'A "correct" call names no card (NE-26.3).')
        return Call("correct", None, state.seq + 1, by)
    if verdict != "wrong" or named is None:
        raise IllegalAction(
            "bad_action",
            'Call a no play "correct", or "wrong" naming a card of the shown hand (NE-26.3).',
        )
    try:
        card = parse_card(named)
    except ValueError:
        card = -1
    if card not in pending.cards:
        raise IllegalAction("card_not_shown", f"{named} is not in the shown hand (NE-31.3).")
    return Call("wrong", card, state.seq + 1, by)


def _close_call(work: Work, call: Call, action: JsonDict, seat: int, by: str) -> None:
    pending = work.pending
    assert pending is not None
    if not close_turn(work, pending, call):
        work.pending = replace(pending, call=call)
        work.phase = DEALER_CHOICE
    work.log_entry(seat, by, action, phase=PROPHET_CALL)


def make_call(state: State, seat: int, action: JsonDict, by: str) -> State:
    call = check_call(state, action, by)
    work = Work(state)
    _close_call(work, call, action, seat, by)
    return work.commit()


def call_from_prophecy(work: Work) -> None:
    """The standing prophecy calls the pending play at once (NE-26.5): a play right iff
    the prophecy judges it right; a no play "correct" iff it finds no right card, else
    "wrong" naming the first right card in card order. An entry of its own, by
    "prophecy"."""
    pending = work.pending
    assert pending is not None
    assert work.prophecy is not None
    assert work.prophet is not None
    prophecy = compile_rule(work.prophecy)
    line = line_of(prophecy.source, main_faces(work.main))
    action: JsonDict
    if pending.kind == "play":
        right = prophecy.judge_string(line, [face_of(c) for c in pending.cards])
        action = {"type": "call", "verdict": "right" if right else "wrong"}
        call = Call(action["verdict"], None, work.next_seq(), "prophecy")
    else:
        named = [c for c in sorted(pending.cards) if prophecy.judge(line, face_of(c))]
        if named:
            action = {"type": "call", "verdict": "wrong", "card": card_id(named[0])}
            call = Call("wrong", named[0], work.next_seq(), "prophecy")
        else:
            action = {"type": "call", "verdict": "correct"}
            call = Call("correct", None, work.next_seq(), "prophecy")
    _close_call(work, call, action, work.prophet, "prophecy")


def set_prophecy(state: State, seat: int, action: JsonDict, by: str) -> State:
    """Register, replace or withdraw the standing prophecy (NE-26.5, E38)."""
    r = state.round
    if r.prophet != seat:
        raise IllegalAction("not_eligible", "Only the prophet in office has a prophecy (NE-26.5).")
    if r.phase == ROUND_OVER:
        raise IllegalAction("wrong_phase", "The round is over.")
    source = action["source"]
    if source is not None:
        try:
            prophecy = compile_rule(source)
        except ErlError as exc:
            raise IllegalAction(
                "prophecy_invalid",
                f"Your prophecy does not compile ({exc.code} at line {exc.line}, "
                f"column {exc.column}): {exc.message}",
            ) from None
        if prophecy.lookback > len(r.main):
            raise IllegalAction(
                "prophecy_invalid",
                f"Your prophecy looks back {prophecy.lookback} cards; the main line has "
                f"{len(r.main)} (Our ruling OR22).",
            )
        source = prophecy.source
    work = Work(state)
    work.prophecy = source
    work.log_entry(seat, by, action)
    if work.phase == PROPHET_CALL and source is not None:
        call_from_prophecy(work)
    return work.commit()


# --- the dealer's choice (E15, NE-26.1, NE-27.4) ---------------------------------------


def right_cards(state: State) -> list[int]:
    """The right cards of the pending shown hand, in card order (the dealer's eyes only)."""
    r = state.round
    pending = r.pending
    assert pending is not None
    assert r.rule is not None
    rule = compile_rule(r.rule.source)
    line = line_of(rule.source, main_faces(r.main))
    return [c for c in sorted(pending.cards) if rule.judge(line, face_of(c))]


def choose_card(state: State, seat: int, action: JsonDict, by: str) -> State:
    pending = state.round.pending
    assert pending is not None
    try:
        card = parse_card(action["card"])
    except ValueError:
        card = -1
    if card not in pending.cards:
        raise IllegalAction("card_not_in_hand", f"{action['card']} is not in the shown hand.")
    if card not in right_cards(state):
        raise IllegalAction(
            "card_not_right", f"{action['card']} is not right next: choose a right card (E37)."
        )
    work = Work(state)
    close_turn(work, pending, pending.call, card, "random" if by == "timeout" else "dealer")
    work.log_entry(seat, by, action, phase=DEALER_CHOICE)
    return work.commit()


# --- post_play (NE-26.2, E39) ----------------------------------------------------------


def post_play(state: State, seat: int, action: JsonDict, by: str) -> State:
    work = Work(state)
    order = round_scientists(state)
    if action["type"] == "declare_prophet" and _may_declare(work, seat, order):
        take_office(work, seat)
    _next_turn(work, seat, order)
    work.log_entry(seat, by, action, phase=POST_PLAY)
    return work.commit()


# --- judging and closing a turn ----------------------------------------------------------


@dataclass(frozen=True)
class _Judged:
    truth: str
    right: tuple[int, ...]  # no play: the right cards of the hand, card order
    approved: bool | None
    overthrow: bool


def _judge(work: Work, pending: Pending, call: Call | None) -> _Judged:
    assert work.rule is not None
    rule = compile_rule(work.rule.source)
    line = line_of(rule.source, main_faces(work.main))
    right: tuple[int, ...] = ()
    if pending.kind == "play":
        truth = "right" if rule.judge_string(line, [face_of(c) for c in pending.cards]) else "wrong"
    else:
        right = tuple(c for c in sorted(pending.cards) if rule.judge(line, face_of(c)))
        truth = "wrong" if right else "correct"
    approved: bool | None = None
    if call is not None:
        if call.verdict is None:
            approved = False  # a missed call in a rated table (E29)
        elif pending.kind == "play" or call.verdict == "correct":
            approved = call.verdict == truth
        else:
            approved = truth == "wrong" and call.card in right
    return _Judged(truth, right, approved, approved is False)


def close_turn(
    work: Work,
    pending: Pending,
    call: Call | None,
    chosen: int | None = None,
    chosen_by: str | None = None,
) -> bool:
    """Judge and resolve the turn, writing its events; False (and nothing written) when
    the dealer must first choose the right card to place (E15)."""
    state = work.state
    j = _judge(work, pending, call)
    sd = pending.sudden_death
    punish = not j.overthrow  # NE-10.6, E17: no penalty and no expulsion on an overthrow
    seat, kind = pending.seat, pending.kind
    place: list[int] = []
    if kind == "play":
        place = list(pending.cards)
    elif j.truth == "wrong":
        if j.approved:  # N3: the card the prophet named (not placed in sudden death, E22)
            chosen, chosen_by = call.card if call else None, "prophet"
        if not (punish and sd):
            if chosen is None:
                dealer = state.round.dealer
                if (
                    len(j.right) > 1
                    and work.rule is not None
                    and work.rule.no_play_choice == "choose"
                    and dealer is not None
                    and not state.bots[dealer]
                ):
                    return False
                chosen = j.right[choice_index(work.round_seed, pending.seq, len(j.right))]
                chosen_by = "random"
            place = [chosen] if chosen is not None else []
        else:
            chosen = None
    pc0 = work.pc
    pc_after = pc0 + len(place)
    closing = work.next_seq()
    ev = work.events
    if call is not None:
        ev.append({"type": "approval", "approved": bool(j.approved)})
    ev.append(
        {"type": "verdict", "seat": seat, "verdict": j.truth, "sudden_death": sd, "pc": pc_after}
    )
    overthrown = None
    if j.overthrow:
        overthrown = work.prophet
        assert overthrown is not None
        assert call is not None
        returned = card_id(call.card) if call.card is not None else None
        ev.append({"type": "overthrow", "seat": overthrown, "returned": returned})
        index = len(work.lines) - 1
        work.lines[index] = replace(work.lines[index], overthrown_seq=closing)
        work.markers = [replace(m, removed=True) if m.line == index else m for m in work.markers]
        work.prophet = None
        work.prophecy = None
        work.draw(overthrown, OVERTHROW_PENALTY, "prophet")
    if chosen is not None and place:
        ev.append({"type": "chosen", "card": card_id(chosen), "by": chosen_by})
    hand = work.hands[seat]
    if kind == "play":
        for card in place:
            hand.remove(card)
        if j.truth == "right":
            work.main.extend(MainCard(c, seat, pending.seq) for c in place)
            work.main_played += len(place)
            ev.append({"type": "main", "cards": card_ids(place)})
        else:
            work.side.append(SidePlay(pending.under, seat, tuple(place), pending.seq))
            work.side_played += len(place)
            ev.append({"type": "side", "cards": card_ids(place), "under": pending.under})
    elif j.truth == "correct":
        shown = tuple(sorted(hand))
        work.exhibits.append(Exhibit(pending.under, seat, shown, pending.seq))
        ev.append(
            {"type": "exhibit", "seat": seat, "cards": card_ids(shown), "under": pending.under}
        )
        work.hands[seat] = hand = []
    elif place:
        hand.remove(place[0])
        work.main.append(MainCard(place[0], seat, pending.seq))
        work.main_played += 1
        ev.append({"type": "main", "cards": card_ids(place)})
    _markers(work, place, pc0)
    wrong = j.truth == "wrong"
    if kind == "play" and wrong and punish and not sd:
        work.draw(seat, WRONG_PLAY_PENALTY * len(place), "penalty")
    elif kind == "no_play" and wrong and punish and not sd:
        work.draw(seat, WRONG_NO_PLAY_PENALTY, "penalty")
    elif kind == "no_play" and not wrong:
        work.draw(seat, max(0, len(pending.cards) - NEW_HAND_SMALLER_BY), "new_hand")
    expelled = wrong and punish and sd
    if expelled:
        work.expelled.add(seat)
        ev.append({"type": "expel", "seat": seat})
    work.turns.append(
        Turn(
            seq=pending.seq,
            seat=seat,
            kind=kind,
            cards=pending.cards,
            under=pending.under,
            truth=j.truth,
            sudden_death=sd,
            call=call,
            approved=j.approved,
            overthrown=overthrown,
            chosen=chosen if place and kind == "no_play" else None,
            chosen_by=chosen_by if place and kind == "no_play" else None,
            expelled=expelled,
            pc=work.pc,
        )
    )
    work.pending = None
    order = round_scientists(state)
    reason = end_reason(
        work.hands,
        order,
        work.prophet,
        work.expelled,
        work.stock_exhausted,
        work.turn_count,
        state.settings.max_turns,
    )
    if reason is not None:
        work.end_reason = reason
        ev.append({"type": "round_end", "reason": reason})
        work.phase = ROUND_OVER
        work.current = None
        return True
    eligible = _may_declare(work, seat, order)
    if pending.prophet == "declare" and eligible:
        take_office(work, seat)
    elif pending.prophet == "decide_after" and eligible:  # E39
        work.phase = POST_PLAY
        work.current = seat
        return True
    _next_turn(work, seat, order)
    return True


def _markers(work: Work, placed: list[int], pc0: int) -> None:
    """White markers at PC 10, 20, ...; black at PC - m = 10, 20, ... while a prophet is in
    office (NE-6.5, 6.6); in play order, white before black."""
    line = office_line(work.lines, work.prophet)
    index = len(work.lines) - 1
    for i, card in enumerate(placed, start=1):
        pc = pc0 + i
        if pc % 10 == 0:
            work.markers.append(Marker("white", card, pc, None, False))
            work.events.append(
                {"type": "marker", "color": "white", "card": card_id(card), "count": pc}
            )
        if line is not None and pc - line.m > 0 and (pc - line.m) % 10 == 0:
            count = pc - line.m
            work.markers.append(Marker("black", card, count, index, False))
            work.events.append(
                {"type": "marker", "color": "black", "card": card_id(card), "count": count}
            )


def take_office(work: Work, seat: int) -> None:
    """NE-10.2: the prophet line after the declaring play, m = PC; the hand set aside."""
    work.lines.append(
        ProphetLine(
            seat=seat,
            m=work.pc,
            main_at=len(work.main),
            main0=work.main_played,
            side0=work.side_played,
            seq=work.next_seq(),
            overthrown_seq=None,
        )
    )
    work.prophet = seat
    work.prophecy = None
    work.events.append({"type": "prophet", "seat": seat, "m": work.pc})


def _may_declare(work: Work, seat: int, order: list[int]) -> bool:
    return may_declare(
        seat,
        prophet=work.prophet,
        lines=work.lines,
        expelled=work.expelled,
        ended=work.end_reason is not None,
        hand_size=len(work.hands[seat]),
        in_round=order,
    )


def _next_turn(work: Work, after: int, order: list[int]) -> None:
    work.phase = TURN
    work.current = next_player(order, after, work.prophet, work.expelled)
