"""The sequence of play as programs (4, 5, 6, 11, 13): a turn's start and Event phase,
special-event activation, the Action phase menu, the Plot Check, the Event Check, the
Redraw and the end of the turn and of the game.

Each program ends by naming the next one in ``t.program``. ``menu`` and ``activate``
start with a decision; the others are automatic steps (R78) run by ``advance``.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core import JsonDict
from engine.pax import board as b
from engine.pax import favor as fv
from engine.pax.automa import turn as automa
from engine.pax.flow import Ctx, Proc
from engine.pax.menu import do_menu_action, menu_options, menu_quick
from engine.pax.piles import (
    discard_edict,
    draw,
    draw_to_hand,
    edict_favor,
    move,
    resolve_edict,
    to_discard,
)
from engine.pax.plots import plot_check, victory
from engine.pax.state import Table, Turn

COURT = 5
DECISION_PROGRAMS = frozenset({"menu", "activate"})


def prog_turn(t: Table, ctx: Ctx) -> Proc[None]:
    """4.2, 5.1-5.4: a turn begins; edicts advance; the active special is discarded."""
    s = t.active
    t.phase = "event"
    t.turn = Turn()
    t.step("turn", seat=s, round=t.round)
    i = 0
    while i < len(t.edicts[s]):
        edict_favor(t, s, i, None, 1)
        edict_favor(t, s, i, s, 1)  # R15
        if t.edicts[s][i][1] == 0:
            discard_edict(t, s, i)
        else:
            i += 1
    active = t.active_event[s]
    if active is not None:
        t.active_event[s] = None
        t.event_discard.insert(0, active)
        move(t, active, ["active", s], ["event_discard"])
    if s >= t.g.humans:
        t.phase = "action"
        t.program = "automa"  # 14.8.2: the automa's Action phase, one automatic step
    elif t.events[s]:
        t.program = "activate"
    else:
        t.phase = "action"
        t.program = "menu"
    yield from ()  # a program that asks nothing


def prog_activate(t: Table, ctx: Ctx) -> Proc[None]:
    """5.5: put one special event face up, or none."""
    s = t.active
    options: list[JsonDict] = [{"type": "activate", "event": e} for e in dict.fromkeys(t.events[s])]
    ans = yield from ctx.ask(s, "event", [*options, {"type": "activate", "event": None}])
    e = ans["event"]
    if e is not None:
        t.events[s].remove(e)
        t.active_event[s] = e
        move(t, e, ["event_hand", s], ["active", s])
    t.phase = "action"
    t.program = "menu"


def prog_menu(t: Table, ctx: Ctx) -> Proc[None]:
    """6.1: one action of the Action phase, or its end."""
    a = yield from ctx.ask(t.active, "action", lambda: menu_options(t), quick=lambda: menu_quick(t))
    if a["type"] == "end":
        t.phase = "check"
        t.program = "plot_check"
        return
    yield from do_menu_action(t, ctx, a)
    t.program = "menu"


def prog_plot_check(t: Table, ctx: Ctx) -> Proc[None]:
    """9.6 (R37) then 11.1: borrowed cards go back; claims lost and regained; victory."""
    t.phase = "check"
    for fc in t.fcards:
        if fc[1] != fc[2]:
            dst = ["display"] if fc[2] is None else ["faction", fc[2]]
            move(t, fc[0], ["faction", fc[1]], dst)
            fc[1] = fc[2]
    plot_check(t)
    s = t.active
    if s < t.g.humans:
        won = victory(t, s)
        if won is not None:
            finish(t, plot_result(t, s, won))
            return
    else:
        number = automa.victory(t, s)  # 14.8.3 step 2, 14.9
        if number is not None:
            finish(t, automa.automa_result(t, s, number))
            return
    t.program = "event_check"
    yield from ()  # a program that asks nothing


def prog_event_check(t: Table, ctx: Ctx) -> Proc[None]:
    """11.2: with the flag set, draw 2 events, keep 1; an edict resolves at once."""
    s = t.active
    if s >= t.g.humans:
        automa.event_check(t, s)  # 14.8.3 step 3
    elif t.turn.revealed and t.event_deck:
        drawn = t.event_deck[:2]
        t.step("seen", seat=s, of=None, cards=list(drawn), private=[s])
        ans = yield from ctx.ask(
            s, "keep_event", [{"type": "keep_event", "event": e} for e in drawn], cards=drawn
        )
        kept = ans["event"]
        t.event_deck.remove(kept)
        if kept in t.g.cat.edict_faction:
            move(t, kept, ["event_deck"], ["edict", s])
            resolve_edict(t, s, kept)
        else:
            t.events[s].append(kept)
            move(t, kept, ["event_deck"], ["event_hand", s], private=[s])
    t.program = "redraw"


def hand_limit(t: Table, seat: int) -> int:
    """2.10.2, R36: 4, or 5 for the active holder of the Scholars card."""
    base = t.g.cat.data.setup["hand_limit"]
    return base + 1 if seat == t.active and fv.passive(t, b.SCH) else base


def court_options(t: Table, need: int) -> list[JsonDict]:
    """11.3 step 3 (R42): none, any 1, or 2 with the Chamberlain's card (paying 1)."""
    out: list[JsonDict] = [{"type": "court", "cards": []}]
    cards = [(i, c) for i, c in enumerate(t.court) if c is not None]
    if need >= 1:
        out += [{"type": "court", "cards": [c]} for _, c in cards]
    ch = t.court[t.chamberlain]
    if need >= 2 and ch is not None and sum(t.favor[t.active]) >= 1:
        for i, c in cards:
            if c != ch:
                pair = [c, ch] if i < t.chamberlain else [ch, c]
                out.append({"type": "court", "cards": pair})
    return out


