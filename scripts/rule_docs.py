"""Regenerate the documentation the rule catalogue (``zcards/game/catalogue.py``) owns.

* ``docs/rules.md``: the table of violation kinds at its end;
* ``docs/audit.md``: the table of checks (where each kind is reported) and the quote of each
  rule a finding cites;
* ``docs/audit-schema.json``: the enum of violation kinds and the list of warning topics.

The tables sit between ``<!-- catalogue: NAME -->`` and ``<!-- /catalogue -->`` markers.
``tests/test_rule_docs.py`` fails while any of them is out of date.

Usage: ``python scripts/rule_docs.py --write`` (rewrite them) or ``--check`` (exit 1 and name
the stale files).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

from zcards.game.catalogue import RULE_TEXTS, TOPICS, VIOLATION_KINDS

ROOT = Path(__file__).resolve().parents[1]
RULES_MD = ROOT / "docs" / "rules.md"
AUDIT_MD = ROOT / "docs" / "audit.md"
SCHEMA = ROOT / "docs" / "audit-schema.json"
_KIND_ENUM = re.compile(r'("kind": \{"enum": )\[[^\]]*\]')
_WARNINGS = re.compile(r'("warnings": \{"description": )"(?:[^"\\\\]|\\\\.)*"')
_RULE = re.compile(r"^- \*\*(R\d+\.\d+)\b(.*?)(?=^- \*\*R|^#|\Z)", re.M | re.S)
_BLOCK = re.compile(r"(<!-- catalogue: (?P<name>[a-z-]+) -->\n).*?(<!-- /catalogue -->)", re.S)


def kinds_table() -> str:
    rows = [f"| `{e.kind}` | {e.rule} | {e.text} |" for e in VIOLATION_KINDS]
    return "\n".join(["| id | rule | what |", "|---|---|---|", *rows]) + "\n"


def checks_table() -> str:
    rows = [f"| `{e.kind}` | {', '.join(e.rules)} | {e.reported_at} |" for e in VIOLATION_KINDS]
    return "\n".join(["| id | rule | reported at |", "|---|---|---|", *rows]) + "\n"


def quotes_table() -> str:
    rows = [f"| {rule} | {text} |" for rule, text in RULE_TEXTS.items()]
    return "\n".join(["| rule | quoted as |", "|---|---|", *rows]) + "\n"


def rule_paragraphs() -> dict[str, str]:
    """Each numbered rule of ``docs/rules.md`` as plain text (emphasis and line breaks gone),
    its title included: what a quote of the catalogue must be part of."""
    text = RULES_MD.read_text(encoding="utf-8")
    return {number: " ".join(body.replace("*", "").split()) for number, body in _RULE.findall(text)}


TABLES = {"kinds": kinds_table, "checks": checks_table, "quotes": quotes_table}


def fill(text: str) -> str:
    """``text`` with every catalogue block replaced by its table."""
    return _BLOCK.sub(lambda m: m.group(1) + TABLES[m.group("name")]() + m.group(3), text)


def schema(text: str) -> str:
    """The schema with the catalogue's kinds and topics (the file keeps its own layout: one
    property per line)."""
    kinds = json.dumps([str(entry.kind) for entry in VIOLATION_KINDS])
    topics = ", ".join(f"`{topic}` ({why})" for topic, why in TOPICS.items())
    warnings = json.dumps(f"Oddities that are not violations; `kind` is a topic: {topics}.")
    text = _KIND_ENUM.sub(lambda m: m.group(1) + kinds, text)
    text = _WARNINGS.sub(lambda m: m.group(1) + warnings, text)
    json.loads(text)  # still JSON
    return text


def generated() -> dict[Path, str]:
    """Each owned file as it should read."""
    return {
        RULES_MD: fill(RULES_MD.read_text(encoding="utf-8")),
        AUDIT_MD: fill(AUDIT_MD.read_text(encoding="utf-8")),
        SCHEMA: schema(SCHEMA.read_text(encoding="utf-8")),
    }


def stale() -> list[Path]:
    return [path for path, text in generated().items() if path.read_text("utf-8") != text]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    action = parser.add_mutually_exclusive_group(required=True)
    action.add_argument("--write", action="store_true")
    action.add_argument("--check", action="store_true")
    args = parser.parse_args()
    if args.write:
        for path, text in generated().items():
            path.write_text(text, encoding="utf-8")
        return 0
    out_of_date = stale()
    for path in out_of_date:
        print(f"{path.relative_to(ROOT)} is out of date: python scripts/rule_docs.py --write")
    return 1 if out_of_date else 0


if __name__ == "__main__":
    sys.exit(main())
