"""Names that hold the family word but have no family shape (docs/protocol.md §8.1,
``near_miss.unknown_name``): seed 000 names ``foo-questionnaire`` and
``questionnaire-response-extra`` as names outside the registered protocol; the first
has the family shape (a candidate of an unregistered name, §6), the second does not
and is found here, as are ``sage-yiii-questionnaire`` and ``my_questionnaire``.
"""

from __future__ import annotations

import functools
import re

from replykit.questionnaire.scan.lexemes import Lexemes
from replykit.text import BLANK_CLASS


def is_family_word(word: str, lx: Lexemes) -> bool:
    """True when ``word`` is a family name but for ASCII case (``Questionnaire``): the
    grammar's ``FAMILY_NAME`` in any case."""
    return lx.family_name_any_case.fullmatch(word) is not None


def is_unknown_name(word: str, lx: Lexemes, *, responses: bool = True) -> bool:
    """True when ``word`` holds the family word in any case but is no family name in
    any case, nor (``responses``: a tag's name) a family name's ``-response``
    (``sage-yiii-questionnaire``, ``questionnaire-response-extra``; a fence named
    ``questionnaire-response``; §8.1 ``near_miss.unknown_name``)."""
    if lx.family_word_any_case.search(word) is None or is_family_word(word, lx):
        return False
    base = word[:-9] if responses and word[-9:].lower() == "-response" else ""
    return not (base and is_family_word(base, lx))


@functools.cache
def _opening_name(name_chars: str, word: str) -> re.Pattern[str]:
    # "<", a whole run of the grammar's NAME_CHARS that holds the family word (any
    # case), then what may follow a tag name (as TAG_LIKE: "/", ">" or a §1 blank
    # character). Each run is read from its own "<".
    chars = name_chars.rstrip("+")
    return re.compile(f"<(?={chars}*?(?ai:{word}))(?>{name_chars})(?=[/>]|{BLANK_CLASS})")


def unknown_tags(text: str, lx: Lexemes) -> list[tuple[int, int, str]]:
    """Every opening tag of ``text`` whose name is unknown (:func:`is_unknown_name`):
    ``(start of "<", end of the name, name)``, in order. Linear: the name runs after
    the ``<`` characters never overlap."""
    out: list[tuple[int, int, str]] = []
    for m in _opening_name(lx.name_chars.pattern, lx.family_word_any_case.pattern).finditer(text):
        name = m.group()[1:]
        if is_unknown_name(name, lx):
            out.append((m.start(), m.end(), name))
    return out
