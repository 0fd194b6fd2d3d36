"""Linter check for placeholder addresses: a plugin whose URLs sit on a reserved example domain
(RFC 2606 / RFC 6761: example.com/.org/.net, *.example, *.invalid, *.test, localhost) cannot be
installed or updated by anyone. Exports without a base URL use such a placeholder on purpose,
for local testing; lint says so, and ``--strict`` makes it fail."""

from __future__ import annotations

import re

from lackey_plugin.lint_base import WARNING, Plugin, read_text

PLACEHOLDER_URL = "placeholder-url"  # the finding's code
RESERVED_DOMAINS = ("example.com", "example.org", "example.net")
RESERVED_TOP_LEVEL = ("example", "invalid", "test", "localhost")
_URL_HOST = re.compile(r"\bhttps?://(?:[^/\s@]*@)?([^/\s:?#<>\"']+)", re.IGNORECASE)


def is_placeholder_host(host: str) -> bool:
    """True for a host on a domain reserved for examples and testing."""
    name = host.lower().rstrip(".")
    top = name.rsplit(".", 1)[-1]
    return top in RESERVED_TOP_LEVEL or any(
        name == domain or name.endswith("." + domain) for domain in RESERVED_DOMAINS
    )


def check_placeholder_urls(plugin: Plugin) -> None:
    """One warning per top-level text file (updatelist.txt, version.txt, ...) that points at
    a placeholder host, on the first line that does."""
    for path in sorted(plugin.root.glob("*.txt")):
        first_line, count, hosts = 0, 0, set[str]()
        for number, line in enumerate(read_text(path).splitlines(), start=1):
            found = [host for host in _URL_HOST.findall(line) if is_placeholder_host(host)]
            if found:
                first_line = first_line or number
                hosts.update(host.lower() for host in found)
                count += len(found)
        if count:
            plugin.add(
                WARNING,
                PLACEHOLDER_URL,
                f"{count} URL(s) on the reserved example domain {', '.join(sorted(hosts))}: "
                "nobody can download from it (export with the address you publish at)",
                path.name,
                first_line,
            )
