"""Batch C of the independent corpus: issue 30's kinds, each violation next to a legal twin.

Run from this folder: python batch_c.py  (writes the logs and prints the expected.toml entries).
"""

from __future__ import annotations

import copy
import sys
from pathlib import Path

from common import Script
from judge_game import Game, Zomb

OUT = Path(__file__).resolve().parents[1]
CASES: list[dict] = []

RAGE, HORDE, CW = "rage-starter.txt", "horde-starter.txt", "contagion-weird-starter.txt"


def case(file, g, legal, about, violations=(), decks=None):
    g.write(OUT / file)
    CASES.append(dict(file=file, pov=g.pov, players=list(g.order), decks=decks, legal=legal,
                      about=about.format(**g.marks), violations=[
                          (g.marks[k], rule, why.format(**g.marks)) for k, rule, why in violations]))


def new(pov="Alice", styles=("rage", "horde"), pron="his"):
    g = Game(pov, pron=pron)
    s = Script(g, {"Alice": styles[0], "Bob": styles[1]})
    return g, s


# --------------------------------------------------------------------------- upkeep wounds
def upkeep_extra(extra: bool):
    g, s = new()
    g.setup([("Alice", 3), ("Bob", 9)], "Alice",
            {"Alice": ["Old Pete", "Dumpster Dave", "Soccer Mom Linda", "Nurse Ratchet"],
             "Bob": ["Trucker Earl", "Mall Cop Randy", "Paramedic Joe"]})

    def more(g):
        g.mark("up")
        if extra:
            g.wound(g.surv("Dumpster Dave"), mark="v")

    s.turn(upkeep=["Soccer Mom Linda", "Old Pete"], stop="Upkeep")
    more(g)
    g.to("End")
    g.next_turn("Bob")
    s.turn(nxt="Alice")
    return g


g = upkeep_extra(True)
case("case-c01-upkeep-extra-wound.txt", g, False,
     """Alice (Rage) bids 3 and wins (line 9); she opens with four survivors (Old Pete, Dumpster Dave, Soccer Mom Linda, Nurse Ratchet, cost 5). Turn-1 upkeep: food 3 -> 2, four survivors against 2 food: two wounds are owed and she puts them on Linda and Pete; then she puts a third starvation wound on Dumpster Dave (line {v}). Nothing else in the turn could wound anyone (Bob has no zombie in a combat zone).""",
     [("v", "12", "Upkeep at food 2 with four survivors owes exactly two wounds; the third wound (on Dumpster Dave) has no fight, infection or card text behind it.")],
     {"Alice": RAGE, "Bob": HORDE})
g = upkeep_extra(False)
case("case-c01-twin-upkeep-two-wounds.txt", g, True,
     """Twin of case-c01-upkeep-extra-wound.txt without the third wound: Alice at food 3 with four survivors pays upkeep 3 -> 2 and puts the two owed wounds on Soccer Mom Linda and Old Pete (up to line {up}). Bob's turn 2 is plain. Legal.""",
     decks={"Alice": RAGE, "Bob": HORDE})


def upkeep_no_hunger(extra: bool):
    g, s = new(pov="Bob", pron="their")
    g.setup([("Alice", 10), ("Bob", 7)], "Alice",
            {"Alice": ["Kyle Bjorn", "Old Pete", "Nurse Ratchet"],
             "Bob": ["Trucker Earl", "Mall Cop Randy", "Farmer Hank"]})
    s.turn(nxt="Bob")
    s.turn(nxt="Alice")
    s.turn(stop="Upkeep")
    if extra:
        g.chat("Alice", "upkeep, ouch")
        g.wound(g.surv("Kyle Bjorn"), mark="v")
    else:
        g.chat("Alice", "upkeep")
    g.mark("end")
    g.to("End")
    g.next_turn("Bob")
    return g


g = upkeep_no_hunger(True)
case("case-c02-upkeep-wound-without-hunger.txt", g, False,
     """Bob's log (pronoun "their"). Bob wins the bid at 7 and lets Alice start; Alice keeps 10 food. On turn 3 Alice pays upkeep (9 -> 8) with three survivors, so no survivor is in excess of her food, yet she puts a wound on Kyle Bjorn right after (line {v}). No fight happened that turn (Bob has nothing in a combat zone) and nobody is infected.""",
     [("v", "12", "At upkeep Alice has 8 food and 3 survivors: nothing is in excess, so no starvation wound is owed; the wound on Kyle Bjorn has no cause.")],
     {"Alice": RAGE, "Bob": HORDE})
g = upkeep_no_hunger(False)
case("case-c02-twin-upkeep-no-wound.txt", g, True,
     """Twin of case-c02-upkeep-wound-without-hunger.txt (Bob's log, "their"): Alice pays upkeep 9 -> 8 on turn 3 with three survivors and puts no wound (chat only, line {end}). Legal.""",
     decks={"Alice": RAGE, "Bob": HORDE})


# --------------------------------------------------------------------------- wounds in a Build phase
def build_wound(variant: str):
    g, s = new(styles=("cw", "rage"))
    g.setup([("Alice", 9), ("Bob", 10)], "Alice",
            {"Alice": ["Looter Lisa", "Father Gabriel", "Veterinarian Holly"],
             "Bob": ["Kyle Bjorn", "Old Pete", "Nurse Ratchet"]})
    s.turn(res={"Bob": "Sprinter"}, nxt="Bob")
    spr = s.z["Bob1"]

    def b2(g):
        g.flip(spr)
        if variant == "own-wound":
            g.chat("Bob", "Sprinter bites Father Gabriel")
            g.wound(g.surv("Father Gabriel"), mark="v")
        if variant == "own-kill":
            g.chat("Bob", "Sprinter eats Looter Lisa")
            g.wound(g.surv("Looter Lisa"), mark="v")

    s.turn(build=b2, recoup=lambda g: g.to_combat(spr), nxt="Alice")

    def b3(g):
        if variant == "early":
            g.chat("Bob", "Sprinter can't wait for the attack")
            g.wound(g.surv("Looter Lisa"), mark="v")

    def a3(g):
        if variant in ("legal", "own-wound"):
            g.fight([spr], "Looter Lisa", expect="wound")
            g.mark("fight")

    s.turn(build=b3, attack=a3, nxt="Bob")
    return g


