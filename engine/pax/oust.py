"""Oust (7.6) with the sealed commitments of 15.2, and the bonus cube (7.7).

Each round the attacker commits a card, then the defender (with the Clergy passive, the
defender first, revealed at once: 7.6.5, 15.2.2). A commitment is logged as a ``commit``
step: ``SHA-256(game_id|oust_id|round|seat|card_id|nonce)`` (P-10); the reveal's ``oust``
step carries both nonces, so anyone can check the hashes. The sealed card stays in its
hand, and only its owner's view shows it (H.5.4, H.8).
"""

from __future__ import annotations

import hashlib
import hmac

from engine.core import JsonDict
from engine.pax import board as b
from engine.pax import favor as fv
from engine.pax.actions import (
    Problem,
    acting_problem,
    disk_step,
    flag_reveal,
    matching,
    parse_pos,
    parse_ref,
    slot_ref,
    start,
)
from engine.pax.automa.base import say
from engine.pax.automa.favor import defend_gain
from engine.pax.flow import Ctx, Proc
from engine.pax.piles import draw
from engine.pax.state import Oust, Table

CUBES = 4


def oust_problem(t: Table, a: JsonDict) -> Problem:
    seat = t.active
    acting = parse_ref(t, a["acting"])
    p = acting_problem(t, seat, acting)
    if p:
        return p
    assert acting is not None
    target = parse_pos(t, a["target"])
    if target is None or not t.up[target] or target not in b.ref_neighbours(t, seat, acting):
        return (
            "not_adjacent",
            "The Oust target must be a face-up card adjacent to the acting card (7.6.1).",
        )
    if a["by"] == "cube" and target not in t.cubes:
        return ("no_cube", "A follow-up Oust must target the cube's card (7.7.1, R31).")
    d = a["defender"]
    if type(d) is not int or d == seat or not 0 <= d < t.g.players or d not in t.slots[target]:
        return ("defender", "The defender must be another player with disks on the target (7.6.1).")
    k = a["k"]
    if type(k) is not int or not 1 <= k <= b.disks_on(t, d, target):
        return ("oust_k", "k must be 1 to the defender's disks on the target (7.6.1).")
    if not fv.can_pay(t, seat, oust_bill(t, a)):
        return ("cannot_pay", "You cannot pay for this Oust (7.6.2).")
    return None


def oust_bill(t: Table, a: JsonDict) -> fv.Bill:
    acting = parse_ref(t, a["acting"])
    assert acting is not None
    unit = matching(t, t.active, acting)
    if a["by"] == "faction":
        unit = tuple(sorted({*unit, b.CLE}))
    return fv.Bill([unit] * a["k"])


def commitment(t: Table, oust_id: int, rnd: int, seat: int, card: str | None) -> tuple[str, str]:
    """15.2.1 (P-10): the nonce (secret until the reveal) and the hash."""
    nonce = hmac.new(
        t.g.seed.encode(), f"oust-nonce/{oust_id}/{rnd}/{seat}".encode(), hashlib.sha256
    ).hexdigest()
    text = "|".join(
        [t.g.setup.commitment, str(oust_id), str(rnd), str(seat), card or "none", nonce]
    )
    return nonce, hashlib.sha256(text.encode()).hexdigest()


def commit(t: Table, ctx: Ctx, seat: int) -> Proc[str | None]:
    o = t.oust
    assert o is not None
    hand = t.hands[seat]
    options: list[JsonDict] = (
        [{"type": "oust_card", "card": c} for c in dict.fromkeys(hand)]
        if hand
        else [{"type": "oust_card", "card": None}]
    )
    ans = yield from ctx.ask(seat, "oust_card", options)
    card = ans["card"]
    o.sealed.append((seat, card))
    _, digest = commitment(t, o.ident, o.round, seat, card)
    t.step("commit", seat=seat, round=o.round, hash=digest)
    return card


def choose(t: Table, ctx: Ctx, seat: int) -> Proc[str | None]:
    """A side's card for this round: a human commits one (15.2.1); the automa's is the
    top of the luminary deck, turned when its turn to choose comes (14.7.5, 14.7.6,
    15.2.3, R81), or no card when none can be drawn."""
    if seat >= t.g.humans:
        card = draw(t)
        o = t.oust
        assert o is not None
        if seat == o.defender:
            say(
                t, "defend", o.target, f"turns {card or 'no card'} from the deck in round {o.round}"
            )
        return card
    return (yield from commit(t, ctx, seat))


