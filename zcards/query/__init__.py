"""Stage 3, search: the query language (parser, compiler to SQL), the searches themselves,
forgiving card lookup, statistics and decks resolved against the card database. (The package
is ``query`` so that ``zcards.search``, the public search function, keeps its name.)"""