g = build_wound("own-wound")
case("case-c03-wound-in-zombie-players-own-build.txt", g, False,
     """Alice (Contagion-Weird) starts; Bob (Rage) turns Sprinter face up in the Build phase of his own turn 2 and says it bites Alice's Father Gabriel; Alice puts a wound on Gabriel (line {v}), still in Bob's Build phase. Sprinter is in Bob's resource zone and it is Bob's turn: his cards are only resources, nothing fights, and no card text wounds. Later Sprinter goes to the combat zone and on turn 3 it legally beats Looter Lisa (2 vs 2, tie to the zombie), who dies (line {fight}).""",
     [("v", "10", "A survivor is wounded only by a lost fight (Attack phase of its controller's turn), starvation, infection or card text; in Bob's own Build phase none of these applies.")],
     {"Alice": CW, "Bob": RAGE})
g = build_wound("own-kill")
case("case-c03-kill-in-zombie-players-own-build.txt", g, False,
     """Like case-c03-wound-in-zombie-players-own-build.txt, but in his own Build phase of turn 2 Bob says Sprinter eats Looter Lisa (health 1): Alice wounds her (line {v}) and she dies (next line). Nothing can wound a survivor there. On turn 3 Sprinter attacks but is left out of every fight.""",
     [("v", "10", "No fight, starvation, infection or card text can wound Looter Lisa in Bob's Build phase; the wound that kills her has no cause (her death then follows from it).")],
     {"Alice": CW, "Bob": RAGE})
g = build_wound("early")
case("case-c03-wound-in-build-before-attack.txt", g, False,
     """Sprinter is legally in Bob's combat zone (moved and readied, Fast, on turn 2). On Alice's turn 3 Bob says Sprinter "can't wait" and Alice puts a wound on Looter Lisa (line {v}) in her Build phase; she dies. Fights happen only in the Attack phase, so the wound is unexplained.""",
     [("v", "10", "Fights are resolved in the Attack phase; in Alice's Build phase nothing can wound Looter Lisa.")],
     {"Alice": CW, "Bob": RAGE})
g = build_wound("legal")
case("case-c03-twin-wound-in-attack.txt", g, True,
     """Twin of the case-c03 Build-phase wounds: Bob turns Sprinter up on turn 2, moves it to the combat zone (Fast: readied), and on turn 3, in Alice's Attack phase, Sprinter (2) fights Looter Lisa (2): a tie, the zombie wins, Lisa gets one wound and dies at health 1 (line {fight}). Legal.""",
     decks={"Alice": CW, "Bob": RAGE})


# --------------------------------------------------------------------------- impossible fight results
def maniac(variant: str):
    g, s = new(pov="Bob")
    a_open = ["Hunter Jed", "Dumpster Dave"] if variant == "legal" else ["Nurse Ratchet", "Dumpster Dave"]
    g.setup([("Alice", 8), ("Bob", 9)], "Alice",
            {"Alice": a_open, "Bob": ["Trucker Earl", "Mall Cop Randy", "Grocery Clerk Tom"]})
    s.turn(res={"Bob": "Frothing Maniac"}, names={"Bob": ["Frothing Maniac", "Shambler"]},
           nxt="Bob")
    m = s.z["Bob1"]
    s.turn(build=lambda g: g.flip(m), recoup=lambda g: g.to_combat(m), nxt="Alice")

    def a3(g):
        if variant == "legal":
            g.chat("Alice", "Hunter Jed takes the Maniac")
            g.fight([m], "Hunter Jed", spower=4, expect="spent")
            g.mark("v")
        elif variant == "discard":
            g.chat("Alice", "Dumpster Dave blocks the Maniac")
            g.raw("Bob moves Frothing Maniac from the table to the top of his Discard.", "v")
            g.p["Bob"].zombies.remove(m)
        else:
            g.chat("Alice", "Dumpster Dave blocks the Maniac")
            g.raw("Bob performs Spend on Frothing Maniac.", "v")
            m.spent = True

    s.turn(attack=a3, nxt="Bob")
    return g


g = maniac("discard")
case("case-c04-maniac-discarded-after-impossible-loss.txt", g, False,
     """Bob's log. Bob's first resource is Frothing Maniac (power 3, Fast; "when it loses a fight, discard it instead of spending it"); he turns it up on turn 2 and moves it to his combat zone (Fast: readied). Alice's survivors are Nurse Ratchet (power 1) and Dumpster Dave (power 1), no items, no cards played. In Alice's Attack phase of turn 3 Bob moves the Maniac to his discard pile as if it had lost (line {v}). Power 3 cannot lose to 1, nor to both survivors together (2); zombies win ties.""",
     [("v", "10", "Frothing Maniac (3) cannot lose a fight against Alice's survivors (1 and 1, no items, no text), so its discard as a fight loss is impossible.")])
g = maniac("spend")
case("case-c04-maniac-spent-after-impossible-loss.txt", g, False,
     """Same as case-c04-maniac-discarded-after-impossible-loss.txt, but the impossible loss is written as a Spend on Frothing Maniac (line {v}) in Alice's Attack phase (and the Spend would be wrong for a Maniac that lost anyway: it is discarded instead). Alice's survivors have power 1 and 1: the Maniac (3) wins every fight it is in.""",
     [("v", "10", "Frothing Maniac (3) cannot lose against power-1 survivors; a zombie player's Spend in the Attack phase is a lost fight, and none is possible.")])
g = maniac("legal")
case("case-c04-twin-maniac-loses-to-hunter-jed.txt", g, True,
     """Twin of the case-c04 logs (Bob's log): Alice opens with Hunter Jed (power 3, +1 while fighting a Fast zombie) instead of Nurse Ratchet. In turn 3 Jed (4) fights Frothing Maniac (3, Fast) and wins; the Maniac is discarded instead of spent (line {v}). Legal.""")


