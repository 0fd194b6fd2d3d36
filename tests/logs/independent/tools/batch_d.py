"""Batch D of the independent corpus: games with another designer's card set (sets/lastlight.txt).

Run from this folder: python batch_d.py  (writes the logs and prints the expected.toml entries).
"""

from __future__ import annotations

import sys
from pathlib import Path

from batch_c import toml
from common import Script
from judge_game import Game

OUT = Path(__file__).resolve().parents[1]
SET = OUT / "sets" / "lastlight.txt"
CASES: list[dict] = []
DECKS = {"Alice": "lastlight-runners.txt", "Bob": "lastlight-crowd.txt"}


def case(file, g, legal, about, violations=()):
    g.write(OUT / file)
    CASES.append(dict(file=file, pov=g.pov, players=list(g.order), decks=DECKS, legal=legal,
                      cards="sets/lastlight.txt", about=about.format(**g.marks), violations=[
                          (g.marks[k], rule, why.format(**g.marks)) for k, rule, why in violations]))


def new(pov="Alice", pron="his"):
    g = Game(pov, pron=pron, cards=SET)
    s = Script(g, {"Alice": "runners", "Bob": "crowd"})
    return g, s


# --------------------------------------------------------------------------- Walkie-Talkie
def walkie(variant: str):
    g, s = new()
    g.setup([("Alice", 8), ("Bob", 9)], "Alice",
            {"Alice": ["Doc Halloway", "Deputy Reyes", "Teen Lookout"],
             "Bob": ["Trucker Vi", "Nurse Ada", "Magpie"]})

    def b1(g):
        if variant != "plain":
            g.play("Alice", "Walkie-Talkie", [s.z["Alice1"]])
            g.mark("wt")

    s.turn(names={"Alice": ["Walkie-Talkie", "Road Runner"]}, discards={"Alice": "Crowbar"},
           build=b1, nxt="Bob")

    def d2(g, disc, names):
        g.to("Draw")
        g.draws("Bob")
        if variant == "opponent":
            g.raw("Bob draws a card.", "v")
            g.p["Bob"].hand.append("?x")
        g.discard_hand("Bob", disc["Bob"])
        g.draws("Alice", ["Screamer", "Tin of Beans"])
        g.discard_hand("Alice", "Tin of Beans")

    s.turn(draw=d2, nxt="Alice")

    def d3(g, disc, names):
        g.to("Draw")
        g.draws("Alice", ["Sprinting Dead", "Crowbar"])
        if variant != "plain":
            g.chat("Alice", "Walkie-Talkie: one more")
        g.raw("Alice draws Road Runner.", "own" if variant != "plain" else "v")
        g.p["Alice"].hand.append("Road Runner")
        g.discard_hand("Alice", "Crowbar")
        g.draws("Bob")
        g.discard_hand("Bob", disc["Bob"])

    s.turn(draw=d3, nxt="Bob")
    return g


g = walkie("legal")
case("case-d01-walkie-talkie-own-draw-phase.txt", g, True,
     """Alice (Last Light "Runners" starter) pays 1 for Walkie-Talkie ("Permanent. During your Draw phase: draw a card.") on turn 1 (line {wt}). In Bob's turn 2 she draws 2 and discards 1 as everyone does. In the Draw phase of her own turn 3 she draws 2, then one more by the Walkie-Talkie (line {own}), and discards 1. Legal.""")
g = walkie("opponent")
case("case-d02-opponent-third-draw-with-walkie-talkie.txt", g, False,
     """As case-d01-walkie-talkie-own-draw-phase.txt, but in the Draw phase of turn 2 Bob draws a third card (line {v}). The only Walkie-Talkie in play is Alice's; its text lets its controller draw, in his own Draw phase; Bob controls none. Alice's own extra draw on turn 3 (line {own}) is legal.""",
     [("v", "5", "Bob draws 2 cards in the Draw phase; the Walkie-Talkie in play is Alice's and gives nothing to Bob, so his third draw is not allowed.")])
g = walkie("plain")
case("case-d03-third-draw-with-restated-medic.txt", g, False,
     """As case-d01-walkie-talkie-own-draw-phase.txt, but Alice never plays the Walkie-Talkie. On turn 3 she draws three cards (the third at line {v}). Her Doc Halloway (Medic, "Recoup: spend Doc Halloway to take a wound counter off a survivor") has nothing to do with drawing; no card in play allows an extra draw.""",
     [("v", "5", "Each player draws exactly 2 cards in the Draw phase; no card in play gives Alice a third.")])


