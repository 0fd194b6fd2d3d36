"""LackeyCCG game logs: typed events, a tolerant parser and a writer that round-trips.

The line wording is data (``templates.toml``), shared by parser and writer; events are frozen
dataclasses (``events.py``). See docs/log-protocol.md for how a Zombie CCG game is recorded.
"""
