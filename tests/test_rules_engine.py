"""The rules engine's parts: the violation table, hidden-card readings, card-text flags, and
soundness on simulated legal games (zero violations from either player's log)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lackey_plugin.log import events as ev
from lackey_plugin.log.parser import parse_log_text
from zcards.cards.normalise import read_card_file
from zcards.game.cards import CardIndex
from zcards.game.definition import ZOMBIE_GAME
from zcards.game.zombies import Zombies
from zcards.resources import BUNDLED_SET
from zcards.rules import VIOLATION_KINDS, Kind, audit

ROOT = Path(__file__).resolve().parents[1]
RULES = (ROOT / "docs" / "rules.md").read_text()


def test_violation_table_cites_existing_rules() -> None:
    numbers = set(re.findall(r"\*\*(R\d+\.\d+)", RULES))
    assert len(VIOLATION_KINDS) == len(Kind) == len({entry.kind for entry in VIOLATION_KINDS})
    for entry in VIOLATION_KINDS:
        assert entry.rule in entry.rules
        assert set(entry.rules) <= numbers, entry.kind
        assert f"`{entry.kind}` | {entry.rule} |" in RULES


def test_hidden_spends_keep_every_reading() -> None:
    """One face-down card in each zone; a Build spend could be either, so a later fight loss
    of the combat one is still possible, but not a second one."""
    zombies = Zombies().add_face_down().add_face_down()
    zombies, fit = zombies.move_face_down(to_combat=True)
    assert fit
    zombies, fit = zombies.spend_face_down()
    assert fit and len(zombies.readings) == 2
    zombies, fit = zombies.spend_face_down(combat=True)
    assert fit
    _, fit = zombies.spend_face_down(combat=True)
    assert not fit
    zombies = zombies.ready_all()
    assert {(len(b.rr), len(b.rs), len(b.cr), len(b.cs)) for b in zombies.readings} == {
        (1, 0, 1, 0)
    }


def test_upgrade_keeps_zone_and_rotation() -> None:
    zombies = Zombies().add_face_down(combat=True)
    zombies, _ = zombies.spend_face_down()
    zombies, fit = zombies.flip_up("Runner")
    assert fit
    [board] = zombies.readings
    assert board.face_down == 0 and board.up[0].combat and board.up[0].spent
    assert not zombies.spend_named("Runner")[1] and zombies.ready_named("Runner")[1]


def test_the_simulator_names_its_face_down_cards_and_the_audit_does_not() -> None:
    """One board type for both: the simulator acts on the card it means, the audit on any
    hidden one."""
    known = Zombies().add_face_down("Sprinter").add_face_down("Shambler")
    known, fit = known.spend_face_down("Shambler")
    assert fit and known.board.rs == ("Shambler",) and known.board.rr == ("Sprinter",)
    hidden, fit = Zombies().add_face_down().flip_up("Sprinter")
    assert fit and hidden.board.up[0].name == "Sprinter"


def test_events_made_in_code_are_audited() -> None:
    """The engine needs no log text: the simulator's events work directly."""
    cards = read_card_file(ROOT / "tests" / "logs" / "cards.txt")
    events = [
        ev.Seat("Ann", seat=1),
        ev.Seat("Ben", seat=2),
        ev.NewGame("Ann"),
        ev.Play("Ann", "Scout", "Ann", "Deck", line=4),
        ev.Shuffle("Ann", "Deck", "Ann", line=5),
        ev.Play("Ben", "Tank", "Ben", "Deck", line=6),
        ev.Play("Ben", "Brute", "Ben", "Deck", line=7),
        ev.TurnChange("Ann", 1, "Ann", line=8),
    ]
    report = audit(events, cards)
    assert [(f.kind, f.line) for f in report.violations] == [
        (Kind.OPENING_SURVIVORS, 7),
        (Kind.OPENING_SHUFFLE, 8),  # Ben never shuffled after his opening (R2.4)
    ]


