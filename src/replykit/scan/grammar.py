"""Loads ``grammar/message.lark`` and runs it over the lexer stage's tokens.

The grammar file ships inside the wheel as ``replykit/grammar/message.lark``; in a
source checkout it is read from the repository's top-level ``grammar/`` folder.
"""

from __future__ import annotations

import functools
import importlib.resources
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
from lark import Lark, Token
from lark.lexer import Lexer as LarkLexer

from replykit.scan.lexer import Lexemes, LexResult
from replykit.scan.parts import Part, Parts

GRAMMAR_FILE = "message.lark"


class GrammarNotFound(RuntimeError):
    """The packaged grammar file is missing: a broken installation, not bad input."""


def grammar_text() -> str:
    """Return the text of ``message.lark`` (packaged copy first, then the checkout's).

    Raises :class:`GrammarNotFound` when neither exists.
    """
    packaged = importlib.resources.files("replykit").joinpath("grammar").joinpath(GRAMMAR_FILE)
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    checkout = Path(__file__).resolve().parents[3] / "grammar" / GRAMMAR_FILE
    if checkout.is_file():
        return checkout.read_text(encoding="utf-8")
    raise GrammarNotFound(f"{GRAMMAR_FILE} is not installed with replykit")


class _TokenFeed(LarkLexer):
    """Hands the lexer stage's tokens to Lark (the parser receives a LexResult)."""

    def __init__(self, lexer_conf: Any) -> None:
        pass

    def lex(self, data: Any) -> Iterator[Token]:  # type: ignore[override]
        text: str
        result: LexResult
        text, result = data
        for tok in result.tokens:
            yield Token(tok.type, text[tok.start : tok.end], start_pos=tok.start, end_pos=tok.end)


@functools.cache
def parser() -> Lark:
    """The LALR parser of ``message.lark`` over the lexer stage's tokens, with the
    :class:`~replykit.scan.parts.Parts` transformer applied while parsing (built once)."""
    return Lark(
        grammar_text(),
        parser="lalr",
        lexer=_TokenFeed,
        transformer=Parts(),
        start=["start", "info_string"],
    )


@functools.cache
def lexemes() -> Lexemes:
    """The lexeme patterns the lexer stage applies, compiled from the grammar's terminals."""
    terms = {t.name: t.pattern.to_regexp() for t in parser().terminals}
    return Lexemes(
        fence_opener=re.compile(terms["FENCE_OPENER"]),
        fence_closer=re.compile(terms["FENCE_CLOSER"]),
        fenced_name=re.compile(terms["FENCED_NAME"]),
        open_tag=re.compile(terms["OPEN_TAG"]),
        close_tag=re.compile(terms["CLOSE_TAG"]),
    )


@functools.cache
def family_pattern() -> str:
    """The family-name pattern, ``(?:[a-z0-9]+-)?questionnaire``: the regular
    expression of the grammar's ``FENCED_NAME`` terminal, its one spelling (§3a, §6).

    A request name matches it in full; a response name is one followed by
    ``-response``. Everything else that needs the pattern (profiles, responses, Sage
    compatibility, the schemas, the segmenter's quick test, near-misses) derives it
    from here, through :func:`family_parts` when it needs a part.
    """
    return lexemes().fenced_name.pattern


@attrs.frozen
class FamilyParts:
    """:func:`family_pattern` taken apart: ``namespace`` (the pattern of a product
    namespace, ``[a-z0-9]+``), ``separator`` (``-``) and ``base`` (the base name,
    ``questionnaire``, a literal): a family name is ``base`` or
    ``namespace + separator + base``."""

    namespace: str
    separator: str
    base: str

    def name_pattern(self, separator: str | None = None) -> str:
        """The family pattern again, with ``separator`` in place of the grammar's
        (``_`` gives the response ``type`` prefix, ``(?:[a-z0-9]+_)?questionnaire``)."""
        sep = self.separator if separator is None else separator  # "-" or "_": literal
        return f"(?:{self.namespace}{sep})?{self.base}"


_PARTS = re.compile(r"\(\?:(?P<ns>\[[^\]]+\]\+)(?P<sep>[^()\\\[\]*+?])\)\?(?P<base>[a-z]+)")


@functools.cache
def family_parts() -> FamilyParts:
    """The parts of :func:`family_pattern`. Raises :class:`GrammarNotFound` when the
    grammar's terminal no longer has the shape ``(?:NAMESPACE-)?BASE`` these parts
    describe (the derived patterns would then be wrong, so nothing is derived)."""
    pattern = family_pattern()
    m = _PARTS.fullmatch(pattern)
    if m is None:
        raise GrammarNotFound(f"FENCED_NAME {pattern!r} is not of the form (?:NS-)?BASE")
    parts = FamilyParts(m.group("ns"), m.group("sep"), m.group("base"))
    if parts.name_pattern() != pattern:  # pragma: no cover - the shape check above
        raise GrammarNotFound(f"FENCED_NAME {pattern!r} does not round-trip")
    return parts


def parse(text: str, result: LexResult) -> list[Part]:
    """Parse the token stream of ``text`` (rule ``start``) into the message's parts.

    The lexer's tokens always form a sentence of the grammar; a
    ``lark.exceptions.UnexpectedInput`` here is a bug in the lexer stage.
    """
    parts: list[Part] = parser().parse((text, result), start="start")  # type: ignore[assignment]
    return parts
