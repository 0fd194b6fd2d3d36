"""What a source is and what its server said, without an HTTP library: a local import or a
plugin check of files on disk loads no ``requests`` (a third of a quick command's start-up).
:mod:`lackey_plugin.fetch` downloads, and offers these names too."""

from __future__ import annotations

from dataclasses import dataclass


def is_url(source: str) -> bool:
    return source.lower().startswith(("http://", "https://"))


@dataclass(frozen=True)
class Validators:
    """What the server told us last time, sent back to ask "has it changed?"."""

    etag: str | None = None
    last_modified: str | None = None
