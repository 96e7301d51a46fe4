"""Seat bots for Pax Illuminaten that read only their seat's view (issue 23 item 4).

- ``model``: a full state sampled from a view (P-50);
- ``evaluate``: the static value of a table for a seat (P-51);
- ``policy``: the small decisions inside an action;
- ``sim``: playing an action out on the model (P-52);
- ``heuristic``: the ``heuristic`` bot (P-53);
- ``search``: the ``search`` bot, determinized sampling and evaluation (P-54).
"""
