"""The actions of NE-31.2 and their form (E36, E37).

:func:`normalise` checks an action's form only (type, fields, field types) and writes it
out with every optional field (``"prophet": "no"`` by default), as the record logs it
(NE-29.3.5). It never looks at the state, so a refusal here cannot depend on the rule
(NE-28.3). Malformed actions are refused with ``bad_action`` (E37).
"""

from __future__ import annotations

from typing import Any

from engine.core import IllegalAction, JsonDict
from engine.eleusis.state import DIFFICULTIES, PROPHET_INTENTS

MAX_PLAY = 4
MAX_FREE_HINT = 500
"""Our ruling OR17: a free-text hint has at most 500 characters."""

_ABSENT = object()

# type -> {field: (kind, default or _ABSENT for required)}
_FIELDS: dict[str, dict[str, tuple[str, Any]]] = {
    "set_rule": {
        "source": ("str", _ABSENT),
        "hints": ("hints", []),
        "free_hint": ("str?", None),
        "no_play_choice": ("choice", "random"),
        "confirm_warnings": ("bool", False),
    },
    "library_rule": {
        "difficulty": ("difficulty?", _ABSENT),
        "id": ("str?", _ABSENT),
        "hints": ("hints", []),
        "no_play_choice": ("choice", "random"),
        "confirm_warnings": ("bool", False),
    },
    "choose_card": {"card": ("str", _ABSENT)},
    "play": {"cards": ("cards", _ABSENT), "prophet": ("intent", "no")},
    "no_play": {"prophet": ("intent", "no")},
    "declare_prophet": {},
    "pass": {},
    "call": {"verdict": ("verdict", _ABSENT), "card": ("str?", _ABSENT)},
    "set_prophecy": {"source": ("str?", _ABSENT)},
    "propose_end": {},
    "agree_end": {},
}
ACTION_TYPES = tuple(_FIELDS)


def _bad(message: str) -> IllegalAction:
    return IllegalAction("bad_action", message)


def _check(kind: str, name: str, value: Any) -> Any:
    if kind == "str":
        if not isinstance(value, str):
            raise _bad(f"'{name}' must be a string.")
    elif kind == "str?":
        if value is not None and not isinstance(value, str):
            raise _bad(f"'{name}' must be a string or null.")
    elif kind == "bool":
        if not isinstance(value, bool):
            raise _bad(f"'{name}' must be true or false.")
    elif kind == "choice":
        if value not in ("random", "choose"):
            raise _bad('\'no_play_choice\' is "random" or "choose" (NE-9.3, E15).')
    elif kind == "intent":
        if value not in PROPHET_INTENTS:
            raise _bad('\'prophet\' is "no", "declare" or "decide_after" (NE-26.2).')
    elif kind == "difficulty?":
        if value is not None and value not in DIFFICULTIES:
            raise _bad(f"'difficulty' is one of {', '.join(DIFFICULTIES)} (NE-30.4).")
    elif kind == "verdict":
        if value not in ("right", "wrong", "correct", None):
            raise _bad('\'verdict\' is "right", "wrong" or "correct" (NE-26.3).')
    elif kind == "cards":
        if not isinstance(value, list) or not all(isinstance(c, str) for c in value):
            raise _bad("'cards' must be a list of card ids such as \"QH.1\".")
        if not 1 <= len(value) <= MAX_PLAY:
            raise _bad(
                f"A play is one card or a string of 2 to {MAX_PLAY} cards (NE-7.2), "
                f"not {len(value)} (E37)."
            )
        return list(value)
    elif kind == "hints":
        if not isinstance(value, list):
            raise _bad('\'hints\' must be a list of hints such as {"id": "H4"} (E36).')
        out = []
        for hint in value:
            if (
                not isinstance(hint, dict)
                or not isinstance(hint.get("id"), str)
                or set(hint) - {"id", "k", "p"}
                or any(
                    not isinstance(hint[key], int) or isinstance(hint[key], bool)
                    for key in ("k", "p")
                    if key in hint
                )
            ):
                raise _bad(f'{hint!r} is not a hint such as {{"id": "H5", "k": 1}} (E36).')
            out.append(dict(hint))
        return out
    return value


def normalise(action: Any) -> JsonDict:
    """The action with every field written out, or ``bad_action`` (E37)."""
    if not isinstance(action, dict):
        raise _bad("An action is a JSON object with a 'type'.")
    kind = action.get("type")
    if kind not in _FIELDS:
        raise _bad(f"Unknown action type {kind!r} (known: {', '.join(ACTION_TYPES)}).")
    spec = _FIELDS[kind]
    extra = sorted(set(action) - set(spec) - {"type"})
    if extra:
        raise _bad(f"A {kind} action has no field {', '.join(repr(e) for e in extra)} (E37).")
    out: JsonDict = {"type": kind}
    for name, (field_kind, default) in spec.items():
        if name in action:
            out[name] = _check(field_kind, name, action[name])
        elif default is _ABSENT:
            if kind == "library_rule" or (kind == "call" and name == "card"):
                continue
            raise _bad(f"A {kind} action needs '{name}' (E37).")
        else:
            out[name] = list(default) if isinstance(default, list) else default
    if kind == "library_rule" and (("difficulty" in out) == ("id" in out)):
        raise _bad("A library_rule action names either a 'difficulty' or an 'id' (NE-31.2).")
    if kind == "library_rule" and (out.get("difficulty", "") is None or out.get("id", "") is None):
        raise _bad("A library_rule action's 'difficulty' or 'id' cannot be null.")
    if (
        kind == "set_rule"
        and out["free_hint"] is not None
        and len(out["free_hint"]) > MAX_FREE_HINT
    ):
        raise _bad(f"A free-text hint has at most {MAX_FREE_HINT} characters (OR17).")
    if kind == "call" and "card" in out and out["card"] is None:
        del out["card"]
    return out
