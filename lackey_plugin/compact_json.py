"""One compact JSON encoder for every writer of many small documents (log events, search rows,
audit reports): made once, C-accelerated, with no import beyond the standard library so that
a quick command pays nothing for it."""

from __future__ import annotations

import json
from collections.abc import Callable
from json.encoder import encode_basestring
from typing import Any


def _compact_encoder() -> Callable[[Any], str]:
    """Compact JSON (``", "``/``": "`` separators, non-ASCII kept) from one C encoder
    object, made once; the pure-Python encoder where CPython has no C one."""
    fallback = json.JSONEncoder(ensure_ascii=False)
    c_make_encoder = getattr(json.encoder, "c_make_encoder", None)  # not in the type stubs
    if c_make_encoder is None:  # pragma: no cover - other Python implementations
        return fallback.encode
    chunks = c_make_encoder(
        None, fallback.default, encode_basestring, None, ": ", ", ", False, False, True
    )
    return lambda value: "".join(chunks(value, 0))


encode_compact = _compact_encoder()
"""One value as compact JSON text (``json.dumps`` makes a new encoder on every call)."""