# --------------------------------------------------------------------------- Take Control
def take_control(variant: str):
    g, s = new(styles=("cw", "cw"))
    g.setup([("Alice", 9), ("Bob", 10)], "Alice",
            {"Alice": ["Veterinarian Holly", "Father Gabriel", "Lab Tech Marcus"],
             "Bob": ["Looter Lisa", "Zoë Park", "Grandma Edna"]})
    s.turn(res={"Bob": "Spitter"}, nxt="Bob")
    sp = s.z["Bob1"]
    s.turn(build=lambda g: g.flip(sp), recoup=lambda g: g.to_combat(sp), nxt="Alice")

    def a3(g):
        g.chat("Bob", "Spitter on Veterinarian Holly")
        g.fight([sp], "Veterinarian Holly", infect=variant in ("legal", "alive"), expect="wound")
        g.mark("fight")
        if variant == "alive":
            g.raw("Bob performs Take Control on Veterinarian Holly.", "v")

    if variant == "alive":
        s.turn(attack=a3, stop="Upkeep")
        g.to("End")
        return g
    s.turn(attack=a3, nxt="Bob")
    g.mark("t4")
    if variant == "legal":
        s.turn(nxt="Alice")
        return g
    s.turn(nxt="Alice")

    def a5(g):
        g.chat("Bob", "Spitter on Holly again")
        h = g.surv("Veterinarian Holly")
        g.raw(f"Alice performs Wound (1 to 2) (+1) on Veterinarian Holly.", "w")
        g.p["Alice"].survivors.remove(h)
        if variant == "uninfected":
            g.raw("Bob performs Take Control on Veterinarian Holly.", "v")
        else:
            g.raw("Alice moves Veterinarian Holly from the table to the top of his Discard.", "v")

    s.turn(attack=a5, nxt="Bob")
    return g


g = take_control("legal")
case("case-c05-twin-take-control-after-infection.txt", g, True,
     """Both players use the Contagion-Weird starter. Bob turns up Spitter (Infectious, power 1) on turn 2 and moves it to his combat zone. Turn 3: Spitter fights Veterinarian Holly (1/2): a tie, the zombie wins, Holly gets a wound and Bob infects her (up to line {fight}). Turn 4's Ready phase gives the infected Holly her second wound; she dies and Bob, who infected her, takes control of her (right after line {t4}). Legal.""",
     decks={"Alice": CW, "Bob": CW})
g = take_control("alive")
case("case-c05-take-control-of-living-survivor.txt", g, False,
     """As case-c05-twin-take-control-after-infection.txt up to the fight of turn 3: Spitter wins against Veterinarian Holly, who gets 1 wound (health 2) and an Infected token. Right after, Bob takes control of Holly (line {v}) although she is alive. The log stops at the end of turn 3.""",
     [("v", "11", "An infected survivor passes to the infecting player only when it dies; Holly has 1 wound of 2 health and is alive.")],
     {"Alice": CW, "Bob": CW})
g = take_control("uninfected")
case("case-c05-take-control-of-uninfected-survivor.txt", g, False,
     """Bob's Spitter beats Veterinarian Holly on turn 3 (1 wound) but Bob does not infect her. On turn 5 Spitter beats her again: second wound (line {w}), she dies, and Bob takes control of her (line {v}). She never had an Infected token, so she goes to Alice's discard pile.""",
     [("v", "11", "Only an infected survivor's death gives its infecting player control; Holly was never infected, so she goes to her owner's discard pile.")],
     {"Alice": CW, "Bob": CW})
g = take_control("uninfected-legal")
case("case-c05-twin-uninfected-survivor-discarded.txt", g, True,
     """Twin of case-c05-take-control-of-uninfected-survivor.txt: the uninfected Veterinarian Holly dies in turn 5's fight (line {w}) and goes to Alice's discard pile (line {v}). Legal.""",
     decks={"Alice": CW, "Bob": CW})


# --------------------------------------------------------------------------- Carrion Crows
def crows(variant: str):
    g, s = new()
    g.setup([("Alice", 8), ("Bob", 9)], "Alice",
            {"Alice": ["Old Pete", "Kyle Bjorn", "Nurse Ratchet"],
             "Bob": ["Trucker Earl", "Mall Cop Randy", "Paramedic Joe"]})
    own = variant in ("own-before", "own-after")
    s.turn(res={"Bob": "Carrion Crows"} if not own else {"Alice": "Carrion Crows"}, nxt="Bob")
    cr = s.z["Bob1"] if not own else s.z["Alice1"]
    if own:
        s.turn(nxt="Alice")
    else:
        s.turn(build=lambda g: g.flip(cr),
               recoup=(lambda g: g.to_combat(cr)) if variant != "resource" else None, nxt="Alice")

    def b3(g):
        if own:
            g.flip(cr)

    def a3(g):
        if variant == "spent":
            g.chat("Bob", "Crows on Old Pete")
            g.fight([cr], "Old Pete", expect="spent")
            g.mark("f")

    def r3(g):
        if variant == "own-before":
            g.to_combat(cr)
        g.scavenge("Alice", "Old Pete", 4, mark="v")
        if variant == "own-after":
            g.to_combat(cr)

    s.turn(build=b3, attack=a3, recoup=r3, nxt="Bob")
    return g


g = crows("ready")
case("case-c06-crows-in-combat-scavenger-rolls.txt", g, False,
     """Bob turns up Carrion Crows (Fast; "While Carrion Crows is in a combat zone, Scavenger survivors cannot attract attention") on turn 2 and moves it to his combat zone. On turn 3 it attacks but fights nobody; in Alice's Recoup it is still in Bob's combat zone when Alice spends Old Pete (Scavenger) and rolls to attract attention (roll line {v}), gaining food.""",
     [("v", "card text", "Carrion Crows is in Bob's combat zone, so Old Pete (a Scavenger) cannot attract attention: the roll is not allowed (nor the food it gives).")],
     {"Alice": RAGE})
g = crows("spent")
case("case-c06-crows-spent-in-combat-scavenger-rolls.txt", g, False,
     """Like case-c06-crows-in-combat-scavenger-rolls.txt, but in turn 3 Carrion Crows (1) fights Old Pete (2) and loses: it is spent (line {f}) and stays in Bob's combat zone. Its text asks only that it is in a combat zone, spent or not, so Old Pete's roll in the Recoup (line {v}) is still forbidden.""",
     [("v", "card text", "A spent Carrion Crows is still in Bob's combat zone; Scavengers cannot attract attention while it is there.")],
     {"Alice": RAGE})