# --------------------------------------------------------------------------- Quartermaster Lee: a second resource
def quartermaster(variant: str):
    g, s = new()
    g.setup([("Alice", 8), ("Bob", 9)], "Alice",
            {"Alice": ["Quartermaster Lee", "Deputy Reyes", "Teen Lookout"],
             "Bob": ["Trucker Vi", "Nurse Ada", "Magpie"]})

    def b1(g):
        z = g.resource("Alice", "Road Runner")
        g.mark("second")
        g.flip(z)
        s.z["rr"] = z

    s.turn(names={"Alice": ["Road Runner", "Crowbar"]}, build=b1,
           recoup=lambda g: (g.to_combat(s.z["rr"]), g.mark("rrready")), nxt="Bob")

    def b2(g):
        if variant == "their-build":
            g.resource("Alice")
            g.mark("v")

    s.turn(build=b2, nxt="Alice")
    s.turn(build=lambda g: (g.resource("Alice"), g.mark("third")), nxt="Bob")
    return g


g = quartermaster("legal")
case("case-d04-quartermaster-second-resource.txt", g, True,
     """Alice opens with Quartermaster Lee ("During your Build phase, you may play one additional card from your hand to your resource zone face down"). In her Build phase of turn 1 she plays two cards face down (the second at line {second}), turns up Road Runner (Fast, no rules text) and in her Recoup moves it to her combat zone, where Fast readies it (line {rrready}). In Bob's turn 2 she plays one resource; in her turn 3, two again (line {third}). Legal.""")
g = quartermaster("their-build")
case("case-d04-quartermaster-second-resource-in-opponents-build.txt", g, False,
     """As case-d04-quartermaster-second-resource.txt, but in Bob's Build phase of turn 2 Alice also plays a second card face down (line {v}). Quartermaster Lee's extra card is for "your Build phase", the Build phase of Alice's own turn.""",
     [("v", "6", "One card per turn from the hand to the resource zone; Quartermaster Lee adds one only in the Build phase of his controller's own turn, and turn 2 is Bob's.")])


# --------------------------------------------------------------------------- Camp Cook Marta feeds a survivor
def marta():
    g, s = new(pov="Bob")
    g.setup([("Alice", 9), ("Bob", 0)], "Alice",
            {"Alice": ["Deputy Reyes", "Teen Lookout", "Doc Halloway"],
             "Bob": ["Camp Cook Marta", "Magpie"]})
    s.turn(nxt="Bob")

    def up2(g):
        g.chat("Bob", "Marta feeds Magpie")

    s.turn(recoup=lambda g: (g.scavenge("Bob", "Magpie", 4), up2(g)), upkeep=["Camp Cook Marta"],
           fed=1, nxt="Alice")
    g.mark("t2")
    s.turn(nxt="Bob")
    s.turn(recoup=lambda g: (g.scavenge("Bob", "Magpie", 1), g.chat("Bob", "Marta feeds Magpie again"),
                             g.mark("r4")),
           upkeep=["Camp Cook Marta"], fed=1, nxt="Alice")
    return g


g = marta()
case("case-d05-camp-cook-feeds-a-survivor.txt", g, True,
     """Bob's log. Bob bids 0 and wins (Alice starts); he opens with Camp Cook Marta ("At the end of your Recoup phase, Marta feeds one survivor you control: when you count survivors in excess of your food, do not count that survivor") and Magpie (Scavenger, no text). Turn 2: Magpie's roll gives 1 food, upkeep takes it back to 0; two survivors, one fed: one in excess, one wound on Marta (before line {t2}). Turn 4: Magpie rolls a 1 (Alice puts her top card into her resource zone, line {r4}), food stays 0 with no food line, Marta feeds Magpie again: one wound on Marta (2 of 3). Legal.""")


