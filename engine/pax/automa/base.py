"""What every automa script reads and does (14.4-14.7): its seat and definition, the
bot card B and its neighbours ``Nb`` tagged with direction numbers, the log's ``automa``
steps, the token, and the free bot versions of Scout, Influence, Expel and Swap.

A ref is a map index, or ``PLACARD`` (-1): on the automa's turn that is its own placard.
Every decision here is a function of the public table and the deck order (14.1.2): no
randomness of its own, so the same seed and actions give the same game (0.4).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.pax import board as b
from engine.pax.actions import disk_step, flag_reveal, slot_ref
from engine.pax.catalog import Bot
from engine.pax.flow import Ctx, Proc
from engine.pax.geometry import BOT_FRAME, Pos, frame_index_between, frame_step
from engine.pax.piles import at_map, draw, move, to_discard
from engine.pax.state import PLACARD, Table

Run = Callable[[Table, Ctx], Proc[None]]
"""A letter's action, run after it was chosen (it may ask the human it Ousts)."""


@dataclass(frozen=True)
class Letter:
    """A script line that holds (14.3.2, R44): its label, its target and its action."""

    rule: str
    target: int | None
    run: Run


def is_automa(t: Table, seat: int) -> bool:
    """The automa is seat N-1 when the game has one (R12, H.1)."""
    return seat >= t.g.humans


def bot_def(t: Table) -> Bot:
    automa = t.g.setup.automa
    assert automa is not None
    return t.g.cat.data.bots[automa]


def name(t: Table) -> str:
    return bot_def(t).name


def facing(t: Table, bot: int) -> int:
    return t.g.setup.seats[bot].facing


def ref_pos(t: Table, bot: int, ref: int) -> Pos:
    return t.g.placards[bot] if ref == PLACARD else t.g.positions[ref]


def number(t: Table, index: int) -> int:
    """The diagram number (Appendix G) of bot direction ``index`` (0 = FL)."""
    return bot_def(t).diagram[BOT_FRAME[index % 6]]


def neighbours(t: Table, bot: int, ref: int) -> list[tuple[int, int]]:
    """``Nb`` of 14.10: the map neighbours of ``ref`` (R48: never itself; a placard or an
    off-map position is not one) as (map index, direction number), highest number first
    (14.5.4)."""
    pos = ref_pos(t, bot, ref)
    out = []
    for k in range(6):
        q = t.g.index.get(frame_step(pos, facing(t, bot), k))
        if q is not None:
            out.append((q, number(t, k)))
    return sorted(out, key=lambda x: -x[1])


def direction_number(t: Table, bot: int, a: int, z: int) -> int:
    """The number of the direction from map card a to its neighbour z, in the bot's
    frame (J2's ties, 14.10.2)."""
    k = frame_index_between(t.g.positions[a], t.g.positions[z], facing(t, bot))
    assert k is not None
    return number(t, k)


def factions(t: Table, bot: int, ref: int) -> tuple[int, ...]:
    """B's factions (14.4): a card's, or the placard's contact card's three."""
    return t.g.contact[bot] if ref == PLACARD else b.card(t, ref).factions


def preference(t: Table, bot: int, ref: int) -> list[int]:
    """14.6's order of factions: the card's top, its bottom, then faction order. A
    placard's three contact factions come first, in faction order (P-33)."""
    first = list(factions(t, bot, ref))
    return first + [f for f in range(6) if f not in first]


def shares(t: Table, bot: int, i: int, ref: int) -> bool:
    """A face-up card i shares a faction with B (``ref``)."""
    return t.up[i] and bool(set(b.card(t, i).factions) & set(factions(t, bot, ref)))


def humans_on(t: Table, bot: int, i: int) -> int:
    """Human disks on a card ("player influence", 14.4)."""
    return sum(1 for s in t.slots[i] if s is not None and s != bot)


def only_bot(t: Table, bot: int, i: int) -> bool:
    """ "Holds only bot disks": at least one bot disk and no human disk (P-32)."""
    return bot in t.slots[i] and humans_on(t, bot, i) == 0


def can_influence(t: Table, bot: int, i: int) -> bool:
    """B-Influence is feasible (14.7.2, R44): face up, an open slot the bot can use, a
    disk in its supply."""
    return t.up[i] and b.usable(t, bot, i) > 0 and t.disks[bot] > 0


def can_expel(t: Table) -> bool:
    """B-Expel has a replacement (14.7.4 step 2): the PLAN card, or a card to draw. Judged
    before the target is discarded (P-35)."""
    return t.plan is not None or bool(t.deck) or bool(t.discard)


# --- the log ---------------------------------------------------------------------------


def where(t: Table, i: int) -> str:
    if i == PLACARD:
        return "its placard"
    r, c = t.g.positions[i]
    if not t.up[i]:
        return f"the face-down card at ({r}, {c})"
    return f"{t.cards[i]} at ({r}, {c})"