g = crows("resource")
case("case-c06-twin-crows-in-resource-zone.txt", g, True,
     """Twin of the case-c06 logs: Bob turns Carrion Crows up on turn 2 but leaves it in his resource zone. Old Pete's roll in Alice's turn-3 Recoup (line {v}) is allowed: Crows is in no combat zone. Legal.""",
     decks={"Alice": RAGE})
g = crows("own-before")
case("case-c06-own-crows-to-combat-then-roll.txt", g, False,
     """Alice's own Carrion Crows: she turns it up in her Build phase of turn 3 and in her Recoup moves it to her combat zone (Fast: readied), then spends Old Pete to attract attention (roll line {v}). The text bans every Scavenger while Crows is in a combat zone, whoever controls either card.""",
     [("v", "card text", "Carrion Crows is in (Alice's own) combat zone when Old Pete rolls; its text forbids all Scavenger survivors to attract attention then.")],
     {"Bob": HORDE})
g = crows("own-after")
case("case-c06-twin-own-crows-roll-first.txt", g, True,
     """Twin of case-c06-own-crows-to-combat-then-roll.txt: Old Pete rolls (line {v}) before Alice moves her Carrion Crows to her combat zone, so Crows is in no combat zone at the roll. Legal.""",
     decks={"Bob": HORDE})


# --------------------------------------------------------------------------- Chef Antoine
def chef(variant: str):
    g, s = new()
    g.setup([("Alice", 8), ("Bob", 9)], "Alice",
            {"Alice": ["Chef Antoine", "Kyle Bjorn", "Old Pete"],
             "Bob": ["Trucker Earl", "Mall Cop Randy", "Paramedic Joe"]})

    def r1(g):
        g.surv("Chef Antoine").spent = True
        g.raw("Alice performs Spend on Chef Antoine.")
        if variant == "item":
            g.discard_hand("Alice", "Canned Food", mark="d")
        elif variant == "zombie":
            g.discard_hand("Alice", "Sprinter", mark="d")
        g.food_line("Alice", g.p["Alice"].food + 1)
        g.mark("v")

    s.turn(names={"Alice": ["Canned Food", "Sprinter"]}, discards={"Alice": "Frenzied Runner"},
           recoup=r1, nxt="Bob")
    s.turn(nxt="Alice")
    return g


g = chef("none")
case("case-c07-chef-antoine-without-item.txt", g, False,
     """Alice opens with Chef Antoine ("Recoup - Spend Chef Antoine and discard an Item from your hand: add 1 food"). In her turn-1 Recoup she spends him and adds 1 food (line {v}) without discarding anything.""",
     [("v", "card text", "Chef Antoine's food needs two costs, spending him and discarding an Item from the hand; no card is discarded, so the food may not be added.")])
g = chef("zombie")
case("case-c07-chef-antoine-discards-a-zombie.txt", g, False,
     """As case-c07-chef-antoine-without-item.txt, but Alice pays Chef Antoine's discard with Sprinter (line {d}), a Zombie card, and adds 1 food (line {v}). Canned Food was in her hand; she did not use it.""",
     [("v", "card text", "Chef Antoine's cost is to discard an Item; Sprinter is a Zombie, so the cost is not paid and the food is not allowed.")])
g = chef("item")
case("case-c07-twin-chef-antoine-discards-canned-food.txt", g, True,
     """Twin of the case-c07 logs: Alice spends Chef Antoine, discards Canned Food (an Item) from her hand (line {d}) and adds 1 food (line {v}). Legal.""")


# --------------------------------------------------------------------------- a Medic and Ex-Con Dwayne
def dwayne(variant: str):
    g, s = new()
    g.setup([("Alice", 2), ("Bob", 9)], "Alice",
            {"Alice": ["Ex-Con Dwayne", "Nurse Ratchet", "Old Pete"],
             "Bob": ["Trucker Earl", "Mall Cop Randy", "Paramedic Joe"]})
    s.turn(names={"Alice": ["Canned Food", "Bandages"]}, discards={"Alice": "Frenzied Runner"},
           upkeep=["Ex-Con Dwayne", "Old Pete"], nxt="Bob")
    s.turn(nxt="Alice")
    r1 = s.z["Alice1"]

    def b3(g):
        g.play("Alice", "Canned Food", [])
        g.food_line("Alice", g.p["Alice"].food + 1)
        g.item_to_discard("Alice", "Canned Food")
        if variant == "bandages":
            g.play("Alice", "Bandages", [r1])
            d = g.surv("Ex-Con Dwayne")
            g.raw("Alice performs Heal (1 to 0) (-1) on Ex-Con Dwayne.", "v")
            d.wounds = 0
            g.item_to_discard("Alice", "Bandages")

    def rc3(g):
        g.scavenge("Alice", "Old Pete", 5)
        if variant == "medic":
            g.medic("Alice", "Nurse Ratchet", "Ex-Con Dwayne", mark="v")
        elif variant == "other":
            g.medic("Alice", "Nurse Ratchet", "Old Pete", mark="v")

    s.turn(names={"Alice": ["Sprinter", "Howling Berserker"]}, discards={"Alice": "Sprinter"},
           build=b3, recoup=rc3, upkeep=["Nurse Ratchet"], nxt="Bob")
    return g


g = dwayne("medic")
case("case-c08-medic-heals-ex-con-dwayne.txt", g, False,
     """Alice bids 2 and opens with Ex-Con Dwayne ("Medic survivors cannot remove wounds from Ex-Con Dwayne"), Nurse Ratchet (Medic) and Old Pete. Turn-1 upkeep (food 2 -> 1, three survivors) puts wounds on Dwayne and Pete. On turn 3 she plays Canned Food, Old Pete scavenges, and Nurse Ratchet is spent to remove Dwayne's wound (line {v}).""",
     [("v", "card text", "Nurse Ratchet is a Medic; Ex-Con Dwayne's text forbids Medic survivors to remove his wounds.")])
