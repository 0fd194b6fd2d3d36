"""Setup (R2): when the log shows a game from its start, bids and starting food, opening
survivors and the shuffle after them, and losing at setup (R2.5).

A game is seen from its start when its setup is (seats or deck loads, opening draws of 7,
opening survivors put out from the deck), with or without a ``starts a new game.`` line
(R17.6). The first turn line, phase line or turn action ends the setup.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from lackey_plugin.log import events as ev
from zcards.game.catalogue import Kind
from zcards.game.definition import DECK, OPENING_BUDGET, STARTING_HAND
from zcards.game.rules import MAX_BID, bid_allowed, opening_fits
from zcards.game.table import NO_SURVIVORS, SETUP
from zcards.rules.bids import Bids
from zcards.rules.context import ACTIONS, Area, Context, Fact, GameEnded, Handler, SetupEnded

# Lines that do not end the setup: the setup's own lines (a die roll may choose who bids
# first) and lines that change nothing.
_SETUP_LINES = (ev.DeckLoad, ev.Shuffle, ev.StatChange, ev.NewGame, ev.GameControl, ev.DiceRoll)


@dataclass(frozen=True)
class FoodLine:
    line: int
    raw: str


class SetupRules(Area):
    """R2 and R2.5."""

    setup_only = True

    def __init__(self, ctx: Context) -> None:
        super().__init__(ctx)
        self.bids = Bids()
        self.food_lines: dict[str, FoodLine] = {}
        self.drawn: Counter[str] = Counter()  # cards drawn at setup
        self.opening_cost: Counter[str] = Counter()
        self.opening_play: dict[str, int] = {}  # line of his last opening play
        self.shuffled: set[str] = set()  # shuffled after his last opening play
        self.opened: dict[str, int] = {}  # the line where a player's opening ended (R2.4)
        self.after_opening: dict[str, tuple[ev.Event, ...]] = {}  # his actions after that line
        self._next_marker: bool | None = None  # whether the next turn/phase line is turn 1's

    def handlers(self) -> Mapping[type, Handler]:
        table: dict[type, Handler] = dict.fromkeys(ACTIONS, self._action)
        table.update(
            {
                ev.Chat: self.on_chat,
                ev.StatChange: self.on_stat,
                ev.Draw: self.on_draw,
                ev.Play: self.on_play,
                ev.Shuffle: self.on_shuffle,
                SetupEnded: self.on_setup_ended,
                GameEnded: self.on_game_ended,
            }
        )
        return table

    @property
    def in_setup(self) -> bool:
        return self.clock.number == 0 and self.clock.known and self.table.started

    # -- where the setup starts and ends -----------------------------------------------------

    def starts_game(self, event: ev.Event) -> bool:
        """Whether a line of a log not yet known to show its game's start shows the setup."""
        if isinstance(event, ev.DeckLoad):
            return True
        if isinstance(event, ev.Play):
            return event.src_zone == DECK and not event.hidden
        if isinstance(event, ev.Draw):
            total = 0
            for later in (event, *self.ctx.upcoming()):
                if isinstance(later, (ev.PhaseChange, ev.TurnChange)):
                    break
                if isinstance(later, ev.Draw) and later.player == event.player:
                    total += later.count
                elif getattr(later, "player", None) == event.player and isinstance(later, ACTIONS):
                    break
            return total >= STARTING_HAND
        return False

    def ends_setup(self, event: ev.Event) -> bool:
        """Whether a line during the setup is the first line of turn 1: a turn or phase line,
        or a turn action when no turn-1 line follows (R17.10)."""
        if isinstance(event, (ev.PhaseChange, ev.TurnChange)):
            return True
        if not isinstance(event, ACTIONS) or isinstance(event, _SETUP_LINES):
            return False
        if self._turn_one_line_follows() or not self._hands_drawn():
            return False
        if isinstance(event, ev.Draw):
            return self.drawn[event.player] >= STARTING_HAND
        if isinstance(event, ev.Play):
            if event.src_zone == DECK:
                return False
            return event.hidden or event.player in self.opened
        return True

    def _hands_drawn(self) -> bool:
        """Turn 1 cannot start before every player has drawn his opening hand."""
        return all(
            self.drawn[me.name] >= STARTING_HAND or me.name in self.opened
            for me in self.table.in_game()
        )

    def _turn_one_line_follows(self) -> bool:
        """Whether the next turn or phase line is a turn-1 line (found once: the setup ends
        at that line at the latest, so the answer holds for the whole setup)."""
        if self._next_marker is None:
            marker = next(
                (
                    e
                    for e in self.ctx.upcoming()
                    if isinstance(e, ev.TurnChange | ev.PhaseChange | ev.NewGame)
                ),
                None,
            )
            self._next_marker = isinstance(marker, ev.TurnChange) and marker.number == 1
        return self._next_marker

    # -- bids (R2.1, R2.2) -----------------------------------------------------------------

    def on_chat(self, event: ev.Chat, _: Fact) -> None:
        me = self.table.players.get(event.player)
        if not self.in_setup or me is None or not me.playing:
            return  # spectators' chat is never a bid
        bid = self.bids.read(event.player, event.text, event.line, window=not self.food_lines)
        if bid is not None and not bid_allowed(bid.value):
            self.findings.violation(
                Kind.BID_RANGE,
                f"{event.player} bids {bid.value} (0 to {MAX_BID})",
                player=event.player,
            )

    def on_stat(self, event: ev.StatChange, fact: Fact) -> None:
        self._action(event, fact)
        if self.in_setup and fact.owner is not None:
            self.food_lines[fact.owner.name] = FoodLine(event.line, event.raw)

    def _starting_food(self) -> None:
        """R2.2: the bid winner starts with his bid, everyone else with 10. The winner is read
        from the chat bids, or from the food lines where some bid is not in the chat. One
        wrong deal of the starting food is one violation, at its first wrong Food line."""
        players = [p for p in self.table.in_game() if p.food is not None]
        if not players:
            return
        food = {p.name: p.food for p in players if p.food is not None}
        wrong = self.bids.wrong_food(food)
        if not wrong:
            return
        lines = [self.food_lines[name] for name in wrong if name in self.food_lines]
        where = min(lines, key=lambda food_line: food_line.line) if lines else None
        starts = " and ".join(f"{name} with {food[name]}" for name in wrong)
        self.findings.violation(
            Kind.BID_FOOD,
            f"{starts} food: no reading of the bids allows it",
            player=wrong[0],
            line=where.line if where else None,
            text=where.raw if where else None,
        )

    # -- opening survivors (R2.3, R2.4) ----------------------------------------------------

    def on_draw(self, event: ev.Draw, fact: Fact) -> None:
        """R2.3: each player draws exactly 7 cards, his opening hand."""
        self._action(event, fact)
        if not self.in_setup:
            return
        before = self.drawn[event.player]
        self.drawn[event.player] += event.count
        me = fact.owner
        lost = me is not None and (
            me.lost is not None or (me.name in self.opened and not me.survivors)
        )
        if before <= STARTING_HAND < self.drawn[event.player] and not lost:
            self.findings.violation(
                Kind.OPENING_HAND,
                f"{event.player} draws {self.drawn[event.player]} cards at setup: an opening hand "
                f"is {STARTING_HAND}",
                player=event.player,
            )

    def on_play(self, event: ev.Play, fact: Fact) -> None:
        self._action(event, fact)
        if not self.in_setup:
            return
        name, info, who = fact.name, fact.info, event.player
        self.opening_play[who] = event.line
        self.shuffled.discard(who)
        if name is None:
            self.findings.violation(
                Kind.OPENING_SURVIVORS,
                "a face-down card put out at setup: only survivors may be",
                player=who,
            )
            return
        if event.src_zone != DECK:
            self.findings.violation(
                Kind.OPENING_SURVIVORS,
                f"{name} put out at setup from his {event.src_zone} "
                "(opening survivors come from the deck)",
                player=who,
            )
        if info is None:
            self.findings.cannot_decide(
                Kind.OPENING_SURVIVORS, f"{name} is not in the card data", player=who
            )
        elif info.type != "Survivor":
            self.findings.violation(
                Kind.OPENING_SURVIVORS,
                f"{name} is a {info.type or 'card'}, not a survivor: only survivors are put out "
                "at setup",
                player=who,
            )
        else:
            before = self.opening_cost[who]
            self.opening_cost[who] += info.cost
            if opening_fits([before]) and not opening_fits([self.opening_cost[who]]):
                self.findings.violation(
                    Kind.OPENING_SURVIVORS,
                    f"opening survivors cost {self.opening_cost[who]} in total (at most "
                    f"{OPENING_BUDGET})",
                    player=who,
                )

    def on_shuffle(self, event: ev.Shuffle, _: Fact) -> None:
        """R2.4: a player shuffles his deck after drawing his hand and putting out his opening
        survivors; that shuffle ends his opening."""
        if not self.in_setup or not (event.all_decks or event.zone == DECK):
            return
        owners = (
            [p.name for p in self.table.in_game()]
            if event.all_decks
            else [event.owner or event.player]
        )
        for name in owners:
            me = self.table.players.get(name)
            if me is None:
                continue
            self.shuffled.add(name)
            if me.hand or self.drawn[name]:
                self.opened[name] = event.line

    def on_setup_ended(self, _: SetupEnded, __: Fact) -> None:
        self._starting_food()
        for name, line in self.opening_play.items():
            if name not in self.shuffled and self.table.players[name].lost is None:
                self.findings.violation(
                    Kind.OPENING_SHUFFLE,
                    f"{name} put out his opening survivors (line {line}) but did not shuffle "
                    "his deck afterwards",
                    player=name,
                )
        self._setup_losses(setup_over=True)

    def on_game_ended(self, _: GameEnded, __: Fact) -> None:
        if self.in_setup:
            self._setup_losses(setup_over=False)

    # -- losing at setup (R2.5) ------------------------------------------------------------

    def _action(self, event: ev.Event, _: Fact) -> None:
        actor = getattr(event, "player", None)
        if self.in_setup and actor in self.opened:
            self.after_opening[actor] = (*self.after_opening.get(actor, ()), event)

    def _setup_losses(self, *, setup_over: bool) -> None:
        """R2.5: a player with no opening survivor has lost at setup (turn 0), at the shuffle
        that ended his opening, and any action of his after it broke R14.2. Decided when the
        setup ends (``setup_over``: also for a player who never shuffled) or, for a log or
        game that stops before it (the game was over), at its end."""
        for me in self.table.in_game():
            if me.survivors or not me.known:
                continue
            if me.name in self.opened:
                line = self.opened[me.name]
                self.table.lose(me.name, NO_SURVIVORS, line)
                for late in self.after_opening.get(me.name, ()):
                    self.findings.violation(
                        Kind.ACTION_AFTER_LOSS,
                        f"{me.name} put out no survivor, so he lost at setup (line {line}), "
                        "but acts again",
                        player=me.name,
                        line=late.line,
                        text=late.raw,
                        turn=0,
                        phase=SETUP,
                    )
            elif setup_over:
                event = self.clock.event
                self.table.lose(me.name, NO_SURVIVORS, event.line if event else None)
