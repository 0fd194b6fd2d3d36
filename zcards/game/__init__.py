"""The game itself: Zombie CCG's vocabulary (phases, zones, stats, card functions) that the
plugin exporter, the log parser, the audit and the simulator all name things by."""
