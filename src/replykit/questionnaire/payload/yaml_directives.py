"""The directives of a YAML document as the referee reads them (YAML 1.2.2 spec 6.8.1;
docs/protocol.md §4.1): ``%YAML`` of another major version is refused, a later minor
version is read as 1.2 and a reserved directive is ignored, both noted in the parser's
``notes``; directives need a ``---`` after them."""

from __future__ import annotations

from typing import Any

from yaml.tokens import DirectiveToken, DocumentStartToken

from replykit.questionnaire.payload.yaml_problem import SyntaxProblem, shown_version


def read_directives(parser: Any) -> tuple[Any, Any]:
    """PyYAML's ``Parser.process_directives`` for the referee ``parser``: the version
    and the tag handles of the document about to start; raises :class:`SyntaxProblem`
    for a repeated, misplaced or unsupported directive."""
    version: tuple[int, int] | None = None
    handles: dict[str, str] = {}
    last = -1
    while parser.check_token(DirectiveToken):
        token = parser.get_token()
        last = token.start_mark.index
        if token.name == "YAML":
            if version is not None:
                raise SyntaxProblem("directive", last)
            version = _version(parser, token)
        elif token.name == "TAG":
            handle, prefix = token.value
            if handle in handles:
                raise SyntaxProblem("directive", last)
            handles[handle] = prefix
        else:
            parser.notes.append(("reserved", last, token.end_mark.index, token.name))
    if last >= 0 and not parser.check_token(DocumentStartToken):
        raise SyntaxProblem("directive_without_document", last)
    parser.yaml_version = version
    parser.tag_handles = {**parser.DEFAULT_TAGS, **handles}
    return version, (dict(handles) if handles else None)


def _version(parser: Any, token: Any) -> tuple[int, int]:
    """``(1, 2)`` for a ``%YAML 1.x`` directive (a note for x over 2); a
    :class:`SyntaxProblem` for another major version."""
    major, minor = (digits.lstrip("0") or "0" for digits in token.value)
    shown = shown_version(token.value[0]) + "." + shown_version(token.value[1])
    if major != "1":
        raise SyntaxProblem("yaml_version", token.start_mark.index, shown)
    if len(minor) > 1 or minor > "2":
        parser.notes.append(("", token.start_mark.index, token.end_mark.index, shown))
        return 1, 2
    return 1, int(minor)