def nonce(t: Table, seat: int, card: str | None) -> str | None:
    """The reveal's nonce of a side; the automa commits nothing (P-36)."""
    o = t.oust
    assert o is not None
    return None if seat >= t.g.humans else commitment(t, o.ident, o.round, seat, card)[0]


def reveal(t: Table, seat: int, card: str | None) -> None:
    o = t.oust
    assert o is not None
    o.sealed = [s for s in o.sealed if s[0] != seat]
    if card is None:
        return
    if seat >= t.g.humans:
        src: list[object] = ["deck"]
    else:
        t.hands[seat].remove(card)
        src = ["hand", seat]
    t.oust_played.append((seat, card))
    t.step("move", card=card, **{"from": src, "to": ["oust"]})
    flag_reveal(t, card)
    side = 0 if seat == o.attacker else 1
    strength = t.g.cat.cards[card].strength
    if isinstance(strength, int):
        o.sums[side] += strength
    elif (
        (strength == "DAGGER" and o.favoured is not None and o.favoured != seat)
        or (strength == "HAMMER" and o.favoured == seat)
    ) and seat not in o.autowin:
        o.autowin.append(seat)


def do_oust(t: Table, ctx: Ctx, a: JsonDict) -> Proc[None]:
    seat = t.active
    target = parse_pos(t, a["target"])
    acting = parse_ref(t, a["acting"])
    assert target is not None
    assert acting is not None
    d = a["defender"]
    bill = oust_bill(t, a)
    start(t, a, target)
    yield from fv.pay(t, ctx, seat, bill)
    init = [b.init_strength(t, seat, target), b.init_strength(t, d, target)]
    if a["by"] == "scheme":
        ans = yield from ctx.ask(
            seat, "strength", [{"type": "strength", "delta": x} for x in (-1, 0, 1)]
        )
        if ans["delta"]:
            init[0] = init[1] + ans["delta"]
    favoured = None
    if "G09" not in t.turn.buffs and init[0] != init[1]:
        favoured = seat if init[0] > init[1] else d
    t.oust = Oust(seat, d, acting, target, a["k"], 1, init, favoured, [0, 0], [], [], t.seq)
    o = t.oust
    clergy = fv.passive(t, b.CLE)
    yielded = False
    while True:
        if clergy:
            dc = yield from choose(t, ctx, d)
            reveal(t, d, dc)
            ac = yield from commit(t, ctx, seat)
            reveal(t, seat, ac)
        else:
            ac = yield from commit(t, ctx, seat)
            dc = yield from choose(t, ctx, d)
            reveal(t, seat, ac)
            reveal(t, d, dc)
        nonces = [nonce(t, seat, ac), nonce(t, d, dc)]
        t.step("oust", round=o.round, cards=[ac, dc], nonces=nonces)
        choices = (["continue"] if t.hands[seat] else []) + ["call", "yield"]
        ans = yield from ctx.ask(
            seat, "oust_next", [{"type": "oust_next", "choice": c} for c in choices]
        )
        if ans["choice"] == "continue":
            o.round += 1
            continue
        yielded = ans["choice"] == "yield"
        break
    winner = winner_of(o, yielded)
    t.step("oust_end", winner=winner)
    t.oust = None
    if winner != seat:
        return
    for _ in range(a["k"]):
        k = b.remove_disk(t, d, target)
        t.disks[d] += 1
        disk_step(t, d, slot_ref(t, target, k), "supply")
    if d >= t.g.humans:
        defend_gain(t, d, target, a["k"])  # 14.7.6
    else:
        yield from fv.gain_any(t, ctx, d, a["k"])
    if len(t.cubes) < CUBES:
        t.cubes.append(target)
        t.step("cube", pos=t.pos(target), on=True)


def winner_of(o: Oust, yielded: bool) -> int:
    """7.6.6 and R29: one auto-win wins; two cancel; else the attacker needs more."""
    if yielded:
        return o.defender
    if len(o.autowin) == 1:
        return o.autowin[0]
    total_a = o.init[0] + o.sums[0]
    total_d = o.init[1] + o.sums[1]
    return o.attacker if total_a > total_d else o.defender
