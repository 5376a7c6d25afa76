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
    ``-response``; a product namespace ``ns`` is one for which ``ns-questionnaire``
    matches. Everything else that needs the pattern (profiles, responses, Sage
    compatibility, the schemas, the fuzzer) derives it from here.
    """
    return lexemes().fenced_name.pattern


def parse(text: str, result: LexResult) -> list[Part]:
    """Parse the token stream of ``text`` (rule ``start``) into the message's parts.

    The lexer's tokens always form a sentence of the grammar; a
    ``lark.exceptions.UnexpectedInput`` here is a bug in the lexer stage.
    """
    parts: list[Part] = parser().parse((text, result), start="start")  # type: ignore[assignment]
    return parts