def favor_words(t: Table, vec: list[int]) -> str:
    parts = [f"{n} {t.g.cat.factions[f]}" for f, n in enumerate(vec) if n]
    return ", ".join(parts) if parts else "nothing"


Mark = tuple[int, int]


def mark(t: Table) -> Mark:
    """Where the next step of the entry being written goes (for ``say(..., at=)``)."""
    if t.entry is None:
        t.entry = {"seq": t.seq + 1, "seat": None, "action": None, "steps": []}
    return (id(t.entry), len(t.entry["steps"]))


def say(t: Table, rule: str, target: int | None, text: str, at: Mark | None = None) -> None:
    """A script line runs (H.6 ``automa``), with a sentence for people (P-29). With
    ``at`` (a ``mark`` taken before the line's effects) the sentence goes before them."""
    step = {
        "step": "automa",
        "seat": t.g.players - 1,
        "rule": rule,
        "target": None if target is None else t.ref_json(target),
        "text": f"{name(t)} {text}",
    }
    if at is not None and t.entry is not None and id(t.entry) == at[0]:
        t.entry["steps"].insert(at[1], step)
    else:
        t.step("automa", **{k: v for k, v in step.items() if k != "step"})


# --- the token (R55, 14.7.7, 14.7.8) -----------------------------------------------------


def move_token(t: Table, to: int) -> None:
    if t.token != to:
        t.token = to
        t.step("token", at=t.ref_json(to))


def token_check(t: Table, bot: int) -> None:
    """14.7.8: B on a map card without a bot disk moves to the card with the most bot
    disks (ties: reading order), or to the placard."""
    token = t.token
    assert token is not None
    if token == PLACARD or bot in t.slots[token]:
        return
    best = max(range(len(t.cards)), key=lambda i: (t.slots[i].count(bot), -i))
    to = best if t.slots[best].count(bot) else PLACARD
    say(t, "token", to, f"has no disk under its token: the token moves to {where(t, to)}")
    move_token(t, to)


def follow(t: Table, bot: int, target: int | None) -> None:
    """R55: after the action, the token moves to the final target if it holds a bot disk."""
    if target is not None and target != PLACARD and bot in t.slots[target]:
        move_token(t, target)


# --- the free bot actions (14.7) --------------------------------------------------------


def b_scout(t: Table, i: int) -> None:
    """14.7.1 (R51): turn the card face up where it lies."""
    card = t.cards[i]
    t.up[i] = True
    t.slots[i] = (None,) * len(t.g.cat.cards[card].slots)
    t.step("flip", card=card, pos=t.pos(i))
    flag_reveal(t, card)


def place(t: Table, bot: int, i: int) -> None:
    k = b.place_disk(t, bot, i)
    t.disks[bot] -= 1
    disk_step(t, bot, "supply", slot_ref(t, i, k))


def b_influence(t: Table, bot: int, i: int) -> str:
    """14.7.2 (R52): one free disk; AW's rider then pays for more (14.10.4). Returns the
    words for the log."""
    place(t, bot, i)
    paid = [0] * 6
    if bot_def(t).id == "AW":
        c = b.card(t, i)
        while b.usable(t, bot, i) > 0 and t.disks[bot] > 0:
            f = next((f for f in c.factions if t.favor[bot][f] > 0), None)
            if f is None:
                break
            t.favor[bot][f] -= 1
            t.pool[f] += 1
            t.step("favor", faction=t.g.cat.factions[f], n=1, **{"from": bot, "to": "pool"})
            paid[f] += 1
            place(t, bot, i)
    if not any(paid):
        return "1 free disk"
    return f"1 free disk, then {sum(paid)} more paying {favor_words(t, paid)} (its rider)"


def b_expel(t: Table, bot: int, i: int) -> str:
    """14.7.4: discard the target (face up, R26), put the PLAN card or the deck's top in
    its place, move the bot's disks onto it (those that do not fit go home)."""
    old = t.cards[i]
    if not t.up[i]:
        t.step("flip", card=old, pos=t.pos(i))
    mine = [k for k, s in enumerate(t.slots[i]) if s == bot]
    to_discard(t, old, at_map(t, i))
    if t.plan is not None:
        new, src = t.plan, ["plan"]
        t.plan = None
    else:
        drawn = draw(t)
        assert drawn is not None, "can_expel was checked"
        new, src = drawn, ["deck"]
    t.cards[i] = new
    t.up[i] = True
    t.slots[i] = (None,) * len(t.g.cat.cards[new].slots)
    move(t, new, src, at_map(t, i))
    flag_reveal(t, new)
    for k in mine:
        if None in t.slots[i]:
            k2 = b.place_disk(t, bot, i)
            disk_step(t, bot, slot_ref(t, i, k), slot_ref(t, i, k2))
        else:
            t.disks[bot] += 1
            disk_step(t, bot, slot_ref(t, i, k), "supply")
    return f"discards {old} and puts {new} in its place" + (
        " (its PLAN card)" if src == ["plan"] else " (from the deck)"
    )