g = dwayne("other")
case("case-c08-twin-medic-heals-old-pete.txt", g, True,
     """Twin of case-c08-medic-heals-ex-con-dwayne.txt: Nurse Ratchet removes Old Pete's wound instead (line {v}). Legal.""")
g = dwayne("bandages")
case("case-c08-twin-bandages-heal-ex-con-dwayne.txt", g, True,
     """Twin of case-c08-medic-heals-ex-con-dwayne.txt: Dwayne's wound is removed by Bandages (an Item, not a Medic survivor), paid with one resource in Alice's Build phase of turn 3 (line {v}); Nurse Ratchet does nothing. Legal.""")


# --------------------------------------------------------------------------- Firefighter Bo
def bo(variant: str):
    g, s = new(styles=("rage", "cw"))
    g.setup([("Alice", 8), ("Bob", 9)], "Alice",
            {"Alice": ["Firefighter Bo", "Old Pete"], "Bob": ["Looter Lisa", "Zoë Park", "Grandma Edna"]})
    s.turn(res={"Bob": "Spitter"}, recoup=lambda g: g.scavenge("Alice", "Old Pete", 1), nxt="Bob")
    sp = s.z["Bob1"]

    def r2(g):
        for z in list(g.p["Bob"].zombies):
            g.to_combat(z)

    s.turn(build=lambda g: g.flip(sp), recoup=r2, nxt="Alice")

    def a3(g):
        g.chat("Bob", "everything on Firefighter Bo")
        zs = g.attackers("Bob")
        assert len(zs) == 3
        g.fight(zs, "Firefighter Bo", expect="wound")
        g.mark("w")
        if variant == "infect":
            g.raw("Alice performs Infect (0 to 1) (+1) on Firefighter Bo.", "v")

    s.turn(attack=a3, res={"Bob": False}, nxt="Bob")
    return g


g = bo("infect")
case("case-c09-firefighter-bo-infected.txt", g, False,
     """Alice opens with Firefighter Bo (3/4, "Firefighter Bo cannot be infected") and Old Pete. Old Pete's turn-1 roll is a 1, so Bob puts his top card into his resource zone face down. Bob turns up Spitter (Infectious) on turn 2 and moves it and his two face-down cards to his combat zone. Turn 3: all three (1+1+1) fight Bo (3): a tie, the zombies win, not double: one wound (line {w}); then Bo gets an Infected token (line {v}).""",
     [("v", "card text", "Firefighter Bo cannot be infected; Spitter's Infectious may not put a token on him.")],
     {"Bob": CW})
g = bo("plain")
case("case-c09-twin-firefighter-bo-only-wounded.txt", g, True,
     """Twin of case-c09-firefighter-bo-infected.txt: Spitter and two face-down zombies beat Firefighter Bo (3 vs 3), he takes one wound (line {w}) and no Infected token. Legal.""",
     decks={"Bob": CW})


# --------------------------------------------------------------------------- readying outside the Ready phase
def ready(variant: str):
    g, s = new(pov="Bob")
    g.setup([("Alice", 8), ("Bob", 9)], "Alice",
            {"Alice": ["Kyle Bjorn", "Old Pete", "Nurse Ratchet"],
             "Bob": ["Trucker Earl", "Mall Cop Randy", "Grocery Clerk Tom"]})
    first = {"nonfast": "Rotting Neighbour", "fast": "Sprinter", "misclick": "Rotting Neighbour"}.get(variant)
    s.turn(res={"Bob": first} if first else {}, names={"Bob": [first or "Shambler", "Gross Ghoul"]},
           nxt="Bob")
    z = s.z["Bob1"]

    def b2(g):
        if variant in ("nonfast", "fast", "misclick"):
            g.flip(z)
        if variant == "misclick":
            g.spend(z)
            g.ready_card(z, mark="v")

    def r2(g):
        g.to_combat(z)
        if variant == "nonfast":
            g.ready_card(z, mark="v")
        if variant == "fast":
            g.mark("v")

    def e2(g):
        if variant == "end":
            g.ready_card(z, mark="v")

    s.turn(build=b2, recoup=r2, end=e2, nxt="Alice")
    g.mark("t3")
    return g


g = ready("nonfast")
case("case-c10-non-fast-zombie-readied-after-move.txt", g, False,
     """Bob's log. Bob turns up Rotting Neighbour (Tough, not Fast) on turn 2, spends it and moves it to his combat zone in his Recoup, then readies it (line {v}). Only a Fast zombie is readied as it arrives; every other card is readied only in a Ready phase.""",
     [("v", "4", "Cards are readied in the Ready phase; Rotting Neighbour has no Fast, so it stays spent after its move to the combat zone.")],
     {"Alice": RAGE, "Bob": HORDE})
g = ready("end")
case("case-c10-zombie-readied-in-end-phase.txt", g, False,
     """Bob's log. On turn 2 Bob spends a face-down card and moves it to his combat zone (legal), then in the End phase readies it (line {v}).""",
     [("v", "4", "Readying happens only in the Ready phase (or by Fast on arrival, for a face-up Fast zombie); a ready in the End phase is not allowed.")],
     {"Alice": RAGE, "Bob": HORDE})
g = ready("fast")
case("case-c10-twin-fast-zombie-readied.txt", g, True,
     """Twin of case-c10-non-fast-zombie-readied-after-move.txt: the zombie is Sprinter (Fast); it is spent, moved to the combat zone and readied (line {v}) as Fast allows. Legal.""",
     decks={"Alice": RAGE})
g = ready("plain")
case("case-c10-twin-readied-next-ready-phase.txt", g, True,
     """Twin of case-c10-zombie-readied-in-end-phase.txt: the face-down card moved to the combat zone stays spent through the End phase and is readied by Ready All in the Ready phase of turn 3 (after line {t3}). Legal.""",
     decks={"Alice": RAGE, "Bob": HORDE})
