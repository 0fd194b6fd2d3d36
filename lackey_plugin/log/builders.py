"""Event constructors generated per template, for the parser's hot loop.

Events are frozen slotted dataclasses whose ``__init__`` stores each field through
``object.__setattr__`` and takes keyword arguments: building an event that way costs more than
matching its line. So, as :mod:`dataclasses` does for ``__init__``, this module generates one
function per template that fetches the match's groups in one call, converts them and stores
every slot through its descriptor. The generated source holds only positional names
(``g0``, ``v3``, ``s3``…); every value from the template table is passed in its namespace, so
no table text ever becomes code.
"""

from __future__ import annotations

import types
from collections.abc import Callable
from dataclasses import MISSING, fields
from functools import lru_cache
from typing import Any

from lackey_plugin.log import events as ev
from lackey_plugin.log.templates import TYPES, Template

Builder = Callable[..., ev.Event]
"""``build(match, line, raw, meanings, clock)``: the event of a matched line; ``clock`` turns
the stamp's hours and ``MM:SS`` into seconds (see
:class:`~lackey_plugin.log.matcher.StampClock`)."""

_STAMP_GROUPS = (1, 2, 3)  # the stamp's text, hours, MM:SS (matcher.STAMP); 4 marks the body
_PROVENANCE = {"line": "line", "raw": "raw", "timestamp": "stamp", "seconds": "seconds"}


@lru_cache(maxsize=1024)
def builder(
    template: Template, player: int | None, stored: tuple[tuple[str, str, int], ...]
) -> Builder:
    """The constructor of ``template``'s event: ``player`` is the actor's group number (None
    without an actor), ``stored`` holds (field, placeholder type, group number) per field.

    Like the dataclass ``__init__`` it replaces, it keeps a field's default when an optional
    group did not match, resolves "his" to the actor, looks the label's meaning up and runs
    ``__post_init__``. Cached: learning a name recompiles the regex, not the builders."""
    cls = template.event
    constants = template.constants
    exprs = dict(_PROVENANCE)
    if cls is ev.System:  # Lackey's own messages keep the whole line (after its stamp)
        constants, stored = {"name": template.name}, ()
        exprs["text"] = "match.string[match.end(4) : match.end()]"
    numbers = (
        _STAMP_GROUPS
        + ((player,) if player is not None else ())
        + tuple(group for _, _, group in stored)
    )
    names = ["stamp", "hours", "minutes"] + [f"g{k}" for k in range(len(numbers) - 3)]
    code = [
        "def build(match, line, raw, meanings, clock):",
        f"    {', '.join(names)} = match.group({', '.join(map(str, numbers))})",
        "    seconds = None if stamp is None else clock(hours, minutes)",
    ]
    if player is not None:
        exprs["player"] = "g0"
    first = len(numbers) - len(stored)
    groups = {name: (kind, names[first + k]) for k, (name, kind, _) in enumerate(stored)}
    space: dict[str, Any] = {"new": object.__new__, "cls": cls}
    slots = fields(cls)
    for i, item in enumerate(slots):
        name = item.name
        if name in exprs or name == "meaning":
            continue
        if name in groups:
            kind, group = groups[name]
            actor = exprs.get("player") if kind == "whose" else None
            code.extend(_converted(i, group, TYPES[kind].parse, actor, item.default, space))
            exprs[name] = f"v{i}"
        elif name in constants:
            space[f"c{i}"] = constants[name]
            exprs[name] = f"c{i}"
        elif item.default is not MISSING:
            space[f"d{i}"] = item.default
            exprs[name] = f"d{i}"
        elif item.default_factory is not MISSING:
            space[f"f{i}"] = item.default_factory
            exprs[name] = f"f{i}()"
        else:
            raise ValueError(f"template {template.name}: {cls.__name__}.{name} is never set")
    if any(item.name == "meaning" for item in slots):
        exprs["meaning"] = f"meanings.get({exprs['label']})"
    code.append("    event = new(cls)")
    for i, item in enumerate(slots):
        descriptor = getattr(cls, item.name)
        if not isinstance(descriptor, types.MemberDescriptorType):
            raise TypeError(f"{cls.__name__} is not a slotted dataclass")
        space[f"s{i}"] = descriptor.__set__
        code.append(f"    s{i}(event, {exprs[item.name]})")
    if hasattr(cls, "__post_init__"):
        code.append("    event.__post_init__()")
    code.append("    return event")
    exec(compile("\n".join(code), f"<builder {template.name}>", "exec"), space)  # noqa: S102
    return space["build"]


def _converted(
    index: int,
    group: str,
    parse: Callable[[str], Any] | None,
    actor: str | None,
    default: Any,
    space: dict[str, Any],
) -> list[str]:
    """Statements setting ``v<index>`` from a group: the field's default when the group did
    not match, else the parsed text (None from a ``whose`` parse, a pronoun, means ``actor``)."""
    value = group
    if parse is not None:
        space[f"p{index}"] = parse
        value = f"p{index}({group})"
    code = [f"v{index} = {value}"]
    if actor is not None:
        code.append(f"if v{index} is None: v{index} = {actor}")
    if default is MISSING:
        return [f"    {line}" for line in code]
    space[f"d{index}"] = default
    return [
        f"    if {group} is None: v{index} = d{index}",
        "    else:",
        *(f"        {line}" for line in code),
    ]
