"""Test-only helpers shared by the tests and the benchmark scripts (never imported by the
product): violation mutators that turn a legal simulated log into one that breaks one rule.

The scripts put ``tests/`` on ``sys.path`` to import this package.
"""