g = ready("misclick")
case("case-c10-twin-spend-misclick-undone.txt", g, True,
     """Twin of case-c10-non-fast-zombie-readied-after-move.txt: in his Build phase Bob misclicks Spend on the Rotting Neighbour he just turned up and readies it again at once (line {v}), an exact undo of a card that was ready; in Recoup it is moved to the combat zone and stays spent. Legal.""",
     decks={"Alice": RAGE, "Bob": HORDE})


# --------------------------------------------------------------------------- face-up zombies dragged to the combat zone
def drag(variant: str):
    g, s = new()
    g.setup([("Alice", 8), ("Bob", 9)], "Alice",
            {"Alice": ["Old Pete", "Kyle Bjorn"], "Bob": ["Kyle Bjorn", "Nurse Ratchet", "Dumpster Dave"]})
    card = "Sprinter" if variant == "sprinter" else "Howling Berserker"
    s.turn(res={"Bob": card}, nxt="Bob")
    z = s.z["Bob1"]

    def r2(g):
        g.spend(z)
        z.zone = "combat"
        g.mark("s")
        if variant == "sprinter":
            g.ready_card(z)

    def e2(g):
        if variant == "late":
            g.ready_card(z, mark="v")

    s.turn(build=lambda g: g.flip(z), recoup=r2, end=e2, nxt="Alice")

    def a3(g):
        g.chat("Bob", f"{card} on Old Pete")
        g.fight([z], "Old Pete", expect="wound")
        g.mark("f")

    s.turn(attack=a3, nxt="Bob")
    return g


g = drag("sprinter")
case("case-c11-twin-face-up-sprinter-dragged-to-combat.txt", g, True,
     """Bob (Rage starter) turns Sprinter up on turn 2; in his Recoup he spends it and readies it (line {s} and the next) with no To Combat counter: the move to the combat zone is a drag on the table, which Lackey does not log, and Fast readies it. On turn 3 Sprinter (2) beats Old Pete (2, tie) and Pete gets a wound (line {f}); Bob has no other zombie that could have fought. The log is consistent with a legal game: no violation.""",
     decks={"Alice": RAGE, "Bob": RAGE})
g = drag("berserker")
case("case-c11-twin-face-up-berserker-dragged-to-combat.txt", g, True,
     """Bob turns up Howling Berserker (Fierce, not Fast) on turn 2 and spends it in his Recoup (line {s}) with no To Combat counter: dragged to the combat zone. It is readied in turn 3's Ready phase and beats Old Pete (2 vs 2): 1 wound + 1 for Fierce, Pete dies (up to line {f}). Only the Berserker can explain the fight. Legal.""",
     decks={"Alice": RAGE, "Bob": RAGE})
g = drag("late")
case("case-c11-dragged-berserker-readied-in-end-phase.txt", g, False,
     """As case-c11-twin-face-up-berserker-dragged-to-combat.txt, but Bob readies the Howling Berserker he spent in his Recoup (line {s}) in his End phase (line {v}); it is not an undo (a phase line lies between). The fight of turn 3 is legal either way (the Berserker is ready after turn 3's Ready phase).""",
     [("v", "4", "A spent card is readied only in the Ready phase; Howling Berserker has no Fast, and the End phase readies nothing.")],
     {"Alice": RAGE, "Bob": RAGE})


# --------------------------------------------------------------------------- a game reloaded from a save the log never showed
def reload(variant: str):
    g, s = new()
    g.setup([("Alice", 9), ("Bob", 10)], "Alice",
            {"Alice": ["Nurse Ratchet"], "Bob": ["Trucker Earl", "Mall Cop Randy", "Paramedic Joe"]})
    s.turn(nxt="Bob")

    def r2(g):
        for z in list(g.p["Bob"].zombies):
            g.to_combat(z)

    s.turn(recoup=r2, end=lambda g: g.mark("save"))
    snap = copy.deepcopy((g.p, g.phase, g.active, g.turn_no, g.fillers))
    g.next_turn("Alice")

    def a3(g):
        g.chat("Bob", "both on Nurse Ratchet")
        g.fight(g.attackers("Bob"), "Nurse Ratchet", expect="overwhelm")
        g.mark("lost")

    s.turn(names={"Alice": ["Molotov Cocktail", "Feral Teenager"]}, discards={"Alice": "Feral Teenager"},
           attack=a3, stop="Attack")
    g.chat("Alice", "no survivors, I lose... wait, I had a Molotov for those two")
    g.chat("Bob", "ok, I'll load the autosave from the end of my turn")
    g.raw("Bob loads a saved game from AutoSave1.txt", "load")
    g.p, g.phase, g.active, g.turn_no, g.fillers = snap
    g.next_turn("Alice")
    alice_r1 = s.z["Alice1"]
    if variant == "third":
        g.to("Draw")
        g.raw("Alice draws Molotov Cocktail.")
        g.raw("Alice draws Feral Teenager.")
        g.raw("Alice draws Canned Food.", "v")
        g.p["Alice"].hand += ["Molotov Cocktail", "Feral Teenager", "Canned Food"]
        g.discard_hand("Alice", "Feral Teenager")
        g.draws("Bob")
        g.discard_hand("Bob", "Gross Ghoul")
        s.turn_no_draw = True

    def b3(g):
        g.play("Alice", "Molotov Cocktail", [alice_r1])
        for z in g.attackers("Bob"):
            g.spend(z)
        g.item_to_discard("Alice", "Molotov Cocktail")
        g.mark("molotov")

    if variant == "third":
        g.to("Build")
        g.resource("Alice")
        g.resource("Bob")
        b3(g)
        g.to("Recoup")
        g.upkeep([])
        g.to("End")
        g.next_turn("Bob")
    else:
        s.turn(names={"Alice": ["Molotov Cocktail", "Feral Teenager"]},
               discards={"Alice": "Feral Teenager", "Bob": "Gross Ghoul"}, build=b3, nxt="Bob")
    return g


