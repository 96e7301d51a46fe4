"""The invariants of 16.3, checked on any state (tests run them after every step).

``problems(state)`` lists every broken invariant as a sentence; [] when all hold. Beyond
16.3's eight it checks that event cards and plot cards are conserved too.
"""

from __future__ import annotations

from collections import Counter

from engine.pax.state import State

COURT = 5
CUBES = 4
DISKS = 20


def problems(state: State) -> list[str]:
    out: list[str] = []
    g = state.g
    cat = g.cat
    setup_amount = cat.data.by_players[g.players].pool_favor
    # 1. favor
    for f, code in enumerate(cat.factions):
        total = state.pool[f] + sum(p[f] for p in state.favor)
        total += sum(n for es in state.edicts for c, n in es if cat.edict_faction[c] == f)
        if total != setup_amount:
            out.append(f"16.3.1: {code} totals {total}, not {setup_amount}")
        if state.pool[f] < 0 or any(p[f] < 0 for p in state.favor):
            out.append(f"16.3.1: negative {code} favor")
    # 2. disks
    plots = Counter(s for _, seats in (*state.claims_on, *state.claims_under) for s in seats)
    for s in range(g.players):
        on_map = sum(sl.count(s) for sl in state.slots)
        total = state.disks[s] + on_map + plots[s]
        if total != DISKS or state.disks[s] < 0:
            out.append(f"16.3.2: seat {s} has {total} disks in all")
    # 3. each luminary in exactly one place
    places = Counter(state.cards)
    places.update(c for c in state.court if c is not None)
    places.update(state.deck)
    places.update(state.discard)
    for hand in state.hands:
        places.update(hand)
    places.update(c for c, _ in state.schemes)
    places.update(c for _, c in state.oust_played)
    if state.plan is not None:
        places[state.plan] += 1
    if set(places) != set(cat.cards) or any(n != 1 for n in places.values()):
        wrong = sorted(c for c in cat.cards if places[c] != 1)
        out.append(f"16.3.3: luminaries not in exactly one place: {wrong[:5]}")
    # 4-6. map positions, slots, Crowns, face-down cards
    if len(state.cards) != len(g.positions):
        out.append("16.3.4: a map position without a card")
    for i, card in enumerate(state.cards):
        sl = state.slots[i]
        if not state.up[i]:
            if sl:
                out.append(f"16.3.6: face-down {card} holds disks")
            continue
        if len(sl) != len(cat.cards[card].slots):
            out.append(f"16.3.4: {card} has {len(sl)} slots")
        owners = {s for s in sl if s is not None}
        if cat.cards[card].rank == "K" and len(owners) > 1:
            out.append(f"16.3.5: Crown {card} holds disks of {sorted(owners)}")
    # 7-8. Court and cubes
    if len(state.court) > COURT:
        out.append("16.3.7: the Court has more than 5 cards")
    if len(state.cubes) > CUBES:
        out.append("16.3.8: more than 4 cubes on the map")
    # events and plots are conserved
    events = Counter(state.event_deck)
    events.update(state.event_discard)
    events.update(state.event_box)
    for s in range(g.players):
        events.update(state.events[s])
        events.update(c for c, _ in state.edicts[s])
        active = state.active_event[s]
        if active is not None:
            events[active] += 1
    expected = set(cat.data.edicts) | set(cat.data.specials)
    if set(events) != expected or any(n != 1 for n in events.values()):
        out.append("events: an event card is lost or doubled")
    plot_cards = Counter(state.public_plots)
    plot_cards.update(state.plot_deck)
    plot_cards.update(p for p in state.plot if p is not None)
    if set(plot_cards) != set(cat.data.plots) or any(n != 1 for n in plot_cards.values()):
        out.append("plots: a plot card is lost or doubled")
    return out
