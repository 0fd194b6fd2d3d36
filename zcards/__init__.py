"""zcards: the Zombie CCG toolkit (card database, Lackey plugin, proxies, queries, audits)."""

__version__ = "0.1.0"
