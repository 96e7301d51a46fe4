"""Pax Illuminaten as text, from a seat's view only (for ``python -m engine.play pax``).

``render_view(view)`` draws the map (two lines a card, rows offset by half a card as on
the table, 2.3.1), the placards, the players, the Court, plots and the decision;
``describe_action`` and ``describe_entry`` say an action and a log entry in one line.
"""

from __future__ import annotations

from typing import Any

from engine.core import JsonDict
from engine.pax.loader import data as packaged_data

CELL = 12
"""Characters a map card takes; a column step (c + 1) is half of it."""


def _short(card_id: str | None) -> str:
    """A face-up luminary in a few characters: factions and rank."""
    if card_id is None:
        return "?"
    lum = packaged_data().luminaries[card_id]
    return f"{'/'.join(lum.factions)} {lum.rank}"


def _slots(slots: list[Any]) -> str:
    return "".join("." if s is None else str(s) for s in slots)


def _ref(ref: Any) -> str:
    return "placard" if ref == "placard" else f"({ref[0]},{ref[1]})"


def draw_map(view: JsonDict) -> list[str]:
    """The map: each card as ``[NOB/SCH II ]`` over its slots (seat digits, ``.`` open);
    ``?`` a face-down card, ``*`` a cube, ``<s>`` the placard of seat s."""
    st = view["state"]
    cubes = {tuple(p) for p in st["cubes"]}
    cells: dict[tuple[int, int], tuple[str, str]] = {}
    for m in st["map"]:
        r, c = m["pos"]
        mark = "*" if (r, c) in cubes else " "
        if m["face_up"]:
            cells[(r, c)] = (f"[{_short(m['card']):<9}]{mark}", f" {_slots(m['slots']):<10}")
        else:
            cells[(r, c)] = (f"[    ??   ]{mark}", "")
    for s in view["seats"]:
        r, c = s["placard"]
        cells[(r, c)] = (f"  <seat {s['seat']}>", f"  {s['contact']}")
    rows = sorted({r for r, _ in cells})
    low = min(c for _, c in cells)
    lines = []
    for r in rows:
        top = bottom = ""
        for (rr, c), (a, b) in sorted(cells.items(), key=lambda x: x[0][1]):
            if rr != r:
                continue
            at = (c - low) * CELL // 2
            top = top.ljust(at) + a
            bottom = bottom.ljust(at) + b
        lines += [f"r{r:<2} {top}".rstrip(), f"    {bottom}".rstrip()]
    return lines


def _favor(f: JsonDict) -> str:
    return " ".join(f"{k}{v}" for k, v in f.items() if v) or "none"


def render_view(view: JsonDict) -> str:
    """A seat's view as text: the table as it may see it, then its decision."""
    st = view["state"]
    me = view["seat"]
    lines = [
        f"--- Round {st['round']}, seat {st['active_seat']}'s turn, phase {st['phase']};"
        f" edicts discarded {st['edicts_discarded']}/5"
        + (" (final round)" if st["final_round"] else "")
        + " ---",
        *draw_map(view),
        f"Pool: {_favor(st['pool'])}",
    ]
    holders: dict[int | None, list[str]] = {fc["holder"]: [] for fc in st["faction_cards"]}
    for fc in st["faction_cards"]:
        holders[fc["holder"]].append(fc["card"])
    claims: dict[int, list[str]] = {}
    for plot, c in st["claims"].items():
        for s in c["on"]:
            claims.setdefault(s, []).append(plot)
    scores = view["derived"]["scores"]
    for p in st["players"]:
        s = p["seat"]
        hand = " ".join(p["hand"]) if isinstance(p["hand"], list) else f"{p['hand']} cards"
        plot = p["plot"] or "hidden"
        lines.append(
            f"Seat {s}{' (you)' if s == me else ''}: favor {_favor(p['favor'])}; disks"
            f" {p['disks']}; hand {hand}; plot {plot}; claims {claims.get(s, [])};"
            f" faction cards {holders.get(s, [])}; score now {scores[str(s)]}"
            + (f"; active event {p['active_event']}" if p["active_event"] else "")
        )
    court = [
        f"{c}{'(C)' if i == st['chamberlain'] else ''}" for i, c in enumerate(st["court"]) if c
    ]
    lines += [
        f"Court: {' '.join(court)}; display: {holders.get(None, [])};"
        f" public plots: {' '.join(st['public_plots'])}",
        "Face-up cards: "
        + "; ".join(
            f"{_ref(m['pos'])} {m['card']} {_short(m['card'])}" for m in st["map"] if m["face_up"]
        ),
    ]
    largest = {f: s for f, s in view["derived"]["largest_lodge"].items() if s is not None}
    if largest:
        lines.append(f"Largest lodges controlled: {largest}")
    met = [x["plot"] for x in view["derived"]["plots_met"]]
    if met:
        lines.append(f"Plots you meet now: {' '.join(met)}")
    if st["oust"] is not None:
        o = st["oust"]
        lines.append(
            f"Oust: seat {o['attacker']} against seat {o['defender']} on {_ref(o['target'])},"
            f" round {o['round']}, strength {o['init']}, sums {o['sums']},"
            f" favoured {o['favoured']}, auto-wins {o['autowin']}"
        )
    if st["pending"] and st["pending"][-1]["seat"] == me:
        p = st["pending"][-1]
        extra = f" {view['decision']}" if view["decision"] else ""
        cards = f" cards {p['cards']}" if p["cards"] else ""
        lines.append(f"Your decision: {p['kind']}{cards}{extra}")
    return "\n".join(lines)


def describe_action(action: JsonDict) -> str:
    """An action in one line: its type, then its keys."""
    parts = [str(action.get("type"))]
    for key, value in action.items():
        if key == "type":
            continue
        if isinstance(value, list) and len(value) == 2 and all(isinstance(x, int) for x in value):
            value = _ref(value)
        parts.append(f"{key}={value}")
    return " ".join(parts)


def describe_entry(entry: JsonDict) -> list[str]:
    """A log entry (H.6) as lines: the action taken and the steps worth telling."""
    out = []
    if entry["action"] is not None:
        out.append(f"  seat {entry['seat']}: {describe_action(entry['action'])}")
    for st in entry["steps"]:
        kind = st["step"]
        if kind == "turn":
            out.append(f"Round {st['round']}: seat {st['seat']}'s turn")
        elif kind == "flip" or (kind == "move" and st.get("to", [None])[0] == "map"):
            out.append(f"    {st.get('card', '?')} face up at {st.get('pos') or st['to'][1:]}")
        elif kind == "oust":
            out.append(f"    Oust round {st['round']}: cards {st['cards']}")
        elif kind == "oust_end":
            out.append(f"    the Oust goes to seat {st['winner']}")
        elif kind == "end":
            res = st["result"]
            out.append(
                f"Game over ({res['reason']}): winners {res['winner_seats']},"
                f" scores {res['scores']}"
            )
    return out
