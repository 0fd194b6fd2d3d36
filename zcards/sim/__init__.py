"""The game simulator: legal automated games of Zombie CCG, their Lackey logs and a balance report.

``play_game`` plays one seeded game; ``recorder`` writes it as one player's Lackey log, in a
recording style from ``styles``. The violation mutators that test the audit against these
logs are test code (``tests/support/``), not part of the product.
"""