# --------------------------------------------------------------------------- Kevlar Vest
def kevlar(variant: str):
    g, s = new()
    g.setup([("Alice", 8), ("Bob", 9)], "Alice",
            {"Alice": ["Scrounger Sam", "Deputy Reyes", "Teen Lookout"],
             "Bob": ["Trucker Vi", "Nurse Ada", "Magpie"]})
    s.turn(names={"Alice": ["Kevlar Vest", "Sprinting Dead"]}, nxt="Bob")

    def r2(g):
        for z in list(g.p["Bob"].zombies):
            g.to_combat(z)

    s.turn(recoup=r2, nxt="Alice")

    def b3(g):
        g.play("Alice", "Kevlar Vest", [s.z["Alice1"], s.z["Alice2"]])
        g.chat("Alice", "Kevlar Vest on Scrounger Sam")
        g.mark("kv")

    def a3(g):
        g.chat("Bob", "both on Scrounger Sam")
        sam = g.surv("Scrounger Sam")
        if variant == "prevent":
            g.chat("Alice", "the vest takes it")
            g.item_to_discard("Alice", "Kevlar Vest")
            g.mark("v")
        else:
            g.wound(sam, mark="w1")
            g.raw("Alice performs Wound (1 to 2) (+1) on Scrounger Sam.", "v")
            g.p["Alice"].survivors.remove(sam)
            g.raw("Alice moves Scrounger Sam from the table to the top of his Discard.")
            g.item_to_discard("Alice", "Kevlar Vest")

    s.turn(build=b3, attack=a3, nxt="Bob")
    return g


g = kevlar("prevent")
case("case-d06-kevlar-vest-prevents-wound.txt", g, True,
     """Alice pays 2 for Kevlar Vest ("Attach to a survivor you control. Discard Kevlar Vest: prevent one wound that survivor would suffer") and puts it on Scrounger Sam (line {kv}). Bob's two face-down zombies (moved to combat on turn 2) fight Sam (2 vs 2: the zombies win, not double: one wound); Alice discards the Vest to prevent that wound (line {v}) and Sam takes none. Legal.""")
g = kevlar("extra")
case("case-d07-extra-wound-with-kevlar-vest.txt", g, False,
     """As case-d06-kevlar-vest-prevents-wound.txt, but the Vest is not used: Sam takes the fight's one wound (line {w1}) and then a second (line {v}), dies, and the Vest goes to the discard pile with him. Two face-down zombies (1+1) against Sam (2) win but are not double and not Fierce: one wound. A Kevlar Vest can only prevent a wound, never add one.""",
     [("v", "10", "The fight gives Sam exactly one wound (2 vs 2, no Fierce, not double); the second wound has no cause, and the Kevlar Vest in play only prevents wounds.")])


# --------------------------------------------------------------------------- Scrounger Sam rolls while spent
def scrounger(variant: str):
    g, s = new(pron="their")
    g.setup([("Alice", 8), ("Bob", 9)], "Alice",
            {"Alice": ["Scrounger Sam", "Deputy Reyes", "Doc Halloway"],
             "Bob": ["Trucker Vi", "Nurse Ada", "Magpie"]})

    def r1(g):
        g.scavenge("Alice", "Scrounger Sam", 4, mark="r1")
        if variant == "twice":
            g.chat("Alice", "and again")
            g.raw("Alice rolls a 6-sided die... result: 5", "v")
            g.food_line("Alice", g.p["Alice"].food + 1)

    s.turn(recoup=r1, nxt="Bob")
    s.turn(nxt="Alice")
    return g


g = scrounger("once")
case("case-d08-twin-scrounger-sam-rolls-once.txt", g, True,
     """Alice's log (pronoun "their"). Scrounger Sam (Scavenger; "Recoup: spend Scrounger Sam and roll a die. On 2 or more, gain 1 food; ...") is spent and rolls once in Alice's turn-1 Recoup (line {r1}): 4, one food. Legal.""")
g = scrounger("twice")
case("case-d08-scrounger-sam-rolls-while-spent.txt", g, False,
     """As case-d08-twin-scrounger-sam-rolls-once.txt, but after Sam's roll (line {r1}) Alice rolls again (line {v}) and takes another food. Sam is already spent; his ability needs him to be spent as its cost, and Alice has no other Scavenger or roll.""",
     [("v", "12", "Scrounger Sam is already spent from his first roll; a Scavenger attracts attention by spending himself, so a second roll (and its food) is not allowed.")])


