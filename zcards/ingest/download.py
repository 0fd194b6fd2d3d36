"""zcards' downloads: :class:`lackey_plugin.fetch.Fetcher` (timeouts, a deadline, size caps),
introducing itself as zcards to the servers it asks."""

from __future__ import annotations

from typing import Any

from lackey_plugin.fetch import Fetcher
from zcards.version import __version__

USER_AGENT = f"zcards/{__version__} (Zombie CCG card importer; python-requests)"


def zcards_fetcher(**limits: Any) -> Fetcher:
    """A :class:`Fetcher` with zcards' user agent; ``limits`` are the Fetcher's options."""
    return Fetcher(user_agent=USER_AGENT, **limits)
