"""A small game builder and replayer of the independent judge (batch C and D).

It writes Zombie CCG games as LackeyCCG logs in the wording of docs/log-protocol.md and keeps
the table as the rulebook and the rulings describe it, asserting the rules on every legal action
it writes. A planted violation is written with ``raw`` (no check) and marked, so its line number
goes into expected.toml. Not part of the package; it reads only a card file and the rules.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]


def load_cards(path: Path) -> dict[str, dict[str, str]]:
    with path.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    return {r["Name"]: r for r in rows}


ALPHA = ROOT / "zcards" / "data" / "alpha.txt"


@dataclass
class Surv:
    name: str
    owner: str
    power: int
    health: int
    symbols: str
    wounds: int = 0
    infected_by: str | None = None
    spent: bool = False


@dataclass
class Zomb:
    card: str  # the real card (a survivor's name once taken over)
    owner: str
    face_up: bool = False
    zone: str = "res"  # res / combat
    spent: bool = False
    keywords: tuple[str, ...] = ()
    power: int = 1
    ex_survivor: bool = False

    @property
    def label(self) -> str:
        return self.card if self.face_up else "a face-down card"


@dataclass
class Player:
    name: str
    food: int = 10
    hand: list[str] = field(default_factory=list)
    survivors: list[Surv] = field(default_factory=list)
    zombies: list[Zomb] = field(default_factory=list)
    items: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    lost: bool = False


PHASES = ["Ready", "Draw", "Build", "Attack", "Recoup", "End"]


class Game:
    def __init__(self, pov: str, names=("Alice", "Bob"), pron: str = "his", cards: Path = ALPHA):
        self.cards = load_cards(cards)
        self.pov = pov
        self.pron = pron
        self.order = list(names)
        self.p = {n: Player(n) for n in names}
        self.lines: list[str] = []
        self.marks: dict[str, int] = {}
        self.turn_no = 0
        self.active: str | None = None
        self.phase = "Setup"
        self.fillers: dict[str, int] = {}

    # ---- output ---------------------------------------------------------------------------
    def raw(self, line: str, mark: str | None = None) -> int:
        self.lines.append(line)
        if mark:
            self.marks[mark] = len(self.lines)
        return len(self.lines)

    def mark(self, key: str) -> int:
        self.marks[key] = len(self.lines)
        return len(self.lines)

    def chat(self, who: str, text: str, mark: str | None = None) -> int:
        return self.raw(f"{who}: {text}", mark)

    def write(self, path: Path) -> None:
        path.write_text("\n".join(self.lines) + "\n", encoding="utf-8")

    @property
    def line(self) -> int:
        return len(self.lines)

    # ---- helpers --------------------------------------------------------------------------
    def row(self, card: str) -> dict[str, str]:
        return self.cards[card]

    def others(self, who: str) -> list[str]:
        i = self.order.index(who)
        return [self.order[(i + k) % len(self.order)] for k in range(1, len(self.order))]

    def turn_order(self) -> list[str]:
        assert self.active
        return [self.active] + self.others(self.active)

    def surv(self, name: str) -> Surv:
        for pl in self.p.values():
            for s in pl.survivors:
                if s.name == name:
                    return s
        raise KeyError(name)

    def food_line(self, who: str, new: int) -> int:
        pl = self.p[who]
        old = pl.food
        d = new - old
        pl.food = new
        return self.raw(f"{who} changes {who}'s Food to {new}. (from {old} to {new}) ({d:+d})")

    # ---- setup ----------------------------------------------------------------------------
    def setup(self, bids: list[tuple[str, int]], first: str, openings: dict[str, list[str]],
              coin: str = "HEADS", new_game: bool = True) -> None:
        a, b = self.order
        self.raw(f"{a} sits down at seat 1")
        self.raw(f"{b} sits down at seat 2")
        if new_game:
            self.raw(f"{a} starts a new game.")
        for n in self.order:
            self.raw(f"{n} loads a deck to the Deck zone and shuffles it.")
        self.raw(f"{a} flips a coin... result: {coin}")
        for who, bid in bids:
            assert 0 <= bid <= 10
            self.chat(who, f"bid {bid}")
        win = min(bids, key=lambda wb: (wb[1], bids.index(wb)))
        if win[1] != 10:
            self.food_line(win[0], win[1])
        for n in self.order:
            self.raw(f"{n} draws 7 cards.")
            self.p[n].hand += [self.filler(n) for _ in range(7)]
        seq = [first] + [n for n in self.order if n != first]
        for n in seq:
            total = 0
            for s in openings[n]:
                r = self.row(s)
                assert r["Type"] == "Survivor", s
                total += int(r["Cost"] or 0)
                self.raw(f"{n} plays {s} from {self.pron} Deck.")
                self.p[n].survivors.append(
                    Surv(s, n, int(r["Power"] or 0), int(r["Health"] or 0), r["Symbols"]))
            assert total <= 6, (n, total)
            self.raw(f"{n} shuffles {self.pron} Deck.")
        self.next_turn(first, writer=first)

    def filler(self, who: str) -> str:
        self.fillers[who] = self.fillers.get(who, 0) + 1
        return f"?{self.fillers[who]}"

    # ---- turn and phases ------------------------------------------------------------------
    def next_turn(self, active: str, writer: str | None = None) -> None:
        if self.active is not None:
            assert self.phase == "End"
        writer = writer or self.active
        self.turn_no += 1
        self.raw(f"{writer} advances the turn. Current Turn: #{self.turn_no}, {active}'s turn.")
        self.active = active
        self.phase = "Ready"
        self.ready_phase()

    def ready_phase(self) -> None:
        for n in self.turn_order():
            pl = self.p[n]
            if any(z.spent for z in pl.zombies) or any(s.spent for s in pl.survivors):
                self.raw(f"{n} performs Ready All on all {self.pron} cards.")
                for z in pl.zombies:
                    z.spent = False
                for s in pl.survivors:
                    s.spent = False
        for n in self.turn_order():
            for s in list(self.p[n].survivors):
                if s.infected_by:
                    self.wound(s, "infection")

    def next_phase(self) -> int:
        i = PHASES.index(self.phase)
        old, new = PHASES[i], PHASES[i + 1]
        if old == "Recoup":
            assert getattr(self, "_upkeep_done", False), "upkeep missing"
        self._upkeep_done = False
        self.phase = new
        return self.raw(f"{self.active} advances to the next phase: {old} -> {new}")

    def to(self, phase: str) -> None:
        while self.phase != phase:
            self.next_phase()

    # ---- draw -----------------------------------------------------------------------------
    def draws(self, who: str, names: list[str] | None = None, single: bool | None = None) -> None:
        assert self.phase == "Draw"
        names = names or [self.filler(who) for _ in range(2)]
        assert len(names) == 2
        single = (who == self.pov) if single is None else single
        if single:
            for c in names:
                shown = c if (who == self.pov and not c.startswith("?")) else "a card"
                self.raw(f"{who} draws {shown}.")
        else:
            self.raw(f"{who} draws 2 cards.")
        self.p[who].hand += names

    def discard_hand(self, who: str, card: str, mark: str | None = None) -> int:
        pl = self.p[who]
        if card in pl.hand:
            pl.hand.remove(card)
        else:
            fill = [c for c in pl.hand if c.startswith("?")]
            assert fill, (who, card)
            pl.hand.remove(fill[0])
        pl.discard.append(card)
        return self.raw(f"{who} discards {card} from {self.pron} Hand to the top of {self.pron} Discard.", mark)

    def draw_phase(self, discards: dict[str, str], names: dict[str, list[str]] | None = None) -> None:
        self.to("Draw")
        names = names or {}
        for n in self.turn_order():
            self.draws(n, names.get(n))
            self.discard_hand(n, discards[n])

    # ---- build ----------------------------------------------------------------------------
    def resource(self, who: str, card: str | None = None) -> Zomb:
        assert self.phase == "Build"
        pl = self.p[who]
        card = card or next(c for c in pl.hand if c.startswith("?"))
        pl.hand.remove(card) if card in pl.hand else pl.hand.remove(
            next(c for c in pl.hand if c.startswith("?")))
        r = self.cards.get(card)
        z = Zomb(card, who)
        if r and r["Type"] == "Zombie":
            z.keywords = tuple(k.strip() for k in r["Keywords"].split(",") if k.strip())
        self.raw(f"{who} plays a face down card from {self.pron} Hand.")
        pl.zombies.append(z)
        return z

    def spend(self, z: Zomb, mark: str | None = None) -> int:
        assert not z.spent, z
        z.spent = True
        return self.raw(f"{z.owner} performs Spend on {z.label}.", mark)

    def ready_card(self, z, mark: str | None = None) -> int:
        z.spent = False
        owner = z.owner
        name = z.label if isinstance(z, Zomb) else z.name
        return self.raw(f"{owner} performs Ready on {name}.", mark)

    def play(self, who: str, card: str, pay: list[Zomb], mark: str | None = None) -> int:
        assert self.phase == "Build" and who == self.active
        r = self.row(card)
        assert len(pay) == int(r["Cost"] or 0), (card, len(pay))
        for z in pay:
            assert z.owner == who
            self.spend(z)
        pl = self.p[who]
        if card in pl.hand:
            pl.hand.remove(card)
        else:
            pl.hand.remove(next(c for c in pl.hand if c.startswith("?")))
        n = self.raw(f"{who} plays {card} from {self.pron} Hand.", mark)
        if r["Type"] == "Survivor":
            pl.survivors.append(Surv(card, who, int(r["Power"] or 0), int(r["Health"] or 0), r["Symbols"]))
        else:
            pl.items.append(card)
        return n

    def item_to_discard(self, who: str, card: str) -> int:
        self.p[who].items.remove(card)
        self.p[who].discard.append(card)
        return self.raw(f"{who} moves {card} from the table to the top of {self.pron} Discard.")

    def flip(self, z: Zomb, mark: str | None = None, check: bool = True) -> int:
        assert self.phase == "Build" and not z.face_up and not z.ex_survivor
        r = self.row(z.card)
        assert r["Type"] == "Zombie"
        if check:
            need = r["Requirements"].strip()
            for part in filter(None, (x.strip() for x in need.split(","))):
                k, kw = part.split(" ", 1)
                have = sum(1 for y in self.p[z.owner].zombies if y.face_up and kw in y.keywords)
                assert have >= int(k), (z.card, part)
        z.face_up = True
        z.power = int(r["Power"] or 1)
        return self.raw(f"{z.owner} performs Flip on {z.card}.", mark)

    # ---- recoup ---------------------------------------------------------------------------
    def to_combat(self, z: Zomb, fast_ready: bool | None = None) -> None:
        assert self.phase == "Recoup" and z.owner == self.active and z.zone == "res"
        self.spend(z)
        z.zone = "combat"
        self.raw(f"{z.owner} performs To Combat (0 to 1) (+1) on {z.label}.")
        fast = z.face_up and "Fast" in z.keywords
        if fast_ready is None:
            fast_ready = fast
        if fast_ready:
            assert fast
            self.ready_card(z)

    def scavenge(self, who: str, s: str, roll: int, mark: str | None = None) -> None:
        sv = self.surv(s)
        assert self.phase == "Recoup" and who == self.active and "Scavenger" in sv.symbols
        assert not sv.spent
        sv.spent = True
        self.raw(f"{who} performs Spend on {s}.")
        self.raw(f"{who} rolls a 6-sided die... result: {roll}", mark)
        if roll >= 2:
            self.food_line(who, self.p[who].food + 1)
        else:
            for o in self.others(who):
                self.raw(f"{o} plays a face down card from the top of {self.pron} Deck.")
                self.p[o].zombies.append(Zomb("?deck", o))

    def medic(self, who: str, medic: str, target: str, mark: str | None = None) -> None:
        m = self.surv(medic)
        t = self.surv(target)
        assert self.phase == "Recoup" and not m.spent and t.wounds > 0
        m.spent = True
        self.raw(f"{who} performs Spend on {medic}.")
        self.raw(f"{who} performs Heal ({t.wounds} to {t.wounds - 1}) (-1) on {target}.", mark)
        t.wounds -= 1

    def upkeep(self, targets: list[str] | None = None, fed: int = 0) -> None:
        assert self.phase == "Recoup"
        who = self.active
        pl = self.p[who]
        if pl.food > 0:
            self.food_line(who, pl.food - 1)
        excess = max(0, len(pl.survivors) - fed - pl.food)
        targets = targets or []
        assert len(targets) == excess, (excess, targets)
        for t in targets:
            self.wound(self.surv(t), "upkeep")
        self._upkeep_done = True

    # ---- fights ---------------------------------------------------------------------------
    def attackers(self, who: str) -> list[Zomb]:
        return [z for z in self.p[who].zombies if z.zone == "combat" and not z.spent]

    def wound(self, s: Surv, why: str = "", mark: str | None = None) -> int:
        n = self.raw(f"{s.owner} performs Wound ({s.wounds} to {s.wounds + 1}) (+1) on {s.name}.", mark)
        s.wounds += 1
        if s.wounds >= s.health:
            self.die(s)
        return n

    def die(self, s: Surv) -> None:
        pl = self.p[s.owner]
        pl.survivors.remove(s)
        if s.infected_by:
            taker = s.infected_by
            self.raw(f"{taker} performs Take Control on {s.name}.")
            self.p[taker].zombies.append(
                Zomb(s.name, taker, face_up=True, zone="res", spent=s.spent, ex_survivor=True))
        else:
            pl.discard.append(s.name)
            self.raw(f"{s.owner} moves {s.name} from the table to the top of {self.pron} Discard.")
        if not pl.survivors:
            pl.lost = True

    def fight(self, zs: list[Zomb], s: str, spower: int | None = None, zpower: int | None = None,
              infect: bool = False, expect: str | None = None) -> str:
        assert self.phase == "Attack"
        sv = self.surv(s)
        for z in zs:
            assert z.zone == "combat" and not z.spent, z
        zp = zpower if zpower is not None else sum(z.power for z in zs)
        sp = spower if spower is not None else sv.power
        if zp > sp or zp == sp:
            if zp >= 2 * sp:
                res = "overwhelm"
                self.die(sv)
            else:
                res = "wound"
                n = 1 + sum(1 for z in zs if z.face_up and "Fierce" in z.keywords)
                for _ in range(n):
                    if sv in self.p[sv.owner].survivors:
                        self.wound(sv)
                if infect and sv in self.p[sv.owner].survivors:
                    assert any("Infectious" in z.keywords and z.face_up for z in zs)
                    assert sv.infected_by is None
                    sv.infected_by = zs[0].owner
                    self.raw(f"{sv.owner} performs Infect (0 to 1) (+1) on {s}.")
        else:
            res = "spent"
            for z in zs:
                if z.face_up and z.card in ("Frothing Maniac",):
                    z_owner = self.p[z.owner]
                    z_owner.zombies.remove(z)
                    self.raw(f"{z.owner} moves {z.card} from the table to the top of {self.pron} Discard.")
                else:
                    self.spend(z)
        if expect:
            assert res == expect, (res, expect)
        return res
