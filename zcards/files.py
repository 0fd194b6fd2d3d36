"""Atomic file writes for zcards' outputs: the one implementation lives in
:mod:`lackey_plugin.files` (the lower layer), so game logs and every other output share it."""

from __future__ import annotations

from lackey_plugin.files import atomic_text, atomic_write, current_umask

__all__ = ["atomic_text", "atomic_write", "current_umask"]
