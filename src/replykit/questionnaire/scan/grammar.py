"""Loads ``grammar/message.lark`` and parses the scanner's tokens with it.

The grammar file ships inside the wheel as ``replykit/grammar/message.lark``; in a
source checkout it is read from the repository's top-level ``grammar/`` folder. One
LALR parser per start symbol is built on first use: ``message`` for the fast mode
(with the :class:`~replykit.questionnaire.scan.parts.Parts` transformer applied while parsing) and
``document`` for the checked mode (a tree; :mod:`replykit.questionnaire.scan.checked` reads it).
The scanner's patterns are compiled from the same file's terminals (:func:`lexemes`),
and so is the family-name pattern every other module derives (:func:`family_pattern`).
"""

from __future__ import annotations

import functools
import importlib.resources
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

import attrs
from lark import Lark, Token, Tree
from lark.lexer import Lexer as LarkLexer

from replykit.questionnaire.scan.emit import ReplykitBug
from replykit.questionnaire.scan.emit import Token as ScanToken
from replykit.questionnaire.scan.lalr import read_message
from replykit.questionnaire.scan.lexemes import Lexemes
from replykit.questionnaire.scan.parts import Part, Parts
from replykit.questionnaire.scan.shown import shows_text
from replykit.text import with_article

GRAMMAR_FILE = "message.lark"
_FINAL_LINE_END = re.compile(r"(?:\r\n|\r|\n)\Z")


class GrammarNotFound(RuntimeError):
    """The packaged grammar file is missing: a broken installation, not bad input."""


def grammar_text() -> str:
    """Return the text of ``message.lark`` (packaged copy first, then the checkout's).

    Raises :class:`GrammarNotFound` when neither exists.
    """
    packaged = importlib.resources.files("replykit").joinpath("grammar").joinpath(GRAMMAR_FILE)
    if packaged.is_file():
        return packaged.read_text(encoding="utf-8")
    checkout = Path(__file__).resolve().parents[4] / "grammar" / GRAMMAR_FILE
    if checkout.is_file():
        return checkout.read_text(encoding="utf-8")
    raise GrammarNotFound(f"{GRAMMAR_FILE} is not installed with replykit")


class _TokenFeed(LarkLexer):
    """Hands the scanner's tokens to Lark, dropping the ignored ``LAYOUT`` tokens. The
    parser receives ``(text, tokens, patterns)``: with ``patterns`` (the checked mode),
    every token of a terminal with a pattern must match it (without a final line ending
    and a BOM at offset 0), and the tokens must tile the text."""

    def __init__(self, lexer_conf: Any) -> None:
        self.ignore = frozenset(lexer_conf.ignore)

    def lex(self, data: Any) -> Iterator[Token]:  # type: ignore[override]
        text: str
        tokens: Iterable[ScanToken]
        patterns: Mapping[str, re.Pattern[str]] | None
        text, tokens, patterns = data
        pos = 0
        for tok in tokens:
            value = text[tok.start : tok.end]
            if patterns is not None:
                _check(tok, value, pos, patterns)
                pos = tok.end
            if tok.type not in self.ignore:
                # A prose token shows text (§4.3) as its line reads in the message (a
                # line head is read to the line's end: "- --" is a list item when
                # "<!---->" follows it, a thematic break alone): column 1 when it does,
                # so the transformer, which sees the token alone, need not judge.
                shown = tok.type == "PROSE" and shows_text(text, tok.start, tok.end)
                yield Token(
                    tok.type,
                    value,
                    start_pos=tok.start,
                    end_pos=tok.end,
                    column=1 if shown else None,
                )
        if patterns is not None and pos != len(text):
            raise ReplykitBug(f"the tokens end at {pos}, the text at {len(text)}")


def _check(tok: ScanToken, value: str, pos: int, patterns: Mapping[str, re.Pattern[str]]) -> None:
    if tok.start != pos:
        raise ReplykitBug(f"token {tok.type} starts at {tok.start}, the previous ends at {pos}")
    pattern = patterns.get(tok.type)
    if pattern is None:
        return
    body = value[1:] if tok.start == 0 and value.startswith("\ufeff") else value
    if not pattern.fullmatch(_FINAL_LINE_END.sub("", body)):
        raise ReplykitBug(
            f"token {tok.type} {value!r} at {tok.start} is not {with_article(tok.type)}"
        )


