"""Inputs of an audit from files: the log, the card data and the players' deck lists.

Every input problem is a :class:`~zcards.errors.UsageError` (exit code 2): an audit that
cannot read what it was given has nothing to say about the game.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path

from lackey_plugin.dek import Deck
from lackey_plugin.errors import LackeyError
from lackey_plugin.log import events as ev
from zcards.cards.model import Card
from zcards.errors import Location, UsageError, ZcardsError
from zcards.game.cardtext import with_rows
from zcards.game.effects import Row
from zcards.game.table import Table
from zcards.resources import BUNDLED_SET
from zcards.rules.engine import Watcher, audit
from zcards.rules.report import AuditReport

# The card-data columns the rules read (Faction and Rarity play no part).
RULES_COLUMNS = ("Type", "Cost", "Power", "Health", "Keywords", "Requirements", "Symbols", "Text")


def load_cards(
    db_path: str | os.PathLike[str] | None = None,
    card_file: str | os.PathLike[str] | None = None,
    effects: tuple[Row, ...] = (),
) -> list[Card]:
    """Cards from a Lackey card-data file, else the database (``--db``, ``$ZCARDS_DB`` or
    ``./cards.db``, with the effect rows it keeps), else the bundled set when no database
    exists yet; each with the rows of ``effects`` (a designer's) its text contains."""
    from zcards.cards.normalise import read_card_file
    from zcards.store.db import iter_cards, open_db, resolve_db_path
    from zcards.store.effect_rows import stored_rows

    if db_path is not None and card_file is not None:
        raise UsageError("give either --db or --cards, not both")
    try:
        if card_file is not None:
            return with_rows(_zombie_card_file(Path(card_file)), effects)
        path = resolve_db_path(db_path)
        if db_path is None and not path.exists():
            return with_rows(read_card_file(BUNDLED_SET), effects)
        db = open_db(path)
        return with_rows(list(iter_cards(db)), stored_rows(db.conn) + effects)
    except (LackeyError, OSError) as error:
        raise UsageError(f"cannot read the card data: {error}") from error
    except ValueError as error:  # effect rows the database keeps that no longer parse
        raise UsageError(f"cannot read the effect rows: {error}") from error


def _zombie_card_file(path: Path) -> list[Card]:
    """A card-data file that has every column the rules read (rows with problems are left
    out: their cards count as unknown, which only makes findings unverifiable)."""
    from zcards.cards.normalise import parse_card_data

    parsed = parse_card_data(path.read_bytes(), str(path))
    missing = [column for column in RULES_COLUMNS if column not in parsed.columns]
    if missing:
        raise ZcardsError(
            f"not Zombie CCG card data: no {', '.join(missing)} column", Location(str(path), 1)
        )
    return parsed.cards


def deck_sizes(specs: Iterable[str]) -> dict[str, int]:
    """``PLAYER=FILE`` options -> each player's deck size (a text list or a ``.dek``)."""
    return {player: deck.total for player, deck in read_decks(specs).items()}


def deck_lists(specs: Iterable[str]) -> dict[str, list[str]]:
    """``PLAYER=FILE`` options -> each player's deck list, a name per card."""
    return {
        player: [entry.name for entry in deck.entries for _ in range(entry.count)]
        for player, deck in read_decks(specs).items()
    }


def read_decks(specs: Iterable[str]) -> dict[str, Deck]:
    """``PLAYER=FILE`` options -> each player's deck (a text list or a ``.dek``)."""
    from lackey_plugin.dek import read_deck

    decks: dict[str, Deck] = {}
    for spec in specs:
        player, sep, file = spec.partition("=")
        if not sep or not player.strip() or not file.strip():
            raise UsageError(f"--deck {spec!r}: expected PLAYER=FILE")
        try:
            decks[player.strip()] = read_deck(Path(file.strip()))
        except (LackeyError, OSError) as error:
            raise UsageError(f"--deck {spec!r}: {error}") from error
    return decks


def audit_log(
    path: str | os.PathLike[str],
    cards: Iterable[Card],
    *,
    players: Iterable[str] = (),
    pov: str | None = None,
    decks: dict[str, int] | None = None,
    watch: Watcher | None = None,
    start: Table | None = None,
) -> AuditReport:
    """Parse the log at ``path`` and audit it, a line at a time (memory stays flat however
    long the log); ``watch`` sees each line's readings once they have read it; ``start`` is
    the table the log starts from (a saved game)."""
    from lackey_plugin.log.parser import iter_log_file
    from zcards.game.definition import ZOMBIE_GAME

    names = list(players)
    seen = False
    named: set[str] = set()

    def lines() -> Iterator[ev.Event]:
        nonlocal seen
        for event in iter_log_file(path, game=ZOMBIE_GAME, players=[*names, *(decks or {})]):
            seen = seen or is_lackey_event(event)
            named.add(getattr(event, "player", None) or "")
            yield event

    try:
        report = audit(
            lines(), cards, players=names or None, pov=pov, decks=decks, watch=watch, start=start
        )
    except LackeyError as error:  # unreadable input is exit 2, as a usage problem is
        raise UsageError(error.message, error.location) from error
    except OSError as error:
        raise UsageError(str(error)) from error
    if not seen:
        raise UsageError(f"{path}: not a Lackey game log (no line is a Lackey game or table event)")
    _check_names(path, named, pov=pov, players=names)
    return report


def _check_names(
    path: str | os.PathLike[str], named: set[str], *, pov: str | None, players: list[str]
) -> None:
    """A ``--pov`` or ``--player`` name no line of the log names is a mistake in the command
    (a typo, the wrong log), not a player who did nothing."""
    for option, name in [("--pov", pov), *(("--player", player) for player in players)]:
        if name is not None and (not name or name not in named):
            shown = ", ".join(sorted(named - {""})) or "nobody"
            raise UsageError(
                f"{option} {name}: no line of {path} names this player (it names {shown})"
            )


def is_lackey_event(event: ev.Event) -> bool:
    """A line only Lackey writes: anything but chat, whispers and unread lines (any text with
    a colon reads as chat, so chat alone does not make a file a game log)."""
    return not isinstance(event, (ev.Chat, ev.Whisper, ev.Unparsed))
