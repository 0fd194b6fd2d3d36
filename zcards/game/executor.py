"""The one executor of the game: every rule of play in three functions, as python-chess has
``Board.is_legal``/``push`` for its move generator and its PGN reader alike.

* :func:`legal` (``game, action -> Verdict``): allowed; not allowed, with the rule and the
  reason; or depending on what the observer cannot see (a hidden card, card text no row
  reads), naming it. Card text that restricts or costs is part of it (Carrion Crows' ban on
  Scavenger rolls, Chef Antoine's "discard an Item", Ex-Con Dwayne and the Medic).
* :func:`apply` (``game, action -> game``): plays the action in place and returns the game.
* :func:`owed` (``game, phase -> obligations``): what the phase still owes (two draws, one
  discard, upkeep, starvation and infection wounds, a fight's wounds, the penalty cards
  after a Scavenger's 1, dead survivors leaving play); an :class:`~zcards.game.actions.
  EndPhase` is legal only when nothing is owed.
* :func:`legal_actions` (``game, player -> actions``): the move generator, every candidate
  filtered through :func:`legal`.

A game is a :class:`~zcards.game.ledger.Game` (a table with the card index and the ledger
of grants); the actions are in :mod:`zcards.game.actions`.
"""

from __future__ import annotations

from zcards.game import apply as _cards  # noqa: F401  (registers the handlers)
from zcards.game import apply_fights as _fights  # noqa: F401  (registers the handlers)
from zcards.game import legal_combat as _combat  # noqa: F401  (registers the clauses)
from zcards.game.actions import Action
from zcards.game.handlers import HANDLERS, check_losses
from zcards.game.ledger import Game, Obligation, Verdict
from zcards.game.legal import CLAUSES, legal
from zcards.game.legal_recoup import owed
from zcards.game.moves import legal_actions

__all__ = [
    "CLAUSES",
    "Game",
    "Obligation",
    "Verdict",
    "apply",
    "legal",
    "legal_actions",
    "owed",
]


def apply(game: Game, action: Action) -> Game:
    """Play ``action`` on ``game`` in place (it is not checked: ask :func:`legal` first),
    then see who lost (R14.1)."""
    HANDLERS[type(action)](game, action)
    check_losses(game)
    return game