@functools.cache
def parser(start: str = "message") -> Lark:
    """The LALR parser of ``message.lark`` for start symbol ``message`` (the fast mode,
    transformed to parts while parsing) or ``document`` (the checked mode, a tree)."""
    return Lark(
        grammar_text(),
        parser="lalr",
        lexer=_TokenFeed,
        transformer=Parts() if start == "message" else None,
        start=start,
        strict=True,  # a shift/reduce conflict is an error, not a silent shift
    )


@functools.cache
def terminal_patterns() -> Mapping[str, str]:
    """Every terminal of the grammar that has a pattern: name -> regular expression."""
    lark = parser("message")
    terminals = lark.grammar.compile(lark.options.start, "*")[0]
    return {t.name: t.pattern.to_regexp() for t in terminals}


@functools.cache
def token_patterns(strict: bool = True) -> Mapping[str, re.Pattern[str]]:
    """The compiled patterns the checked mode's tokens must match; not ``strict`` (a
    §9 switch is on), tags are any ``TAG_LIKE`` and ``ANY_CLOSE_TAG``."""
    patterns = {name: re.compile(rx) for name, rx in terminal_patterns().items()}
    if not strict:
        lx = lexemes()
        patterns["OPEN_TAG"], patterns["CLOSE_TAG"] = lx.tag_like, lx.any_close_tag
    return patterns


@functools.cache
def lexemes() -> Lexemes:
    """The patterns the scanner applies, compiled from the grammar's terminals."""
    return Lexemes.from_terminals(terminal_patterns())


@functools.cache
def family_pattern() -> str:
    """The family-name pattern, ``(?:[a-z0-9]+-)?questionnaire``: the regular
    expression of the grammar's ``FAMILY_NAME`` terminal, its one spelling (§3a, §6).

    A request name matches it in full; a response name is one followed by
    ``-response``. Everything else that needs the pattern (profiles, responses, Sage
    compatibility, the schemas) derives it from here, through :func:`family_parts`
    when it needs a part; the scanner, its near-misses and the segmenter's quick test
    use the same terminals compiled (:func:`lexemes`).
    """
    return lexemes().family_name.pattern


@attrs.frozen
class FamilyParts:
    """:func:`family_pattern` taken apart: ``namespace`` (the pattern of a product
    namespace, ``[a-z0-9]+``), ``separator`` (``-``) and ``base`` (the base name,
    ``questionnaire``, the grammar's ``FAMILY_WORD``): a family name is ``base`` or
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
    describe, with ``BASE`` its ``FAMILY_WORD`` (the derived patterns would then be
    wrong, so nothing is derived)."""
    pattern = family_pattern()
    m = _PARTS.fullmatch(pattern)
    if m is None or m.group("base") != terminal_patterns()["FAMILY_WORD"]:
        raise GrammarNotFound(f"FAMILY_NAME {pattern!r} is not of the form (?:NS-)?FAMILY_WORD")
    parts = FamilyParts(m.group("ns"), m.group("sep"), m.group("base"))
    if parts.name_pattern() != pattern:  # pragma: no cover - the shape check above
        raise GrammarNotFound(f"FAMILY_NAME {pattern!r} does not round-trip")
    return parts


def parse(text: str, tokens: Iterable[ScanToken], seen_visible: bool = False) -> list[Part]:
    """Parse the fast mode's tokens of ``text`` (rule ``message``) into its parts.
    ``seen_visible``: visible prose came before ``text``; every Markdown run is then
    ``visible`` (the preface rule's answer so far, §4.3) and is not read for it.

    The scanner's tokens always form a sentence of the grammar; a ``ReplykitBug``
    here is a bug in the scanner. The LALR table Lark builds from the grammar is run
    by :func:`~replykit.questionnaire.scan.lalr.read_message`, a lean loop that gives
    what ``parser("message").parse`` gives (a property test proves it).
    """
    # The scanner passes a tuple: checked first, as an ABC check costs a call.
    toks = tokens if type(tokens) is tuple or isinstance(tokens, Sequence) else list(tokens)
    return read_message(parser("message"), text, toks, seen_visible)


def parse_document(text: str, tokens: Iterable[ScanToken], strict: bool = True) -> Tree[Token]:
    """Parse the checked mode's tokens of ``text`` (rule ``document``) into a tree,
    checking each token against its terminal (see :func:`token_patterns`). Raises
    :class:`ReplykitBug` when the tokens are not a sentence of the grammar."""
    try:
        return parser("document").parse((text, tokens, token_patterns(strict)))
    except ReplykitBug:
        raise
    except Exception as exc:  # lark's UnexpectedInput and its kin
        raise ReplykitBug(f"the checked tokens are not a document: {exc}") from exc
