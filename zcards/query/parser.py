"""The search language's tokenizer and parser: query text -> syntax tree, positions kept.

Grammar (``or`` binds loosest, ``-`` tightest; juxtaposition means ``and``)::

    query   := or_expr
    or_expr := and_expr ("or" and_expr)*
    and_expr:= unary (["and"] unary)*
    unary   := "-" unary | "(" or_expr ")" | term
    term    := word | "phrase" | /regex/ | field op value

Every node remembers where it starts in the query, so an error can put a caret under it.
Work is bounded: a query has at most :data:`MAX_QUERY_LENGTH` characters, :data:`MAX_TERMS`
terms and :data:`MAX_DEPTH` levels of parentheses and negations; going past a limit is a
caret error like any other mistake (SQLite's own expression limit is never reached).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from zcards.errors import Location, UsageError

OPERATORS = (":", "=", "!=", "<", "<=", ">", ">=")
MAX_QUERY_LENGTH = 4000
"""Longest query, in characters."""
MAX_TERMS = 200
"""Most terms (words, phrases, regexes, field tests) in one query."""
MAX_DEPTH = 32
"""Deepest nesting of parentheses and ``-`` negations."""
_FIELD = re.compile(r"([A-Za-z_][\w.]*)([:=!<>]+)")
_WORD_END = re.compile(r'[\s()"]')
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class QueryError(UsageError):
    """A query the parser or compiler cannot accept; the message shows a caret under it."""

    def __init__(self, message: str, query: str, position: int, length: int = 1) -> None:
        shown, offset = _window(query, position)
        caret = " " * (position - offset) + "^" * max(1, min(length, len(shown) + 1))
        super().__init__(f"{message}\n  {shown}\n  {caret}", Location("query", None, position + 1))
        self.reason = message
        self.position = position

    @property
    def column(self) -> int:
        """1-based column of the offending character."""
        return self.position + 1


_SHOWN = 60  # characters of a long query shown on each side of an error


def _window(query: str, position: int) -> tuple[str, int]:
    """The part of ``query`` an error shows, and the offset of its first character."""
    if len(query) <= 2 * _SHOWN:
        return query, 0
    start = max(0, position - _SHOWN)
    return query[start : position + _SHOWN], start


class _Node:
    """A syntax tree node: compared, hashed and shown by its kind and fields, like a frozen
    dataclass. (Plain classes with slots: making seven dataclasses cost a tenth of a search's
    own start-up.)"""

    __slots__: tuple[str, ...] = ()

    def _fields(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash((type(self), self._fields()))

    def __repr__(self) -> str:
        return f"{type(self).__name__}{self._fields()!r}"


class Text(_Node):
    """A bare word or a "quoted phrase": full-text search over name and text."""

    __slots__ = ("value", "phrase", "pos")

    def __init__(self, value: str, phrase: bool, pos: int) -> None:
        self.value, self.phrase, self.pos = value, phrase, pos


class Regex(_Node):
    """A ``/regex/``: over name and text, or over one field as a :class:`Field`'s value."""

    __slots__ = ("pattern", "pos")

    def __init__(self, pattern: str, pos: int) -> None:
        self.pattern, self.pos = pattern, pos


class Field(_Node):
    """``name op value``; ``value`` is a str, or a Regex for ``field:/.../``."""

    __slots__ = ("name", "op", "value", "pos", "op_pos", "value_pos")

    def __init__(
        self, name: str, op: str, value: str | Regex, pos: int, op_pos: int, value_pos: int
    ) -> None:
        self.name, self.op, self.value = name, op, value
        self.pos, self.op_pos, self.value_pos = pos, op_pos, value_pos


class Not(_Node):
    __slots__ = ("child", "pos")

    def __init__(self, child: Node, pos: int) -> None:
        self.child, self.pos = child, pos


class And(_Node):
    __slots__ = ("children",)

    def __init__(self, children: tuple[Node, ...]) -> None:
        self.children = children


class Or(_Node):
    __slots__ = ("children",)

    def __init__(self, children: tuple[Node, ...]) -> None:
        self.children = children


Node = Text | Regex | Field | Not | And | Or


class Token(NamedTuple):
    kind: str  # "(" ")" "-" "or" "and" "term"
    pos: int
    node: Node | None = None