@pytest.fixture(scope="module")
def simulated_logs() -> list[str]:
    sim = pytest.importorskip("zcards.sim.batch")
    from zcards.sim.decklists import load_decks
    from zcards.sim.recorder import game_log

    decks = load_decks([])
    logs = []
    for index, result in enumerate(
        sim.iter_games(decks, 24, seed=5, strategies=("random", "greedy"))
    ):
        logs.append(game_log(result, result.players[index % 2], timestamps=index % 3 == 0))
    return logs


def test_simulated_legal_games_have_no_violation(simulated_logs: list[str]) -> None:
    cards = CardIndex(read_card_file(BUNDLED_SET))
    for text in simulated_logs:
        report = audit(parse_log_text(text, game=ZOMBIE_GAME).events, cards)
        assert report.violations == [], report.to_text()
        assert report.unparsed == []
        assert report.losses or report.turns >= 1


def test_a_log_without_its_start_only_doubts() -> None:
    """Cut before the new-game line, the table is unknown: nothing is certain (R17.1)."""
    lines = (ROOT / "tests" / "logs" / "illegal-attacker.txt").read_text().splitlines()
    cards = read_card_file(ROOT / "tests" / "logs" / "cards.txt")
    report = audit(parse_log_text("\n".join(lines[40:]) + "\n", game=ZOMBIE_GAME).events, cards)
    assert report.violations == []
    assert any(f.kind == Kind.ILLEGAL_ATTACKER for f in report.unverifiable)


def test_an_unread_line_turns_that_turns_findings_into_doubts() -> None:
    log = (ROOT / "tests" / "logs" / "draw-count-extra.txt").read_text().splitlines()
    log.insert(20, "Alice does something nobody has a template for")
    cards = read_card_file(ROOT / "tests" / "logs" / "cards.txt")
    report = audit(parse_log_text("\n".join(log) + "\n", game=ZOMBIE_GAME).events, cards)
    assert report.unparsed == [21]
    assert report.violations == []
    assert [(f.kind, f.line) for f in report.unverifiable] == [(Kind.DRAW_COUNT, 25)]
    assert "line 21" in report.unverifiable[0].message


def test_taking_back_a_phase_keeps_what_was_done() -> None:
    """Draws and the infection wound made before moving back still count afterwards."""
    log = (ROOT / "tests" / "logs" / "legal-game.txt").read_text().splitlines()
    assert log[104] == "Bob discards Walker from his Hand to the top of his Discard."
    log[105:105] = [
        "Alice takes back a phase: Draw -> Ready",
        "Alice advances to the next phase: Ready -> Draw",
    ]
    cards = read_card_file(ROOT / "tests" / "logs" / "cards.txt")
    report = audit(parse_log_text("\n".join(log) + "\n", game=ZOMBIE_GAME).events, cards)
    assert report.violations == []
    assert [w.kind for w in report.warnings] == ["phase-back"]


def _turn(number: int, active: str, other: str, **lines: list[str]) -> list[str]:
    """One turn of the protocol: draws and discards for both, the given lines per phase."""
    out = [
        f"{other if number > 1 else active} advances the turn. Current Turn: #{number}, "
        f"{active}'s turn.",
        *lines.get("ready", []),
    ]
    out.append(f"{active} advances to the next phase: Ready -> Draw")
    for name in (active, other):
        out += [
            f"{name} draws 2 cards.",
            f"{name} discards Shambler from his Hand to the top of his Discard.",
        ]
    for old, new in (("Draw", "Build"), ("Build", "Attack"), ("Attack", "Recoup")):
        out.append(f"{active} advances to the next phase: {old} -> {new}")
        out += lines.get(new.lower(), [])
    out.append(f"{active} advances to the next phase: Recoup -> End")
    return out


