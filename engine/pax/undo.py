"""15.5.2: which atomic action a seat may take back (docs/pax.md, P-79 and P-80).

"Allow undo only back to the last point where hidden information was revealed. A draw,
a Scout, an Expel of a face-down card, an Oust reveal and an event draw each close the
undo window." Every call of ``apply`` writes one log entry (H.6) with the steps the
engine took after it; an entry closes the window when one of its steps shows a card
somebody did not know:

- ``seen`` (a scouted card, drawn events or plot, a hand seen through S03), ``flip``
  (a face-down map card turned face up: the Scout's card kept in place, an Expel of a
  face-down card), ``oust`` (an Oust round revealed), ``commit`` (a sealed Oust card,
  which 15.2 forbids to change), ``reshuffle``;
- a ``move`` out of a deck (``deck``, ``event_deck``, ``plot_deck``: a draw, the Court
  refilled, the automa's card) or naming a card only some seats may see (``private``);
- and, conservatively, any step this list does not know (``turn``, ``end``, the
  automa's lines): only the steps known to show nothing hidden keep the window open.

A card the acting seat puts down from its own hand (the card an Expel or a Scout puts
on the map, a scheme played) shows the others that card but teaches the seat nothing:
15.5.2 names an Expel of a *face-down* card, so such an action stays undoable.

Only the active player's own last action in their own turn, while they are still the
seat to act, may be taken back: a move by another seat (the defender's Oust card or
favor choice), an automatic step and the end of the turn have their own entries
(``seat`` another, or null), which are never undoable; who made a move (the player, a
bot, the autopilot) is the server's to check (its move log), not the engine's.
"""

from __future__ import annotations

from typing import Any

from engine.core import JsonDict
from engine.pax.engine import to_act
from engine.pax.state import State

# Steps that never show a card somebody did not know (H.6): favor and disks moving,
# cubes, the Chamberlain, and the end of an Oust already revealed.
QUIET_STEPS = frozenset({"favor", "disk", "cube", "chamberlain", "oust_end", "move"})
# Places a card can leave only by being drawn (H.6's places).
DECKS = frozenset({"deck", "event_deck", "plot_deck"})


def step_reveals(step: JsonDict) -> bool:
    """Whether one H.6 step shows a card somebody did not know (15.5.2)."""
    kind = step.get("step")
    if kind not in QUIET_STEPS:
        return True
    if kind == "move":
        source: Any = step.get("from")
        if "private" in step:
            return True
        if isinstance(source, list) and source and source[0] in DECKS:
            return True
    return False


def entry_reveals(entry: JsonDict) -> bool:
    """Whether a log entry (one ``apply`` or ``advance``) closes the undo window."""
    return any(step_reveals(step) for step in entry["steps"])


def undoable(state: State, seat: int) -> bool:
    """Whether ``seat`` may take back the last atomic action (15.5.2, P-79): the game
    goes on, ``seat`` is the active player and the seat to act, the log's last entry is
    its own action, and that action showed nothing hidden."""
    if state.result is not None or not state.log:
        return False
    if seat != state.active or to_act(state) != seat:
        return False
    entry = state.log[-1]
    if entry["seat"] != seat or entry["action"] is None:
        return False
    return not entry_reveals(entry)