class _Lexer:
    def __init__(self, query: str) -> None:
        self.query = query
        self.pos = 0

    def error(self, message: str, position: int, length: int = 1) -> QueryError:
        return QueryError(message, self.query, position, length)

    def tokens(self) -> list[Token]:
        tokens: list[Token] = []
        query = self.query
        if len(query) > MAX_QUERY_LENGTH:
            raise self.error(
                f"query too long: at most {MAX_QUERY_LENGTH} characters", MAX_QUERY_LENGTH
            )
        control = _CONTROL.search(query)
        if control is not None:
            raise self.error(f"control character {control.group()!r} in the query", control.start())
        terms = 0
        while True:
            while self.pos < len(query) and query[self.pos].isspace():
                self.pos += 1
            if self.pos >= len(query):
                return tokens
            start, char = self.pos, query[self.pos]
            if char in "()":
                self.pos += 1
                tokens.append(Token(char, start))
            elif char == "-":
                self.pos += 1
                if self.pos >= len(query) or query[self.pos].isspace():
                    raise self.error("'-' must be followed by a term, with no space", start)
                tokens.append(Token("-", start))
            else:
                token = self._term(start)
                terms += token.kind == "term"
                if terms > MAX_TERMS:
                    raise self.error(f"too many terms: at most {MAX_TERMS}", start)
                tokens.append(token)

    def _term(self, start: int) -> Token:
        char = self.query[start]
        if char == '"':
            return Token("term", start, Text(self._quoted(), True, start))
        if char == "/":
            return Token("term", start, self._regex())
        field = _FIELD.match(self.query, start)
        if field and field.group(2).strip("!"):  # "Ouch!" is a word, not a field
            return Token("term", start, self._field(field))
        word = self._word()
        if word.casefold() in ("or", "and"):
            return Token(word.casefold(), start)
        return Token("term", start, Text(word, False, start))

    def _word(self) -> str:
        end = _WORD_END.search(self.query, self.pos)
        stop = end.start() if end else len(self.query)
        word, self.pos = self.query[self.pos : stop], stop
        return word

    def _quoted(self) -> str:
        """A "..." string; ``\\"`` is a quote inside it and ``\\\\`` a backslash."""
        start, query = self.pos, self.query
        self.pos += 1
        chars: list[str] = []
        while self.pos < len(query):
            char = query[self.pos]
            if char == "\\" and self.pos + 1 < len(query) and query[self.pos + 1] in '"\\':
                chars.append(query[self.pos + 1])
                self.pos += 2
            elif char == '"':
                self.pos += 1
                return "".join(chars)
            else:
                chars.append(char)
                self.pos += 1
        raise self.error("unterminated quoted phrase (missing closing '\"')", start)

    def _regex(self) -> Regex:
        """A /.../ pattern; ``\\/`` is a slash inside it, other escapes go to ``re`` as written."""
        start, query = self.pos, self.query
        self.pos += 1
        chars: list[str] = []
        while self.pos < len(query):
            char = query[self.pos]
            if char == "\\" and self.pos + 1 < len(query):
                pair = query[self.pos : self.pos + 2]
                chars.append("/" if pair == "\\/" else pair)
                self.pos += 2
            elif char == "/":
                self.pos += 1
                return Regex("".join(chars), start)
            else:
                chars.append(char)
                self.pos += 1
        raise self.error("unterminated regular expression (missing closing '/')", start)

    def _field(self, match: re.Match[str]) -> Field:
        name, op = match.group(1), match.group(2)
        op_pos = match.start(2)
        if op not in OPERATORS:
            raise self.error(f"unknown operator {op!r} (use : = != < <= > >=)", op_pos, len(op))
        self.pos = value_pos = match.end()
        if (
            self.pos >= len(self.query)
            or self.query[self.pos].isspace()
            or self.query[self.pos] in "()"
        ):
            raise self.error(f"missing value after '{name}{op}'", value_pos)
        char = self.query[self.pos]
        value: str | Regex
        if char == '"':
            value = self._quoted()
        elif char == "/":
            value = self._regex()
        else:
            value = self._word()
        return Field(name, op, value, match.start(), op_pos, value_pos)


class _Parser:
    def __init__(self, query: str, tokens: list[Token]) -> None:
        self.query = query
        self.tokens = tokens
        self.index = 0
        self.depth = 0

    def error(self, message: str, position: int, length: int = 1) -> QueryError:
        return QueryError(message, self.query, position, length)

    def peek(self) -> Token | None:
        return self.tokens[self.index] if self.index < len(self.tokens) else None

    def take(self) -> Token:
        token = self.tokens[self.index]
        self.index += 1
        return token

    def parse(self) -> Node:
        node = self.or_expr()
        token = self.peek()
        if token is not None:  # only a stray ")" stops or_expr early
            raise self.error("unbalanced ')': no '(' before it", token.pos)
        return node

    def or_expr(self) -> Node:
        children = [self.and_expr()]
        while (token := self.peek()) is not None and token.kind == "or":
            self.take()
            children.append(self.and_expr(after=token))
        return children[0] if len(children) == 1 else Or(tuple(children))

    def and_expr(self, after: Token | None = None) -> Node:
        children: list[Node] = []
        while (token := self.peek()) is not None and token.kind not in ("or", ")"):
            if token.kind == "and":
                self.take()
                if not children:
                    raise self.error("'and' needs a term before it", token.pos, 3)
                after = token
                continue
            children.append(self.unary())
            after = None
        if after is not None:
            raise self.error(f"'{after.kind}' needs a term after it", after.pos, len(after.kind))
        if not children:
            if token is not None and token.kind == "or":
                raise self.error("'or' needs a term before it", token.pos, 2)
            if token is None and not self.tokens:
                raise self.error("empty query", 0)
            if token is None:
                raise self.error("the query ends too early", len(self.query))
            raise self.error("unbalanced ')': no '(' before it", token.pos)
        return children[0] if len(children) == 1 else And(tuple(children))

    def unary(self) -> Node:
        token = self.take()
        if token.kind in ("-", "("):
            self.depth += 1
            if self.depth > MAX_DEPTH:
                raise self.error(f"nested too deeply: at most {MAX_DEPTH} levels", token.pos)
            try:
                return self.nested(token)
            finally:
                self.depth -= 1
        assert token.node is not None
        return token.node

    def nested(self, token: Token) -> Node:
        """The operand of ``-``, or the expression in parentheses."""
        if token.kind == "-":
            operand = self.peek()
            if operand is None or operand.kind in ("or", "and", ")"):
                raise self.error("'-' must be followed by a term", token.pos)
            return Not(self.unary(), token.pos)
        if (inner := self.peek()) is not None and inner.kind == ")":
            raise self.error("empty parentheses", token.pos, 2)
        node = self.or_expr()
        closing = self.peek()
        if closing is None or closing.kind != ")":
            raise self.error("unbalanced '(': no ')' closes it", token.pos)
        self.take()
        return node


def parse_query(query: str) -> Node:
    """The syntax tree of ``query``, or a :class:`QueryError` pointing at the problem."""
    return _Parser(query, _Lexer(query).tokens()).parse()
