"""Stage 1, ingest: card data from files, URLs, published plugins and HTML pages, read,
merged into the card database in one transaction per import, with provenance and a report."""
