"""The automa of section 14: the four rule-scripted bots (SG, J2, AC, AW) as automatic
steps of the engine.

- ``base``: the automa's seat, frame and neighbours (14.4, 14.5), the log's ``automa``
  steps with a sentence a player can read, the token (R55, 14.7.8) and the bot versions
  of Scout, Influence (with AW's rider), Expel and Swap (14.7.1, 14.7.2, 14.7.4);
- ``favor``: the automa's favor choices, overturn and Conspire (14.6), B-Extort (14.7.3)
  and the favor it gains after losing an Oust as defender (14.7.6);
- ``oust``: B-Oust, the automa attacking (14.7.5);
- ``scripts``: the direction-priority scripts of SG and J2 (14.10.1, 14.10.2);
- ``plan``: PLAN and the scripts of AC and AW with the f-search (14.5.5, 14.10.3-14.10.5);
- ``turn``: the automa's Action phase program, its faction claim (14.8.2), its victory
  (14.9) and its Event Check (14.8.3).

This package imports nothing from ``phases`` or ``engine``: they call it.
"""
