"""Stage 4, publish: the LackeyCCG plugin export (card data, images, packs, decks,
updatelist), card faces, proxy sheets, and ``zcards build``, which runs the whole pipeline."""
