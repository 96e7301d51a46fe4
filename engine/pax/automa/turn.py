"""The automa's turn (14.8) as programs of the engine: its Action phase is one automatic
step (R78: "one automa turn's script"), run by ``advance``: the token check (14.7.8),
the script once (R45), the fallback of R46 if no letter holds, and the faction claim
(14.8.2 step 3). A human it Ousts answers with the usual decisions (``oust_card``,
``gain``, ``overturn``), so the step may pause for them and resumes by replay.

``victory`` is 14.9 for the Plot Check; ``event_check`` is 14.8.3 step 3.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.core import JsonDict
from engine.pax import board as b
from engine.pax.automa.base import Letter, bot_def, preference, say, token_check
from engine.pax.automa.favor import b_extort
from engine.pax.automa.plan import plan_script
from engine.pax.automa.scripts import j2, sg
from engine.pax.flow import Ctx, Proc
from engine.pax.piles import move, resolve_edict
from engine.pax.plots import connected_subsets
from engine.pax.state import PLACARD, Table

PRIORITY: dict[str, Callable[[Table, int], Letter | None]] = {"SG": sg, "J2": j2}


def prog_automa(t: Table, ctx: Ctx) -> Proc[None]:
    """14.8.2: the automa's Action phase."""
    bot = t.active
    t.phase = "action"
    token_check(t, bot)
    kind = bot_def(t).id
    if kind in PRIORITY:
        letter = PRIORITY[kind](t, bot)
        done = letter is not None
        if letter is not None:
            yield from letter.run(t, ctx)
    else:
        done = yield from plan_script(t, ctx, bot)
    if not done:
        fallback(t, bot)
    claim(t, bot)
    t.phase = "check"
    t.program = "plot_check"


def fallback(t: Table, bot: int) -> None:
    """R46: no letter holds: Extort the bot card (a map card with a bot disk), then the
    placard, each unless it has yielded this turn (7.3.5)."""
    ref = t.token
    assert ref is not None
    say(t, "R46", None, "finds no line of its script that holds")
    if ref != PLACARD and bot in t.slots[ref] and ref not in t.turn.yielded:
        b_extort(t, bot, ref, "R46")
    if PLACARD not in t.turn.yielded:
        b_extort(t, bot, PLACARD, "R46")


def claim(t: Table, bot: int) -> None:
    """14.8.2 step 3, R56: one faction card in the game and not its own, of a faction
    whose largest lodge it controls (9.2); B's top faction first, then its bottom, then
    faction order (a placard's contact factions in faction order, P-33)."""
    ref = t.token
    assert ref is not None
    for f in preference(t, bot, ref):
        entry = next((fc for fc in t.fcards if t.g.cat.fc_faction[fc[0]] == f), None)
        if entry is None or entry[2] == bot or b.largest_lodge_controller(t, f) != bot:
            continue
        src = ["display"] if entry[1] is None else ["faction", entry[1]]
        say(t, "claim", None, f"claims the faction card {entry[0]} (it controls the largest lodge)")
        t.step("move", card=entry[0], **{"from": src, "to": ["faction", bot]})
        entry[1] = entry[2] = bot
        return


# --- 14.9: bot victory ------------------------------------------------------------------


def controls_lodge_set(t: Table, bot: int, least: int) -> bool:
    """14.9.2: some lodge set (2.8.1, R09) of at least ``least`` cards the automa
    controls (2.8.3)."""
    for f in range(6):
        for comp in b.lodges(t, f):
            if len(comp) < least or b.set_totals(t, comp)[bot] < 3:
                continue
            if b.set_controller(t, comp) == bot:
                return True
            for mask in connected_subsets(t, comp, least):
                cells = [i for i in comp if mask >> i & 1]
                if b.set_controller(t, cells) == bot:
                    return True
    return False


def plot_holds(t: Table, bot: int, kind: str, prm: dict[str, object]) -> bool:
    def least() -> int:
        value = prm["min"]
        assert isinstance(value, int)
        return value

    controlled = [i for i in range(len(t.cards)) if b.controller(t, i) == bot]
    if kind == "edicts_discarded":
        return t.edicts_discarded >= least()
    if kind == "lodge_size":
        return controls_lodge_set(t, bot, least())
    if kind == "disks_on_map":
        return b.map_disks(t, bot) >= least()
    if kind == "human_without_disks":
        start = prm["from_round"]
        assert isinstance(start, int)
        return t.round >= start and any(b.map_disks(t, q) == 0 for q in range(t.g.humans))
    if kind == "deck_exhaustions":
        return t.exhaustions >= least()
    if kind == "controls_affiliated":
        kinds = prm["affiliations"]
        return sum(b.card(t, i).affiliation in kinds for i in controlled) >= least()  # type: ignore[operator]
    if kind == "controls_rank":
        kinds = prm["ranks"]
        return sum(b.card(t, i).rank in kinds for i in controlled) >= least()  # type: ignore[operator]
    raise AssertionError(f"unknown bot plot kind {kind}")


def victory(t: Table, bot: int) -> int | None:
    """14.9.1: the number of the first of its three plots that holds (P-37), or None."""
    for plot in bot_def(t).plots:
        if plot_holds(t, bot, plot.kind, dict(plot.params)):
            say(t, "victory", None, f"meets its plot {plot.number}: {plot.text}")
            return plot.number
    return None


def automa_result(t: Table, bot: int, number: int) -> JsonDict:
    """H.5.6 reason automa_plot: the automa scores 1, every other seat shares second."""
    others = [q for q in range(t.g.players) if q != bot]
    return {
        "ranking": [[bot], others],
        "scores": {str(q): int(q == bot) for q in range(t.g.players)},
        "winner_seats": [bot],
        "reason": "automa_plot",
        "plots": None,
        "automa_plot": number,
    }


# --- 14.8.3 step 3: the Event Check -----------------------------------------------------


def event_check(t: Table, bot: int) -> None:
    """With the revealed flag set, the top event card is turned: an edict is resolved in
    front of the automa (12.2), a special goes to the event discard pile."""
    if not t.turn.revealed or not t.event_deck:
        return
    card = t.event_deck.pop(0)
    if card in t.g.cat.edict_faction:
        say(t, "event", None, f"turns the edict {card}: it is resolved in front of it")
        move(t, card, ["event_deck"], ["edict", bot])
        resolve_edict(t, bot, card)
    else:
        say(t, "event", None, f"turns the special event {card}: it is discarded")
        t.event_discard.insert(0, card)
        move(t, card, ["event_deck"], ["event_discard"])
