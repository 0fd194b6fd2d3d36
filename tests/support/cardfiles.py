"""Card data files made for the tests: valid Zombie CCG cards, as many as a test needs."""

from __future__ import annotations

from pathlib import Path

from zcards.cards.model import ZOMBIE_COLUMNS


def card_file(path: Path, rows: int, set_name: str, *, tail: str = "") -> Path:
    """``rows`` valid Zombie CCG cards of one set (plus ``tail``, written as it is)."""
    lines = ["\t".join(ZOMBIE_COLUMNS)]
    for index in range(rows):
        name = f"{set_name} card {index:06d}"
        lines.append(
            f"{name}\t{set_name}\timg{index}\tZombie\tRage\t\t{1 + index % 4}\t\tFast\t\t\tC\t"
            f"Shambles towards card {index}."
        )
    path.write_text("\n".join(lines) + "\n" + tail, encoding="utf-8")
    return path
