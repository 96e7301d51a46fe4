"""New Eleusis as text, for ``python -m engine.play eleusis`` (pure: strings in, strings
out). It renders only what a view holds, so the terminal shows a seat exactly what the
server would."""

from __future__ import annotations

from engine.core import JsonDict
from engine.eleusis.deck import parse_card
from engine.eleusis.faces import face_symbol


def sym(card: str | None) -> str:
    """``"Q♥"`` for ``"QH.1"`` (copy numbers are bookkeeping, NE-3.3)."""
    if card is None:
        return "??"
    return face_symbol(parse_card(card) // 6)


def cards(ids: list[str] | None) -> str:
    return " ".join(sym(c) for c in ids or []) or "-"


def describe_action(action: JsonDict) -> str:
    kind = action["type"]
    if "template" in action:
        return f"{kind}: {action.get('description', action['template'])}"
    if kind == "play":
        extra = "" if action.get("prophet", "no") == "no" else f" ({action['prophet']})"
        return f"play {cards(action['cards'])}{extra}"
    if kind == "no_play":
        return "declare no play"
    if kind == "call":
        card = f" naming {sym(action['card'])}" if action.get("card") else ""
        return f"call {action['verdict']}{card}"
    if kind == "choose_card":
        return f"place {sym(action['card'])}"
    if kind == "library_rule":
        return f"library rule {action.get('id') or action.get('difficulty')}"
    if kind == "set_rule":
        return "set a rule" if action.get("source") is None else f"set rule: {action['source']}"
    if kind == "set_prophecy":
        return "register a prophecy" if action.get("source") else "withdraw the prophecy"
    return kind.replace("_", " ")


def describe_event(event: JsonDict) -> str | None:
    kind = event["type"]
    if kind == "verdict":
        sd = " (sudden death)" if event["sudden_death"] else ""
        return f"{event['verdict']}{sd}, PC {event['pc']}"
    if kind == "approval":
        return "call approved" if event["approved"] else "call disapproved"
    if kind == "overthrow":
        return f"seat {event['seat']} is overthrown"
    if kind == "chosen":
        return f"{sym(event['card'])} is placed (by {event['by']})"
    if kind == "main":
        return f"main line + {cards(event['cards'])}"
    if kind == "side":
        return f"side line + {cards(event['cards'])}"
    if kind == "exhibit":
        return f"exhibit {cards(event['cards'])}"
    if kind == "draw":
        got = cards(event["cards"]) if event["cards"] is not None else f"{event['count']} cards"
        return f"seat {event['seat']} draws {got} ({event['reason']})"
    if kind == "expel":
        return f"seat {event['seat']} is expelled"
    if kind == "prophet":
        return f"seat {event['seat']} becomes prophet (m = {event['m']})"
    if kind == "round_end":
        return f"the round ends: {event['reason'].replace('_', ' ')}"
    if kind == "marker":
        return f"{event['color']} marker on {sym(event['card'])} ({event['count']})"
    if kind == "deck":
        return f"deck {event['deck']} added"
    return None


def describe_entry(entry: JsonDict) -> str:
    who = f"seat {entry['seat']}" if entry["seat"] is not None else "the house"
    by = "" if entry["by"] in ("human", "bot") else f" [{entry['by']}]"
    text = f"  {who}{by}: {describe_action(entry['action'])}"
    if entry.get("shown"):
        text += f" (shows {cards(entry['shown'])})"
    said = [d for d in (describe_event(e) for e in entry["events"]) if d]
    return text + ("; " + "; ".join(said) if said else "")


def render_view(view: JsonDict) -> str:
    """A seat's view in a few lines."""
    r = view["round"]
    dealer = "the house" if r["dealer"] is None else f"seat {r['dealer']}"
    lines = [
        f"--- Round {r['number']}/{view['rounds_planned']}, dealer {dealer}, phase {view['phase']},"
        f" PC {r['pc']}{', SUDDEN DEATH' if r['sudden_death'] else ''} ---"
    ]
    for hint in r["rule"]["hints"]:
        mark = "verified" if hint["verified"] else "unverified"
        lines.append(f"Hint ({mark}): {hint['text']}")
    main = []
    for i, m in enumerate(r["main"]):
        under = [p for p in r["side"] if p["under"] == i]
        wrong = "".join(f" [{cards(p['cards'])}]" for p in under)
        main.append(sym(m["card"]) + ("*" if m["starter"] else "") + wrong)
    lines.append("Main line (* starter, [wrong]): " + " ".join(main))
    if r["exhibits"]:
        lines.append("Exhibits: " + "; ".join(cards(x["cards"]) for x in r["exhibits"]))
    if r["prophet"]:
        lines.append(f"Prophet: seat {r['prophet']['seat']} (m = {r['prophet']['m']})")
    if r["pending"]:
        p = r["pending"]
        lines.append(f"Awaiting the call: seat {p['seat']} {p['kind']} {cards(p['cards'])}")
    counts = ", ".join(
        f"s{s['seat']}:{s['hand_count']}{' out' if s['expelled'] else ''}"
        for s in view["seats"]
        if s["hand_count"] is not None
    )
    lines.append(f"Hands: {counts}; stock {r['stock']}")
    if view["seat"] is not None:
        lines.append(f"Your hand (seat {view['seat']}): {cards(view['my_hand'])}")
    if view["dealer_secret"]:
        lines.append(f"Your rule: {view['dealer_secret']['source']}")
    return "\n".join(lines)


def parse_command(text: str) -> JsonDict | None:
    """Free-form input: ``play QH.1 3S.2 [declare|decide]``, ``no play``, ``rule SOURCE``
    (``rule! SOURCE`` confirms warnings), ``prophecy SOURCE`` or ``prophecy none``."""
    words = text.split()
    if not words:
        return None
    head = words[0].lower()
    if head == "play" and len(words) > 1:
        intent = {"declare": "declare", "decide": "decide_after"}.get(words[-1].lower(), "no")
        ids = words[1:-1] if intent != "no" else words[1:]
        return {"type": "play", "cards": [w.upper() for w in ids], "prophet": intent}
    if head == "no" and len(words) > 1 and words[1].lower() == "play":
        intent = "declare" if words[-1].lower() == "declare" else "no"
        return {"type": "no_play", "prophet": intent}
    if head in ("rule", "rule!") and len(words) > 1:
        source = text.split(None, 1)[1]
        return {"type": "set_rule", "source": source, "confirm_warnings": head == "rule!"}
    if head == "prophecy" and len(words) > 1:
        source = text.split(None, 1)[1]
        return {"type": "set_prophecy", "source": None if source == "none" else source}
    return None
