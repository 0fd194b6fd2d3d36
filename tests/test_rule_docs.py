"""The documentation the rule catalogue owns (docs/rules.md's kinds table, docs/audit.md's checks
table, docs/audit-schema.json's kind enum and warning topics) is generated from it, and stays so:
``python scripts/rule_docs.py --write`` regenerates it."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

from zcards.game.catalogue import KINDS, RULE_TEXTS, VIOLATION_KINDS, Kind, Topic, rule_text

ROOT = Path(__file__).resolve().parents[1]


def rule_docs():
    spec = importlib.util.spec_from_file_location("rule_docs", ROOT / "scripts" / "rule_docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_generated_documentation_is_up_to_date() -> None:
    assert rule_docs().stale() == []


def test_a_new_kind_makes_the_documentation_stale(monkeypatch) -> None:
    module = rule_docs()
    entry = VIOLATION_KINDS[0]
    changed = (entry.__class__(entry.kind, entry.rule, entry.rules, "changed", "x"),)
    monkeypatch.setattr(module, "VIOLATION_KINDS", changed + VIOLATION_KINDS[1:])
    assert set(module.stale()) == {module.RULES_MD, module.AUDIT_MD}


def test_the_schema_lists_every_kind_and_topic() -> None:
    schema = json.loads((ROOT / "docs" / "audit-schema.json").read_text("utf-8"))
    kind = schema["$defs"]["violation"]["allOf"][1]["properties"]["kind"]
    assert kind["enum"] == [str(k) for k in Kind]
    description = schema["properties"]["warnings"]["description"]
    assert all(f"`{topic}`" in description for topic in Topic)


def test_every_kind_is_in_the_catalogue_once_with_its_rules() -> None:
    assert set(KINDS) == set(Kind) and len(VIOLATION_KINDS) == len(Kind)
    for entry in VIOLATION_KINDS:
        assert entry.rule in entry.rules and entry.text and entry.reported_at


def test_every_quote_is_its_rules_own_words() -> None:
    paragraphs = rule_docs().rule_paragraphs()
    misquoted = {
        rule: text for rule, text in RULE_TEXTS.items() if text not in paragraphs.get(rule, "")
    }
    assert misquoted == {}


def test_every_rule_a_finding_cites_is_quoted() -> None:
    """The rules of the kinds, and every rule number the audit's code cites in a finding."""
    cited = {rule for entry in VIOLATION_KINDS for rule in entry.rules}
    for path in (ROOT / "zcards" / "rules").glob("*.py"):
        cited |= set(re.findall(r'rule="(R\d+\.\d+)"', path.read_text("utf-8")))
    assert cited - set(RULE_TEXTS) == set()
    assert rule_text("R5.1").startswith("Every player still in the game") and rule_text(None) == ""
