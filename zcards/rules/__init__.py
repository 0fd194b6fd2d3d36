"""The Zombie CCG rules engine: replay a recorded game and report every rule violation."""

from zcards.game.catalogue import KINDS, VIOLATION_KINDS, Kind
from zcards.rules.engine import audit
from zcards.rules.report import AuditReport, Finding

__all__ = ["KINDS", "VIOLATION_KINDS", "AuditReport", "Finding", "Kind", "audit"]