# --------------------------------------------------------------------------- an impossible fight with Farmhand Gus in play
def gus(variant: str):
    g, s = new(pov="Bob")
    g.setup([("Alice", 8), ("Bob", 9)], "Alice",
            {"Alice": ["Farmhand Gus", "Teen Lookout"], "Bob": ["Trucker Vi", "Nurse Ada", "Magpie"]})

    def gus_food(g):
        g.food_line("Alice", g.p["Alice"].food + 1)

    s.turn(res={"Bob": "Heavy"}, recoup=gus_food, nxt="Bob")
    h = s.z["Bob1"]
    s.turn(names={"Bob": ["Heavy", "Mob"]}, build=lambda g: g.flip(h),
           recoup=lambda g: g.to_combat(h), nxt="Alice")

    def a3(g):
        if variant == "spend":
            g.chat("Alice", "Farmhand Gus blocks Heavy")
            g.spend(h, mark="v")
        else:
            g.chat("Bob", "Heavy on Teen Lookout")
            g.fight([h], "Teen Lookout", expect="overwhelm")
            g.mark("v")

    s.turn(attack=a3, recoup=lambda g: (gus_food(g), g.mark("gus")), nxt="Bob")
    return g


g = gus("spend")
case("case-d09-impossible-loss-with-farmhand-gus.txt", g, False,
     """Bob's log. Alice's survivors are Farmhand Gus (1/2, "At the start of your Recoup phase, add 1 food") and Teen Lookout (1/1). Bob turns up Heavy (power 2, Tough) on turn 2 and moves it to his combat zone. In Alice's Attack phase of turn 3 Heavy is spent as if it had lost (line {v}). No survivor of Alice's (nor both together, 2) beats 2, and she has no items. Gus's food at the start of her Recoups is legal (line {gus} on turn 3).""",
     [("v", "10", "Heavy (2) cannot lose a fight against power-1 survivors (ties go to the zombies); Farmhand Gus's text only adds food.")])
g = gus("overwhelm")
case("case-d10-twin-farmhand-gus-food-and-overwhelm.txt", g, True,
     """Twin of case-d09-impossible-loss-with-farmhand-gus.txt (Bob's log): Heavy (2) fights Teen Lookout (1), overwhelms and kills her (line {v}); Farmhand Gus adds 1 food at the start of each of Alice's Recoups (turn 3: line {gus}) before her upkeep. Legal.""")


# --------------------------------------------------------------------------- upgrades counting restated keywords
def gutripper(variant: str):
    g, s = new()
    g.setup([("Alice", 8), ("Bob", 9)], "Alice",
            {"Alice": ["Deputy Reyes", "Teen Lookout", "Scrounger Sam"],
             "Bob": ["Trucker Vi", "Nurse Ada", "Magpie"]})
    third = "Pack Leader" if variant == "short" else "Wild Thing"
    s.turn(res={"Alice": "Sprinting Dead"}, names={"Alice": ["Sprinting Dead", "Road Runner"]}, nxt="Bob")
    s.turn(res={"Alice": "Screamer"}, names={"Alice": ["Screamer", "Crowbar"]}, nxt="Alice")

    def b3(g):
        for z in (s.z["Alice1"], s.z["Alice2"], s.z["Alice3"]):
            g.flip(z)
        g.mark("flips")

    s.turn(res={"Alice": third}, names={"Alice": [third, "Tin of Beans"]}, build=b3, nxt="Bob")

    def b4(g):
        z = s.z["Alice4"]
        if variant == "short":
            z.face_up = True
            g.raw("Alice performs Flip on Gutripper.", "v")
        else:
            g.flip(z, mark="v")

    s.turn(res={"Alice": "Gutripper"}, names={"Alice": ["Gutripper", "Road Runner"]}, build=b4, nxt="Alice")
    return g


g = gutripper("short")
case("case-d11-gutripper-without-second-fast.txt", g, False,
     """Alice's face-down cards are Sprinting Dead (Fast; its text restates Fast), Screamer (Fierce; text restates Fierce) and Pack Leader (Fierce, requires 1 Fast; text restates both); she turns all three up in her Build phase of turn 3 (line {flips}). In Bob's Build phase of turn 4 she turns up Gutripper (requires 2 Fast, 1 Fierce) at line {v}: she controls only one Fast zombie (Sprinting Dead).""",
     [("v", "8", "Gutripper requires 2 Fast and 1 Fierce face-up zombies; Alice has one Fast (Sprinting Dead) and two Fierce (Screamer, Pack Leader).")])
g = gutripper("ok")
case("case-d12-twin-gutripper-with-two-fast.txt", g, True,
     """Twin of case-d11-gutripper-without-second-fast.txt: the third card is Wild Thing (Fast, Fierce; its only text is flavour, "Big, loud and hard to kill.") instead of Pack Leader. With Sprinting Dead and Wild Thing (2 Fast) and Screamer and Wild Thing (Fierce) face up, Gutripper's requirement is met when she turns it up in Bob's Build phase of turn 4 (line {v}). Legal.""")