g = reload("legal")
case("case-c12-twin-reload-from-autosave-after-loss.txt", g, True,
     """Alice opens with only Nurse Ratchet. On turn 2 Bob moves his two face-down cards to his combat zone. On turn 3 both fight Nurse Ratchet (2 vs 1: overwhelmed) and she dies (line {lost}): Alice has no survivors and has lost. The players then load Lackey's autosave from the end of Bob's turn 2 (line {load}); no "saves the game" line was ever logged. The game goes back to that point, the turn-3 line is written again, and Alice (no longer lost) plays turn 3 anew: she pays 1 resource for Molotov Cocktail, which spends Bob's two attackers (up to line {molotov}), and pays her upkeep. After a load the table is the saved one, not the one the log led to: nothing after line {load} breaks a rule. Legal.""",
     decks={"Alice": RAGE, "Bob": HORDE})
g = reload("third")
case("case-c12-reload-then-third-draw.txt", g, False,
     """As case-c12-twin-reload-from-autosave-after-loss.txt: Alice loses on turn 3 and the autosave from the end of turn 2 is loaded (line {load}). In the replayed Draw phase Alice draws three cards (the third at line {v}) and discards one. Whatever the loaded table was, a Draw phase has exactly two draws.""",
     [("v", "5", "Each player draws exactly 2 cards in the Draw phase; Alice's third draw breaks that in any loaded state.")],
     {"Alice": RAGE, "Bob": HORDE})


# --------------------------------------------------------------------------- food below 0 to the end of the log
def food(variant: str):
    g, s = new()
    g.setup([("Alice", 1), ("Bob", 6)], "Alice",
            {"Alice": ["Kyle Bjorn", "Old Pete"], "Bob": ["Trucker Earl", "Mall Cop Randy", "Paramedic Joe"]})
    s.turn(upkeep=["Kyle Bjorn", "Old Pete"], nxt="Bob")
    s.turn(nxt="Alice")
    s.turn(stop="Recoup")
    if variant == "below":
        g.raw("Alice changes Alice's Food to -1. (from 0 to -1) (-1)", "v")
    else:
        g.chat("Alice", "no food left", mark="v")
    g.wound(g.surv("Kyle Bjorn"))
    g.wound(g.surv("Old Pete"))
    g.mark("end")
    return g


g = food("below")
case("case-c13-food-below-zero-log-ends-in-recoup.txt", g, False,
     """Alice bids 1 and opens with Kyle Bjorn and Old Pete. Turn-1 upkeep takes her to 0 food and costs two wounds. On turn 3 she lowers her Food from 0 to -1 for upkeep (line {v}), then puts the two starvation wounds owed at 0 food on Kyle and Pete (Pete dies). The log ends there, still in the Recoup phase, with food shown as -1.""",
     [("v", "12", "Food never goes below 0: at 0 there is no upkeep food to lose, so the change to -1 is not allowed.")],
     {"Alice": RAGE, "Bob": HORDE})
g = food("zero")
case("case-c13-twin-food-stays-zero-log-ends-in-recoup.txt", g, True,
     """Twin of case-c13-food-below-zero-log-ends-in-recoup.txt: at 0 food Alice writes no food line (chat, line {v}) and puts the two owed starvation wounds on Kyle and Pete; the log ends in the Recoup phase (line {end}). Legal.""",
     decks={"Alice": RAGE, "Bob": HORDE})


# --------------------------------------------------------------------------- Firecrackers on a face-down attacker
def firecrackers(variant: str):
    g, s = new(pov="Bob", styles=("horde", "rage"))
    g.setup([("Alice", 8), ("Bob", 9)], "Alice",
            {"Alice": ["Grocery Clerk Tom", "Trucker Earl", "Paramedic Joe"],
             "Bob": ["Kyle Bjorn", "Old Pete", "Nurse Ratchet"]})
    s.turn(names={"Alice": ["Firecrackers", "Shambler"]}, discards={"Alice": "Shambler"}, nxt="Bob")

    def r2(g):
        for z in list(g.p["Bob"].zombies):
            g.to_combat(z)

    s.turn(res={} if variant == "two" else {"Bob": False}, recoup=r2, nxt="Alice")
    a1 = s.z["Alice1"]

    def b3(g):
        g.play("Alice", "Firecrackers", [a1])
        g.spend(g.attackers("Bob")[0])
        g.item_to_discard("Alice", "Firecrackers")
        g.mark("fc")

    def a3(g):
        g.chat("Bob", "face-down zombie on Grocery Clerk Tom")
        if variant == "two":
            g.fight(g.attackers("Bob"), "Grocery Clerk Tom", expect="wound")
            g.mark("v")
        else:
            assert not g.attackers("Bob")
            g.wound(g.surv("Grocery Clerk Tom"), mark="v")

    s.turn(res={"Bob": False}, build=b3, attack=a3, nxt="Bob")
    return g


g = firecrackers("one")
case("case-c14-firecrackers-spent-attacker-still-wounds.txt", g, False,
     """Bob's log. Bob (Rage) has a single face-down card all game (he plays no resource on turns 2 and 3) and moves it to his combat zone on turn 2. On turn 3 Alice (Horde) pays 1 for Firecrackers ("Target zombie in a combat zone is spent") and Bob spends that face-down card (up to line {fc}). In the Attack phase Bob has no ready zombie in a combat zone, so nothing attacks; yet Grocery Clerk Tom gets a wound (line {v}).""",
     [("v", "10", "Bob's only zombie was spent by Firecrackers before the Attack phase; a spent zombie does not attack, so no fight can wound Grocery Clerk Tom.")],
     {"Alice": HORDE, "Bob": RAGE})
g = firecrackers("two")
case("case-c14-twin-firecrackers-one-of-two-attackers.txt", g, True,
     """Twin of case-c14-firecrackers-spent-attacker-still-wounds.txt (Bob's log): Bob has two face-down cards, both moved to his combat zone on turn 2. Firecrackers spends one (line {fc}); the other (1) fights Grocery Clerk Tom (1): a tie, the zombie wins, Tom gets a wound (line {v}). Legal.""",
     decks={"Alice": HORDE, "Bob": RAGE})


