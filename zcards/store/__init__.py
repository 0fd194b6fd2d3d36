"""Stage 2, store: the SQLite card database (schema, connections, which file every command
reads), its change log, and the row shapes searches read."""