# --------------------------------------------------------------------------- symbols printed bare, restated or in the rulebook's words
def symbols():
    g, s = new(pov="Bob")
    g.setup([("Alice", 9), ("Bob", 3)], "Bob",
            {"Alice": ["Deputy Reyes", "Teen Lookout", "Doc Halloway"],
             "Bob": ["Nurse Ada", "Old Man Harlan", "Magpie", "Trucker Vi"]})

    def r1(g):
        g.scavenge("Bob", "Old Man Harlan", 5, mark="harlan")
        g.scavenge("Bob", "Magpie", 3, mark="magpie")

    s.turn(recoup=r1, nxt="Alice")

    def r2(g):
        for z in list(g.p["Alice"].zombies):
            g.to_combat(z)

    s.turn(recoup=r2, nxt="Bob")

    def a3(g):
        zs = g.attackers("Alice")
        g.chat("Bob", "Trucker Vi blocks one")
        g.fight([zs[0]], "Trucker Vi", expect="spent")
        g.chat("Alice", "the other one on Old Man Harlan")
        g.fight([zs[1]], "Old Man Harlan", expect="wound")
        g.mark("w")

    def r3(g):
        g.medic("Bob", "Nurse Ada", "Old Man Harlan", mark="heal")
        g.scavenge("Bob", "Magpie", 2)

    s.turn(attack=a3, recoup=r3, nxt="Alice")
    return g


g = symbols()
case("case-d13-bare-and-restated-symbols.txt", g, True,
     """Bob's log. Bob bids 3, wins and goes first, with Nurse Ada (Medic, no text), Old Man Harlan (Scavenger, text in the rulebook's words "Recoup - Attract attention: If successful, add 1 food.") and Magpie (Scavenger, no text), and Trucker Vi. Turn 1: Harlan (line {harlan}) and Magpie (line {magpie}) each roll and gain a food; upkeep 5 -> 4 with four survivors: none in excess. Turn 3: Alice's two face-down zombies attack; Trucker Vi beats one (it is spent), the other beats Harlan (1 wound, line {w}); in the Recoup Nurse Ada removes it (line {heal}) and Magpie rolls again. Legal.""")


# --------------------------------------------------------------------------- Road Flare, discarded before its fight is judged
def flare():
    g, s = new()
    g.setup([("Alice", 8), ("Bob", 9)], "Alice",
            {"Alice": ["Teen Lookout", "Farmhand Gus"], "Bob": ["Trucker Vi", "Nurse Ada", "Magpie"]})

    def b1(g):
        g.play("Alice", "Road Flare", [s.z["Alice1"]])

    def gus_food(g):
        g.food_line("Alice", g.p["Alice"].food + 1)

    s.turn(res={"Bob": "Heavy"}, names={"Alice": ["Road Flare", "Crowbar"]}, build=b1,
           recoup=gus_food, nxt="Bob")
    h = s.z["Bob1"]
    s.turn(build=lambda g: g.flip(h), recoup=lambda g: g.to_combat(h), nxt="Alice")

    def a3(g):
        g.chat("Bob", "Heavy on Farmhand Gus")
        g.chat("Alice", "Road Flare on Heavy")
        g.item_to_discard("Alice", "Road Flare")
        g.mark("flare")
        g.fight([h], "Farmhand Gus", zpower=0, expect="spent")
        g.mark("v")

    s.turn(attack=a3, recoup=gus_food, nxt="Bob")
    return g


g = flare()
case("case-d14-road-flare-discarded-before-its-fight.txt", g, True,
     """Alice's survivors are Teen Lookout (1) and Farmhand Gus (1); on turn 1 she pays 1 for Road Flare ("Permanent. Discard Road Flare: a zombie fighting one of your survivors gets -2 power for that fight."). Bob turns up Heavy (2) and moves it to his combat zone on turn 2. On turn 3 Heavy fights Gus; Alice discards the Flare (line {flare}), Heavy has power 0 in that fight, loses to Gus (1) and is spent (line {v}). Without the Flare Heavy could not lose; the Flare, gone to the discard pile before the fight ends, still decides it. Gus adds 1 food at the start of each of Alice's Recoups. Legal.""")


if __name__ == "__main__":
    sys.stdout.write(toml(CASES))
