"""Shared turn skeleton for the judge's scripted games (see judge_game.py)."""

from __future__ import annotations

from itertools import cycle

from judge_game import Game

DISCARDS = {
    "rage": ["Canned Food", "Frenzied Runner", "Soccer Mom Linda", "Bandages", "Feral Teenager",
             "Dumpster Dave", "Molotov Cocktail", "Hunter Jed"],
    "horde": ["Shambler", "Gross Ghoul", "Mall Cop Randy", "Boarded Windows", "Swarm Caller",
              "Librarian Ruth", "Canned Food", "Crawling Torso"],
    "runners": ["Crowbar", "Road Runner", "Tin of Beans", "Screamer", "Teen Lookout",
                "Sprinting Dead", "Crowbar", "Road Runner"],
    "crowd": ["Shuffler", "Mob", "Tin of Beans", "Drooler", "Gas Can", "Trucker Vi", "Shuffler",
              "Mob"],
    "cw": ["Lab Escapee", "Road Map", "Grandma Edna", "Weeping Sores", "Zoë Park", "Pipe Wielder",
           "Bandages", "Spitter"],
}


POOLS = {
    "rage": ["Sprinter", "Feral Teenager", "Frenzied Runner", "Baseball Bat", "Howling Berserker",
             "Soccer Mom Linda", "Meat Stalker", "Kamikaze Corpse", "Molotov Cocktail"],
    "horde": ["Shambler", "Gross Ghoul", "Canned Food", "Rotting Neighbour", "Crawling Torso",
              "Mall Cop Randy", "Swarm Caller", "Fire Axe"],
    "runners": ["Road Runner", "Crowbar", "Sprinting Dead", "Tin of Beans", "Screamer",
                "Road Runner", "Teen Lookout", "Crowbar"],
    "crowd": ["Shuffler", "Tin of Beans", "Mob", "Gas Can", "Drooler", "Shuffler", "Trucker Vi",
              "Mob"],
    "cw": ["Lab Escapee", "Weeping Sores", "Road Map", "Zombie Dog", "Festering Corpse",
           "Pipe Wielder", "Zoë Park", "Riot Armour"],
}


class Script:
    def __init__(self, g: Game, styles: dict[str, str]):
        self.g = g
        self.disc = {p: cycle(DISCARDS[s]) for p, s in styles.items()}
        self.pool = {p: cycle(POOLS[s]) for p, s in styles.items()}
        self.z: dict[str, object] = {}

    def turn(self, res=None, build=None, attack=None, recoup=None, upkeep=(), end=None,
             nxt=None, names=None, discards=None, stop=None, fed=0, draw=None):
        g = self.g
        res = res if res is not None else {}
        discards = discards or {}
        names = dict(names or {})
        if g.pov not in names:
            names[g.pov] = [next(self.pool[g.pov]), next(self.pool[g.pov])]
        disc = {p: discards.get(p) or next(self.disc[p]) for p in g.order}
        if g.pov not in discards:
            disc[g.pov] = names[g.pov][1]
        if draw:
            draw(g, disc, names)
        else:
            g.draw_phase(disc, names)
        if stop == "Draw":
            return
        g.to("Build")
        for p in g.turn_order():
            card = res.get(p, True)
            if card is False:
                continue
            z = g.resource(p, None if card is True else card)
            self.z[f"{p}{g.turn_no}"] = z
        if build:
            build(g)
        if stop == "Build":
            return
        g.to("Attack")
        if attack:
            attack(g)
        if stop == "Attack":
            return
        g.to("Recoup")
        if recoup:
            recoup(g)
        if stop == "Recoup":
            return
        g.upkeep(list(upkeep), fed=fed)
        if stop == "Upkeep":
            return
        g.to("End")
        if end:
            end(g)
        if nxt:
            g.next_turn(nxt)
