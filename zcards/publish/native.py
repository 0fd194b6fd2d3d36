"""The system libraries WeasyPrint draws with (Pango, fontconfig, ...), probed without
importing WeasyPrint.

Importing WeasyPrint costs about half a second of CPU, most of it building its bindings; a
build whose every face comes from the render cache draws nothing and needs none of that. It
still needs to know that Pango is there (to fail before anything is written, not halfway) and
what the render cache's keys depend on (Pango's version, the fonts fontconfig offers). Both
are a few calls into the same shared libraries WeasyPrint loads, tried under the same names
(WeasyPrint's ``weasyprint.text.ffi``) so the same files answer.
"""

from __future__ import annotations

import ctypes
import os
import sys
from dataclasses import dataclass
from functools import cache

PANGO_MINIMUM = 14400  # 1.44.0, the oldest Pango WeasyPrint runs on

# WeasyPrint's names for each library, on every platform (weasyprint.text.ffi).
NAMES = {
    "gobject": (
        "libgobject-2.0-0", "gobject-2.0-0", "gobject-2.0", "libgobject-2.0.so.0",
        "libgobject-2.0.0.dylib", "libgobject-2.0-0.dll",
    ),
    "pango": (
        "libpango-1.0-0", "pango-1.0-0", "pango-1.0", "libpango-1.0.so.0",
        "libpango-1.0.dylib", "libpango-1.0-0.dll",
    ),
    "harfbuzz": (
        "libharfbuzz-0", "harfbuzz", "harfbuzz-0.0", "libharfbuzz.so.0", "libharfbuzz.0.dylib",
        "libharfbuzz-0.dll",
    ),
    "fontconfig": (
        "libfontconfig-1", "fontconfig-1", "fontconfig", "libfontconfig.so.1",
        "libfontconfig.1.dylib", "libfontconfig-1.dll",
    ),
    "pangoft2": (
        "libpangoft2-1.0-0", "pangoft2-1.0-0", "pangoft2-1.0", "libpangoft2-1.0.so.0",
        "libpangoft2-1.0.dylib", "libpangoft2-1.0-0.dll",
    ),
}  # fmt: skip


class _FontSet(ctypes.Structure):
    _fields_ = [
        ("nfont", ctypes.c_int),
        ("sfont", ctypes.c_int),
        ("fonts", ctypes.POINTER(ctypes.c_void_p)),
    ]


@dataclass(frozen=True)
class Native:
    """The loaded libraries."""

    pango: ctypes.CDLL
    fontconfig: ctypes.CDLL

    def pango_version(self) -> int:
        return int(self.pango.pango_version())

    def font_files(self) -> set[str]:
        """Every font file fontconfig offers (what WeasyPrint may draw with)."""
        fc = self.fontconfig
        fc.FcInitLoadConfigAndFonts.restype = ctypes.c_void_p
        fc.FcConfigGetFonts.restype = ctypes.POINTER(_FontSet)
        fc.FcConfigGetFonts.argtypes = [ctypes.c_void_p, ctypes.c_int]
        fc.FcPatternGetString.argtypes = [
            ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.POINTER(ctypes.c_char_p)
        ]  # fmt: skip
        fc.FcConfigDestroy.argtypes = [ctypes.c_void_p]
        config = fc.FcInitLoadConfigAndFonts()
        files: set[str] = set()
        try:
            fonts = fc.FcConfigGetFonts(config, 0)  # FcSetSystem
            found = ctypes.c_char_p()
            for index in range(fonts.contents.nfont if fonts else 0):
                if fc.FcPatternGetString(fonts.contents.fonts[index], b"file", 0, found) == 0:
                    files.add((found.value or b"").decode("utf-8", "replace"))
        finally:
            fc.FcConfigDestroy(config)
        return files


@cache
def native() -> Native | None:
    """The libraries, or None when one cannot be loaded or Pango is too old (importing
    WeasyPrint then says why, in its own words)."""
    loaded: dict[str, ctypes.CDLL] = {}
    for library, names in NAMES.items():
        for name in names:
            try:
                loaded[library] = ctypes.CDLL(name)
                break
            except OSError:
                continue
        else:
            return None
    found = Native(loaded["pango"], loaded["fontconfig"])
    return found if found.pango_version() >= PANGO_MINIMUM else None


def installed_version(project: str) -> str:
    """An installed project's version, from its ``NAME-VERSION.dist-info`` folder on
    ``sys.path`` (where importlib.metadata finds it: importing that costs a build that draws
    nothing a tenth of its time, in its email parser), else from importlib.metadata."""
    wanted = _normalised(project)
    for entry in sys.path:
        try:
            names = os.listdir(entry or ".")
        except OSError:
            continue
        for name in names:
            stem, _, suffix = name.rpartition(".")
            found, _, version = stem.partition("-")
            if suffix == "dist-info" and version and _normalised(found) == wanted:
                return version
    from importlib.metadata import version as metadata_version

    return metadata_version(project)


def _normalised(project: str) -> str:
    return project.lower().replace("-", "_").replace(".", "_")