# --------------------------------------------------------------------------- a one-shot item discarded before the fight it changes
def adrenaline(variant: str):
    g, s = new()
    g.setup([("Alice", 8), ("Bob", 9)], "Alice",
            {"Alice": ["Nurse Ratchet", "Dumpster Dave"], "Bob": ["Trucker Earl", "Mall Cop Randy", "Paramedic Joe"]})
    s.turn(res={"Bob": "Sprinter"}, names={"Alice": ["Adrenaline Shot", "Frenzied Runner"]},
           discards={"Alice": "Frenzied Runner"}, nxt="Bob")
    spr = s.z["Bob1"]
    s.turn(build=lambda g: g.flip(spr), recoup=lambda g: g.to_combat(spr), nxt="Alice")
    a1 = s.z["Alice1"]

    def b3(g):
        if variant == "shot":
            g.play("Alice", "Adrenaline Shot", [a1])
            g.chat("Alice", "Adrenaline Shot on Nurse Ratchet")
            g.item_to_discard("Alice", "Adrenaline Shot")
            g.mark("shot")

    def a3(g):
        g.chat("Alice", "Nurse Ratchet blocks Sprinter")
        if variant == "shot":
            g.fight([spr], "Nurse Ratchet", spower=3, expect="spent")
            g.mark("v")
        else:
            g.spend(spr, mark="v")

    s.turn(build=b3, attack=a3, nxt="Bob")
    return g


g = adrenaline("shot")
case("case-c15-twin-adrenaline-shot-discarded-before-fight.txt", g, True,
     """Alice's survivors are Nurse Ratchet (1) and Dumpster Dave (1). Bob turns Sprinter (2, Fast) up and moves it to his combat zone on turn 2. On turn 3 Alice pays 1 for Adrenaline Shot ("Target survivor gets +2 power until end of turn, then discard Adrenaline Shot") on Nurse Ratchet; the Shot goes to her discard pile at once (line {shot}), but its +2 lasts until the end of the turn. In the Attack phase Nurse Ratchet (3) beats Sprinter (2), which is spent (line {v}). Legal.""")
g = adrenaline("none")
case("case-c15-sprinter-loses-to-nurse-without-shot.txt", g, False,
     """Twin of case-c15-twin-adrenaline-shot-discarded-before-fight.txt without the Adrenaline Shot: in turn 3 Sprinter (2) is spent as if it lost a fight (line {v}), but Alice's survivors have power 1 and 1 (2 together): Sprinter wins every fight (ties go to the zombies).""",
     [("v", "10", "No survivor of Alice's, nor both together, has more power than Sprinter (2), and no card raised their power: Sprinter cannot lose, so its Spend in the Attack phase is impossible.")])


# --------------------------------------------------------------------------- a card that allows a second resource
def second(variant: str):
    g, s = new(pov="Bob", styles=("rage", "horde"))
    g.setup([("Alice", 8), ("Bob", 9)], "Alice",
            {"Alice": ["Kyle Bjorn", "Old Pete", "Nurse Ratchet"],
             "Bob": ["Trucker Earl", "Mall Cop Randy", "Paramedic Joe"]})
    card = "Shambler" if variant == "shambler" else "Shuffling Crowd"
    s.turn(res={"Bob": card}, names={"Bob": [card, "Gross Ghoul"]}, discards={"Bob": "Gross Ghoul"},
           nxt="Bob")
    z = s.z["Bob1"]

    def b2(g):
        g.flip(z)
        if variant == "hand":
            g.resource("Bob")
            g.mark("v")
        else:
            g.raw("Bob plays a face down card from the top of his Deck.", "v")
            g.p["Bob"].zombies.append(Zomb("?deck", "Bob"))

    s.turn(build=b2, nxt="Alice")
    return g


g = second("crowd")
case("case-c16-twin-shuffling-crowd-second-resource.txt", g, True,
     """Bob's log. Bob's turn-1 resource is Shuffling Crowd ("When Shuffling Crowd is turned face up, you may put the top card of your deck into your resource zone face down"). On turn 2 he plays his resource from his hand, turns Shuffling Crowd up, and puts the top card of his deck into his resource zone face down (line {v}). That card comes from the deck by the Crowd's text, not as his one card from hand. Legal.""",
     decks={"Alice": RAGE, "Bob": HORDE})
g = second("shambler")
case("case-c16-shambler-second-resource-from-deck.txt", g, False,
     """As case-c16-twin-shuffling-crowd-second-resource.txt, but the card Bob turns up is Shambler (no such text) and he still puts the top card of his deck into his resource zone (line {v}).""",
     [("v", "6", "Nothing allows Bob a second card to his resource zone: Shambler's text does nothing of the kind, and no Scavenger rolled a 1.")],
     {"Alice": RAGE, "Bob": HORDE})
g = second("hand")
case("case-c16-crowd-second-resource-from-hand.txt", g, False,
     """As case-c16-twin-shuffling-crowd-second-resource.txt, but after turning Shuffling Crowd up Bob plays a second card face down from his hand (line {v}) instead of the top card of his deck.""",
     [("v", "6", "One card per turn from the hand to the resource zone; Shuffling Crowd allows the top card of the deck, not a second card from the hand.")],
     {"Alice": RAGE, "Bob": HORDE})


def toml(cases: list[dict], extra: dict | None = None) -> str:
    import json
    out = []
    for c in cases:
        out.append("[[log]]")
        out.append(f"file = {json.dumps(c['file'])}")
        out.append(f"pov = {json.dumps(c['pov'])}")
        out.append(f"players = {json.dumps(c['players'])}")
        for k, v in (extra or {}).items():
            out.append(f"{k} = {json.dumps(v, ensure_ascii=False)}")
        if c.get("cards"):
            out.append(f"cards = {json.dumps(c['cards'])}")
        if c["decks"]:
            inner = ", ".join(f"{p} = {json.dumps(d)}" for p, d in c["decks"].items())
            out.append(f"decks = {{ {inner} }}")
        out.append(f"legal = {'true' if c['legal'] else 'false'}")
        assert '"""' not in c["about"] and "\\" not in c["about"]
        out.append(f'about = """{c["about"]}"""')
        for line, rule, why in c["violations"]:
            out.append("[[log.violations]]")
            out.append(f"line = {line}")
            out.append(f"rule = {json.dumps(rule)}")
            out.append(f"why = {json.dumps(why, ensure_ascii=False)}")
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":
    sys.stdout.write(toml(CASES))
