"""One example line per log template with the event it means (pronoun "his"), for the log
tests: each is parsed and written back, and hypothesis draws whole logs from them.
"""

from __future__ import annotations

from lackey_plugin.log import events as ev
from zcards.game.definition import ZOMBIE_GAME as ZOMBIE
from zcards.game.definition import Meaning

A, B = "Alice Smith", "Bob"
MEANINGS = ZOMBIE.meanings()

# Wordings the parser reads and the writer never writes: an earlier template of the same
# event says the same event, in the wording Lackey uses.
READ_ONLY = frozenset({"perform_all_of", "own_stat"})

# (template name, line with pronoun "his", event)
EXAMPLES: list[tuple[str, str, ev.Event]] = [
    (
        "log_saved",
        "You have saved the game chat log to C:\\Lackey\\logs\\g1.txt",
        ev.System("log_saved", "You have saved the game chat log to C:\\Lackey\\logs\\g1.txt"),
    ),
    (
        "connected",
        "You have successfully connected to a game.",
        ev.System("connected", "You have successfully connected to a game."),
    ),
    (
        "deck_empty",
        "Your deck is empty, so you can't draw a card.",
        ev.System("deck_empty", "Your deck is empty, so you can't draw a card."),
    ),
    (
        "hidden_mode",
        f"{B} is now in Hidden Play mode. His opponents cannot see his cards until "
        "he turns Hidden Play mode off.",
        ev.System(
            "hidden_mode",
            f"{B} is now in Hidden Play mode. His opponents cannot see his "
            "cards until he turns Hidden Play mode off.",
            B,
        ),
    ),
    (
        "last_card_drawn",
        f"{B} announces the last card drawn: Kyle Bjorn",
        ev.System("last_card_drawn", f"{B} announces the last card drawn: Kyle Bjorn", B),
    ),
    (
        "choose_player",
        f"{A} randomly chooses a player: {B}",
        ev.System("choose_player", f"{A} randomly chooses a player: {B}", A),
    ),
    ("sit", f"{A} sits down at seat 1.", ev.Seat(A, "sit", 1)),
    ("spectate", f"{A} has joined as a spectator. {A} likes to watch.", ev.Seat(A, "spectate")),
    ("get_up", f"{B} gets up from his seat.", ev.Seat(B, "get_up")),
    ("leave", f"{B} leaves the game.", ev.Seat(B, "leave")),
    ("removed", f"{B} has been removed from the game.", ev.Seat(B, "removed")),
    ("new_game", f"{A} starts a new game.", ev.NewGame(A)),
    ("clear_table", f"{A} clears the table.", ev.GameControl(A, "clear")),
    ("save_game", f"{A} saves the game as my game.txt", ev.GameControl(A, "save", "my game.txt")),
    ("load_game", f"{A} loads a saved game from old.txt", ev.GameControl(A, "load", "old.txt")),
    ("deck_load", f"{A} loads a deck to the Deck zone and shuffles it.", ev.DeckLoad(A, "Deck")),
    ("deck_load_plain", f"{B} loads a deck.", ev.DeckLoad(B)),
    ("draw_many", f"{A} draws 7 cards.", ev.Draw(A, 7)),
    ("draw_one", f"{A} draws a card.", ev.Draw(A, 1, "a card")),
    (
        "table_to_zone_ceases",
        f"{B} moves Zombie from the table to his Removed where it ceases to exist.",
        ev.TableToZone(B, "Zombie", B, "Removed", ceases=True),
    ),
    (
        "table_to_zone",
        f"{B} moves Kyle Bjorn from the table to the top of his Discard. (Discard: 3)",
        ev.TableToZone(B, "Kyle Bjorn", B, "Discard", "top", counts={"Discard": 3}),
    ),
    (
        "move",
        f"{B} moves Old Pete from the bottom of his Deck to position 2 of {A}'s Hand. "
        "(Deck: 30, Hand: 6)",
        ev.Move(B, "Old Pete", B, "Deck", A, "Hand", "bottom", 2, counts={"Deck": 30, "Hand": 6}),
    ),
    (
        "discard",
        f"{B} discards Shotgun from his Hand to the top of his Discard.",
        ev.Move(B, "Shotgun", B, "Hand", B, "Discard", dst_pos="top", discard=True),
    ),
    (
        "random_move",
        f"{B} randomly moves a card at position 4 of his Hand to his Removed.",
        ev.Move(B, "a card", B, "Hand", B, "Removed", src_pos=4, random=True),
    ),
    (
        "random_discard",
        f"{B} randomly discards Axe from his Hand to the top of his Discard.",
        ev.Move(B, "Axe", B, "Hand", B, "Discard", dst_pos="top", discard=True, random=True),
    ),
    (
        "play",
        f"{B} plays a face down card from the top of his Deck.",
        ev.Play(B, "a face down card", B, "Deck", "top"),
    ),
    (
        "random_play",
        f"{B} randomly plays Kyle Bjorn from his Hand at position 2. (Hand: 5)",
        ev.Play(B, "Kyle Bjorn", B, "Hand", at_position=2, random=True, counts={"Hand": 5}),
    ),
    ("shuffle_all", f"{A} is shuffling all decks.", ev.Shuffle(A, all_decks=True)),
    ("shuffle_zone", f"{A} shuffles the Deck zone.", ev.Shuffle(A, "Deck")),
    ("shuffle", f"{A} shuffles his Deck.", ev.Shuffle(A, "Deck", A)),
    ("spawn_named", f"{A} spawns a card named Gross Ghoul.", ev.Spawn(A, "card", "Gross Ghoul")),
    ("clone", f"{A} clones a card named Meat Stalker.", ev.Spawn(A, "clone", "Meat Stalker")),
    ("spawn_button", f"{A} spawns a card.", ev.Spawn(A)),
    ("spawn_token", f"{A} spawns a Zombie token to the table.", ev.Spawn(A, "token", "Zombie")),
    (
        "spawn_tokens",
        f"{A} spawns 3 Zombie tokens to the table.",
        ev.Spawn(A, "token", "Zombie", 3),
    ),
    (
        "counter",
        f"{B} performs Heal (2 to 1) (-1) on Kyle Bjorn.",
        ev.CounterChange(B, "Heal", "Kyle Bjorn", 2, 1, -1, Meaning.HEAL),
    ),
    (
        "perform_all",
        f"{B} performs Ready All on all his cards.",
        ev.PerformAll(B, "Ready All", Meaning.READY_ALL),
    ),
    (
        "perform_all_of",
        f"{B} performs Ready All on all of his cards.",
        ev.PerformAll(B, "Ready All", Meaning.READY_ALL),
    ),
    (
        "perform",
        f"{B} performs Spend on a face-down card.",
        ev.Perform(B, "Spend", "a face-down card", Meaning.SPEND),
    ),
    ("face_down", f"{B} makes Gross Ghoul face down.", ev.Face(B, "Gross Ghoul", False)),
    ("face_up", f"{B} makes a face-down card face up.", ev.Face(B, "a face-down card", True)),
    (
        "edit_note",
        f"{B} edits note on Kyle Bjorn: infected: yes",
        ev.CardAction(B, "edit_note", "Kyle Bjorn", "infected: yes"),
    ),
    ("erase_note", f"{B} erases note on Kyle Bjorn.", ev.CardAction(B, "erase_note", "Kyle Bjorn")),
    (
        "take_control",
        f"{A} takes control of Kyle Bjorn.",
        ev.CardAction(A, "take_control", "Kyle Bjorn"),
    ),
    ("clear_card", f"{A} clears Kyle Bjorn.", ev.CardAction(A, "clear", "Kyle Bjorn")),
    (
        "peek_one",
        f"{A} peeks at a card on the table. (The card is Gross Ghoul)",
        ev.Peek(A, 1, "Gross Ghoul"),
    ),
    ("peek_many", f"{A} peeks at 2 cards on the table.", ev.Peek(A, 2)),
    (
        "player_stat",
        f"{B} changes {A}'s Food to 7. (from 10 to 7) (-3)",
        ev.StatChange(B, "Food", 10, 7, -3, A),
    ),
    (
        "own_stat",
        f"{B} changes his Food to 9. (from 10 to 9) (-1)",
        ev.StatChange(B, "Food", 10, 9, -1, B),
    ),
    (
        "global_stat",
        f"{B} changes Round to 2. (from 1 to 2) (+1)",
        ev.StatChange(B, "Round", 1, 2, 1),
    ),
    (
        "next_phase",
        f"{B} advances to the next phase: Ready -> Draw",
        ev.PhaseChange(B, "Ready", "Draw"),
    ),
    (
        "previous_phase",
        f"{B} takes back a phase: Draw -> Ready",
        ev.PhaseChange(B, "Draw", "Ready", "back"),
    ),
    (
        "set_phase",
        f"{B} sets the phase: Draw -> Attack",
        ev.PhaseChange(B, "Draw", "Attack", "set"),
    ),
    (
        "change_phase",
        f"{B} changes the phase: Draw -> End",
        ev.PhaseChange(B, "Draw", "End", "change"),
    ),
    ("next_turn", f"{B} advances the turn. Current Turn: #2, {A}'s turn.", ev.TurnChange(B, 2, A)),
    ("die_button", f"{B} rolls a 6-sided die... result: 4", ev.DiceRoll(B, 6, (4,), button=True)),
    (
        "die",
        f"{B} rolls 1 20-sided die. The result: (+3) 17.",
        ev.DiceRoll(B, 20, (17,), modifier="+3"),
    ),
    (
        "dice",
        f"{B} rolls 3 6-sided dice. The results: 1,5,6 (sum:12, avg:4).",
        ev.DiceRoll(B, 6, (1, 5, 6), 3, total=12, average="4"),
    ),
    ("coin_button", f"{A} flips a coin... result: TAILS", ev.CoinFlip(A, ("TAILS",), button=True)),
    ("coin", f"{A} flips 1 coin. The result: HEADS.", ev.CoinFlip(A, ("HEADS",))),
    (
        "coins",
        f"{A} flips 2 coins. The results: HEADS,TAILS.",
        ev.CoinFlip(A, ("HEADS", "TAILS"), 2),
    ),
    (
        "reveal_one",
        f"{A} reveals the top 1 card of his Deck zone to everyone.",
        ev.Reveal(A, "Deck", "everyone", A, "top", 1),
    ),
    (
        "reveal_many",
        f"{A} reveals the bottom 3 cards of {B}'s Deck zone to it's owner.",
        ev.Reveal(A, "Deck", "owner", B, "bottom", 3),
    ),
    ("reveal_zone", f"{A} reveals his Hand zone to himself.", ev.Reveal(A, "Hand", "self", A)),
    (
        "conceal_zone",
        f"{A} conceals his Hand zone from all players.",
        ev.Reveal(A, "Hand", "all", A, concealed=True),
    ),
    (
        "put_revealed_one",
        f"{A} puts the revealed card on the bottom of his Deck.",
        ev.PutRevealed(A, "Deck", A, "bottom"),
    ),
    (
        "put_revealed_many",
        f"{A} puts the revealed cards on the top of his Deck.",
        ev.PutRevealed(A, "Deck", A, "top", True),
    ),
    ("whisper_to_you", f"{A} (to you): good luck", ev.Whisper(A, "good luck")),
    ("whisper", f"{A} (to {B}): gl: hf", ev.Whisper(A, "gl: hf", B)),
    ("chat", f"{B}: bid 7", ev.Chat(B, "bid 7")),
    (
        "already_shuffled",
        "Deck cannot be shuffled again because it is already shuffled.",
        ev.System(
            "already_shuffled", "Deck cannot be shuffled again because it is already shuffled."
        ),
    ),
    (
        "zone_already_shuffled",
        "The Deck zone has already been shuffled.",
        ev.System("zone_already_shuffled", "The Deck zone has already been shuffled."),
    ),
]
