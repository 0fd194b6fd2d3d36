"""What a Zombie CCG card is: the normalised :class:`~zcards.cards.model.Card`, and how a row of
Lackey card data becomes one (header aliases, cell conversion, validation). Every stage above
(ingest, store, search, publish, rules, sim) reads cards through this package."""
