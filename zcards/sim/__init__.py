"""The game simulator: legal automated games of Zombie CCG, their Lackey logs and a balance report.

``play_game`` plays one seeded game; ``recorder`` writes it as one player's Lackey log;
``mutators`` inject one rule violation into a legal log to test the audit.
"""
