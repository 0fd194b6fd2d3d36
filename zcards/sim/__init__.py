"""The game simulator: legal automated games of Zombie CCG, their Lackey logs and a balance report.

``play_game`` plays one seeded game; ``recorder`` writes it as one player's Lackey log, in a
recording style from ``styles``. The fault injectors in ``tests/support/faults`` plant violations in
those logs, one rule at a time, to measure what the audit catches (its tests and
``scripts/detection_rates.py``).
"""