def copies_and_fierce(attack: list[str], face_down_attackers: int) -> list[str]:
    """Alice's two Mechanic Rosa (power 2), one healed back to 1 wound, and Paramedic Joe
    against Bob's Howling Berserker (power 2, Fierce) and face-down attackers, in turn 4."""
    into_combat = [
        "Bob performs Spend on a face-down card.",
        "Bob performs To Combat (0 to 1) (+1) on a face-down card.",
    ]
    return [
        "Alice sits down at seat 1",
        "Bob sits down at seat 2",
        "Alice starts a new game.",
        "Alice loads a deck to the Deck zone and shuffles it.",
        "Bob loads a deck to the Deck zone and shuffles it.",
        "Alice draws 7 cards.",
        "Bob draws 7 cards.",
        "Bob plays Old Pete from his Deck.",
        "Bob shuffles his Deck.",
        "Alice plays Mechanic Rosa from his Deck.",
        "Alice plays Mechanic Rosa from his Deck.",
        "Alice plays Paramedic Joe from his Deck.",
        "Alice shuffles his Deck.",
        *_turn(
            1,
            "Bob",
            "Alice",
            build=["Bob plays Howling Berserker from his Hand."],
            recoup=[
                "Bob performs Spend on Howling Berserker.",
                "Bob performs To Combat (0 to 1) (+1) on Howling Berserker.",
                "Bob changes Bob's Food to 9. (from 10 to 9) (-1)",
            ],
        ),
        *_turn(
            2,
            "Alice",
            "Bob",
            ready=["Bob performs Ready All on all his cards."],
            build=["Bob plays a face down card from his Hand."],
            attack=[
                "Alice performs Wound (0 to 1) (+1) on Mechanic Rosa.",
                "Alice performs Wound (1 to 2) (+1) on Mechanic Rosa.",
            ],
            recoup=[
                "Alice performs Spend on Paramedic Joe.",
                "Alice performs Heal (2 to 1) (-1) on Mechanic Rosa.",
                "Alice changes Alice's Food to 9. (from 10 to 9) (-1)",
            ],
        ),
        *_turn(
            3,
            "Bob",
            "Alice",
            ready=["Alice performs Ready All on all his cards."],
            build=["Bob plays a face down card from his Hand."],
            recoup=[
                *into_combat * face_down_attackers,
                "Bob changes Bob's Food to 8. (from 9 to 8) (-1)",
            ],
        ),
        *_turn(
            4,
            "Alice",
            "Bob",
            ready=["Bob performs Ready All on all his cards."],
            attack=attack,
            recoup=["Alice changes Alice's Food to 8. (from 9 to 8) (-1)"],
        ),
    ]


ROSA_FIERCE = [
    "Alice performs Wound (0 to 1) (+1) on Mechanic Rosa.",
    "Alice performs Wound (1 to 2) (+1) on Mechanic Rosa.",
]
JOE = "Alice performs Wound (0 to 1) (+1) on Paramedic Joe."


@pytest.mark.parametrize(
    ("attack", "second_fight"),
    [
        ([*ROSA_FIERCE, JOE], 2),
        ([ROSA_FIERCE[0], JOE, ROSA_FIERCE[1]], 1),
        ([JOE, *ROSA_FIERCE], 1),
    ],
    ids=["rosa-rosa-joe", "rosa-joe-rosa", "joe-rosa-rosa"],
)
def test_copies_and_fierce_in_any_order_of_lines(attack: list[str], second_fight: int) -> None:
    """The Berserker's two wounds on the unwounded Rosa are one fight, although the other
    Rosa also has 1 wound when `Wound (1 to 2)` comes: 2 + 2 power for
    the Berserker's and the face-down pair's fights, 4 available. With one face-down attacker
    less, no reading of the lines can cause the second fight's wound."""
    cards = read_card_file(BUNDLED_SET)
    report = audit(
        parse_log_text("\n".join(copies_and_fierce(attack, 2)) + "\n", game=ZOMBIE_GAME).events,
        cards,
    )
    assert report.violations == [] and report.unverifiable == [], report.to_text()
    lines = copies_and_fierce(attack, 1)
    report = audit(parse_log_text("\n".join(lines) + "\n", game=ZOMBIE_GAME).events, cards)
    attack_line = len(lines) - lines[::-1].index(
        "Alice advances to the next phase: Build -> Attack"
    )
    at = attack_line + second_fight + 1
    assert [(v.kind, v.line) for v in report.violations] == [("combat-result", at)]