def prog_redraw(t: Table, ctx: Ctx) -> Proc[None]:
    """11.3 and 11.4: discard, others draw, you draw, refresh the Court, end the turn."""
    s = t.active
    n = t.g.players
    if t.plan is not None:  # 11.3 step 1, 14.8.4 step 1 (R58)
        to_discard(t, t.plan, ["plan"])
        t.plan = None
    for card, _ in t.schemes:
        to_discard(t, card, ["scheme"])
    for _, card in t.oust_played:
        to_discard(t, card, ["oust"])
    t.schemes = []
    t.oust_played = []
    for k in range(1, n):
        q = (s + k) % n
        if q < t.g.humans:
            while len(t.hands[q]) < hand_limit(t, q) and draw_to_hand(t, q):
                pass
    need = hand_limit(t, s) - len(t.hands[s]) if s < t.g.humans else 0
    if need > 0:
        ans = yield from ctx.ask(s, "court", lambda: court_options(t, need), context={"need": need})
        if len(ans["cards"]) == 2:
            yield from fv.pay(t, ctx, s, fv.Bill([fv.ANY]))
        for c in ans["cards"]:
            i = t.court.index(c)
            t.court[i] = None
            t.hands[s].append(c)
            move(t, c, ["court", i], ["hand", s])
        for _ in range(need - len(ans["cards"])):
            if not draw_to_hand(t, s):
                break
    ch = t.chamberlain
    under = t.court[ch]
    if under is not None:
        to_discard(t, under, ["court", ch])
        t.court[ch] = None
    t.chamberlain = (ch + 1) % COURT
    t.step("chamberlain", slot=t.chamberlain)
    for i in range(COURT):
        if t.court[i] is None:
            c = draw(t)
            if c is None:
                break
            t.court[i] = c
            move(t, c, ["deck"], ["court", i])
    end_turn(t)


def end_turn(t: Table) -> None:
    """11.4, 13.2: cubes back, cards ready, records reset; the next seat or the end."""
    for pos in t.cubes:
        t.step("cube", pos=t.pos(pos), on=False)
    t.cubes = []
    for fc in t.fcards:
        fc[3] = False
    t.turn = Turn()
    n = t.g.players
    nxt = (t.active + 1) % n
    if nxt == t.start_seat and (
        t.final_round or (t.g.round_cap is not None and t.round >= t.g.round_cap)
    ):
        finish(t, scoring_result(t))
        return
    t.active = nxt
    if nxt == t.start_seat:
        t.round += 1
    t.phase = "event"
    t.program = "turn"


def finish(t: Table, result: JsonDict) -> None:
    t.result = result
    t.phase = "over"
    t.program = None
    t.step("end", result=result)


def plot_result(t: Table, seat: int, plots: tuple[str, str]) -> JsonDict:
    """H.5.6 reason plot: the winner scores 1, every other seat shares second place."""
    others = [q for q in range(t.g.players) if q != seat]
    return {
        "ranking": [[seat], others] if others else [[seat]],
        "scores": {str(q): int(q == seat) for q in range(t.g.players)},
        "winner_seats": [seat],
        "reason": "plot",
        "plots": sorted(plots),
        "automa_plot": None,
    }


def scoring_ranking(scores: list[int], held: list[int]) -> list[list[int]]:
    """13.4: by score, then by faction cards held; equal pairs share a rank."""
    keys = {s: (scores[s], held[s]) for s in range(len(scores))}
    ranking: list[list[int]] = []
    for s in sorted(keys, key=lambda s: (-keys[s][0], -keys[s][1], s)):
        if ranking and keys[ranking[-1][0]] == keys[s]:
            ranking[-1].append(s)
        else:
            ranking.append([s])
    return ranking


def scoring_result(t: Table) -> JsonDict:
    """13.3, 13.4: faction scores; ties broken by faction cards held; then shared."""
    scores = b.faction_scores(t)
    held = [sum(1 for fc in t.fcards if fc[2] == s) for s in range(t.g.players)]
    ranking = scoring_ranking(scores, held)
    return {
        "ranking": ranking,
        "scores": {str(s): scores[s] for s in range(t.g.players)},
        "winner_seats": ranking[0],
        "reason": "faction_scoring",
        "plots": None,
        "automa_plot": None,
    }


PROGRAMS: dict[str, Callable[[Table, Ctx], Proc[None]]] = {
    "turn": prog_turn,
    "activate": prog_activate,
    "menu": prog_menu,
    "plot_check": prog_plot_check,
    "event_check": prog_event_check,
    "redraw": prog_redraw,
    "automa": automa.prog_automa,
}
