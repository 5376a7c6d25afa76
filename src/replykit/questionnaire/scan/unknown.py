"""Names that hold the family word but have no family shape (docs/protocol.md §8.1,
``near_miss.unknown_name``): seed 000 names ``foo-questionnaire`` and
``questionnaire-response-extra`` as names outside the registered protocol; the first
has the family shape (a candidate of an unregistered name, §6), the second does not
and is found here, as are ``sage-yiii-questionnaire`` and ``my_questionnaire``.
"""

from __future__ import annotations

from replykit.questionnaire.scan.lexemes import Lexemes


def is_family_word(word: str, lx: Lexemes) -> bool:
    """True when ``word`` is a family name but for ASCII case (``Questionnaire``): the
    grammar's ``FAMILY_NAME`` in any case."""
    return lx.family_name_any_case.fullmatch(word) is not None


def is_unknown_name(word: str, lx: Lexemes) -> bool:
    """True when ``word`` holds the family word in any case but is no family name, nor
    a family name's ``-response``, in any case (``sage-yiii-questionnaire``,
    ``questionnaire-response-extra``; §8.1 ``near_miss.unknown_name``)."""
    if lx.family_word_any_case.search(word) is None or is_family_word(word, lx):
        return False
    base = word[:-9] if word[-9:].lower() == "-response" else ""
    return not (base and is_family_word(base, lx))


#: Characters that may continue a tag name for ``near_miss.unknown_name``.
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")


def unknown_tags(text: str, lx: Lexemes) -> list[tuple[int, int, str]]:
    """Every opening tag of ``text`` whose name is unknown (:func:`is_unknown_name`):
    ``(start of "<", end of the name, name)``, in order. Linear: each character is
    examined at most twice (the name runs around the family words never overlap)."""
    out: list[tuple[int, int, str]] = []
    frontier, n = 0, len(text)
    for m in lx.family_word_any_case.finditer(text):
        if m.start() < frontier:
            continue
        a = m.start()
        while a > frontier and text[a - 1] in _NAME_CHARS:
            a -= 1
        run = lx.name_chars.match(text, m.start())
        b = run.end() if run is not None else m.end()
        frontier = b
        if a < 1 or text[a - 1] != "<" or b >= n or text[b] not in " \t\r\n/>":
            continue
        if is_unknown_name(text[a:b], lx):
            out.append((a - 1, b, text[a:b]))
    return out
