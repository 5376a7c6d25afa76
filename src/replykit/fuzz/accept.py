"""``--accept FILE``: classes a team has looked at and accepted as known.

An accepted class is still found and counted, but it is not reported as a class and
does not make the run exit 1, so a team can fuzz on after triage (docs/fuzzing.md,
"Triage"). The file is one of:

- a ``report.json`` of an earlier run: every class in it is accepted (by its ``key``);
- a JSON object ``{"accept": [ENTRY, ...]}`` or a JSON list of entries, where an
  ENTRY is a class key string (:meth:`~replykit.fuzz.classify.ClassKey.text`, ``*``
  and ``?`` match as in a shell pattern), an object ``{"key": "..."}``, or an
  example ``{"op": "segment", "input": {...}}`` whose class (found by running it, then
  shrinking it, at the start of the run) is accepted; any entry may add a ``"note"``;
- plain text: one key (or pattern) per line; blank lines and lines starting with ``#``
  are skipped.

A leading byte order mark is ignored. A file that starts with ``{``, or with ``[``
before anything but a key, is JSON and read strictly (§1: a duplicate key, ``NaN`` or
a syntax error is an :class:`AcceptError` naming its line and column). A pattern
that names no features (it ends with
``|*`` after the code part, or has only five parts) accepts the coarse key without
shrinking its inputs. A key or pattern that can match no class key (another number of
parts, no op, a rule that is neither ``§...`` nor ``adapter.KIND``) is an
:class:`AcceptError` naming its line or entry.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Mapping, Sequence
from typing import Any, Final

import attrs

from replykit.fuzz.adapter import FAILURES
from replykit.fuzz.classify import SEP
from replykit.fuzz.ops import ALL_OPS, OPS, Op
from replykit.questionnaire.payload.json_strict import read_json_value
from replykit.text import LINE_END_RE, LineIndex, trim_blank


class AcceptError(ValueError):
    """An accept file that cannot be read: not UTF-8, JSON of another shape, or a key
    that can match no class key (the message names the line or entry)."""


@attrs.frozen
class Acceptance:
    """Accepted class keys (and patterns) and examples whose classes are accepted.

    It holds JSON values as read from the accept file (plain ``dict`` and ``list``), so it does
    not hash.
    """

    patterns: tuple[str, ...] = ()
    examples: tuple[tuple[Op, Mapping[str, Any]], ...] = ()

    def accepts(self, key: str) -> bool:
        """True when the class key text ``key`` matches an accepted key or pattern."""
        return any(key == p or fnmatch.fnmatchcase(key, p) for p in self.patterns)

    def accepts_coarse(self, coarse: str) -> bool:
        """True when a pattern accepts every class of the coarse key text ``coarse``
        whatever its features (so its inputs need no shrinking)."""
        for pattern in self.patterns:
            parts = pattern.split(SEP)
            if len(parts) == 5 and fnmatch.fnmatchcase(coarse, pattern):
                return True
            if (
                len(parts) == 6
                and parts[5] == "*"
                and fnmatch.fnmatchcase(coarse, SEP.join(parts[:5]))
            ):
                return True
        return False

    def with_key(self, key: str) -> Acceptance:
        """This acceptance with one more key."""
        return attrs.evolve(self, patterns=(*self.patterns, key))


NO_ACCEPT: Final = Acceptance()


#: The numbers of parts a class key has: ``op|adapter.KIND``, the coarse key, the key.
KEY_PARTS: Final = (2, 5, 6)


def pattern_problem(pattern: str) -> str | None:
    """Why the key or pattern ``pattern`` can match no class key (docs/fuzzing.md,
    "Classes"), or ``None``. The parts before the first one holding ``*`` (which
    matches across ``|``) are checked: the op, then the rule."""
    parts = pattern.split(SEP)
    starred = [i for i, part in enumerate(parts) if "*" in part]
    fixed = parts[: starred[0]] if starred else parts
    if not starred and len(parts) not in KEY_PARTS:
        return (
            f"{pattern!r} has {len(parts)} part(s); a class key is OP|adapter.KIND or has "
            "5 or 6 parts separated by |"
        )
    if fixed and not any(fnmatch.fnmatchcase(op, fixed[0]) for op in ALL_OPS):
        return f"{pattern!r} names no op ({', '.join(ALL_OPS)})"
    if len(fixed) < 2:
        return None
    rule = fixed[1]
    failures = [f"adapter.{kind}" for kind in FAILURES]
    if not starred and len(parts) == 2:
        if not any(fnmatch.fnmatchcase(f, rule) for f in failures):
            return f"{pattern!r}: a two-part key is OP|adapter.KIND ({', '.join(failures)})"
    elif rule[:1] not in ("§", "*", "?", "[") and not any(
        fnmatch.fnmatchcase(f, rule) for f in failures
    ):
        return f"{pattern!r}: the rule {rule!r} is neither a § section nor adapter.KIND"
    return None


def _checked(pattern: str, where: str) -> str:
    problem = pattern_problem(pattern)
    if problem is not None:
        raise AcceptError(f"{where}: {problem}")
    return pattern


def _entry(item: Any, where: str) -> tuple[str | None, tuple[Op, Mapping[str, Any]] | None]:
    if isinstance(item, str):
        return _checked(item, where), None
    if isinstance(item, Mapping):
        key = item.get("key")
        if isinstance(key, str):
            return _checked(key, where), None
        op, body = item.get("op"), item.get("input")
        if isinstance(op, str) and isinstance(body, Mapping):
            for known in OPS:
                if known == op:
                    return None, (known, dict(body))
            raise AcceptError(f"{where}: unknown op {op!r}; expected one of {', '.join(OPS)}")
    raise AcceptError(
        f'{where}: expected a key string, {{"key": ...}} or {{"op": ..., "input": {{...}}}}'
    )


def parse_accept(text: str) -> Acceptance:
    """An :class:`Acceptance` from the text of an accept file (module docstring; a
    leading byte order mark is ignored). Raises :class:`AcceptError` for JSON of
    another shape or a key that can match no class key (naming the 1-based line or
    entry). A file that starts with ``{`` (or ``[`` before anything but a key) is
    JSON, read strictly: a duplicate key, ``NaN`` or a syntax error is an
    :class:`AcceptError` ``not strict JSON at line L, column C: ...``."""
    text = text.removeprefix("\ufeff")
    if not _is_json(text):
        # §1 line endings and §1.1 blank, not str.splitlines()/str.strip().
        lines = [
            _checked(trim_blank(line), f"line {n}")
            for n, line in enumerate(LINE_END_RE.split(text), start=1)
            if trim_blank(line) and not trim_blank(line).startswith("#")
        ]
        return Acceptance(tuple(lines))
    data = _strict_json(text)
    items: Sequence[Any]
    if isinstance(data, Mapping) and isinstance(data.get("classes"), list):
        items = [c for c in data["classes"] if isinstance(c, Mapping)]
        for n, found in enumerate(items, start=1):
            if not isinstance(found.get("key"), str):
                raise AcceptError(f"classes[{n}] has no key (a report of an older replykit?)")
        return Acceptance(tuple(str(c["key"]) for c in items))
    if isinstance(data, Mapping) and isinstance(data.get("accept"), list):
        items = data["accept"]
    elif isinstance(data, list):
        items = data
    else:
        raise AcceptError('expected a report.json, {"accept": [...]} or a list of entries')
    keys: list[str] = []
    examples: list[tuple[Op, Mapping[str, Any]]] = []
    for n, item in enumerate(items, start=1):
        key, example = _entry(item, f"entry {n}")
        if key is not None:
            keys.append(key)
        if example is not None:
            examples.append(example)
    return Acceptance(tuple(keys), tuple(examples))


def _is_json(text: str) -> bool:
    """Whether an accept file is JSON: it starts with ``{``, or with ``[`` and its
    first line is not a key pattern (``[sq]egment|...`` is one), blank skipped."""
    stripped = trim_blank(text)
    if stripped.startswith("{"):
        return True
    if not stripped.startswith("["):
        return False
    first = trim_blank(LINE_END_RE.split(stripped, maxsplit=1)[0])
    return pattern_problem(first) is not None


def _strict_json(text: str) -> Any:
    """The value of a JSON accept file, read as strictly as every JSON replykit reads
    (§1: no duplicate key, ``NaN`` or lone surrogate). Raises :class:`AcceptError`
    ``not strict JSON at line L, column C: ...`` (1-based, code points)."""
    read = read_json_value(text)
    if not read.findings:
        return read.value
    first = min(read.findings, key=lambda f: f.start or 0)
    line, column = LineIndex(text).line_col(first.start or 0)
    message = first.message.removeprefix("JSON syntax error: ")
    raise AcceptError(f"not strict JSON at line {line}, column {column}: {message}")


def load_accept(path: str) -> Acceptance:
    """:func:`parse_accept` of the UTF-8 file at ``path``. Raises ``OSError`` when it
    cannot be read and :class:`AcceptError` when it is not UTF-8 or has another
    shape."""
    with open(path, "rb") as handle:
        raw = handle.read()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise AcceptError(f"not UTF-8 (byte {exc.start})") from None
    return parse_accept(text)


__all__ = [
    "NO_ACCEPT",
    "AcceptError",
    "Acceptance",
    "load_accept",
    "parse_accept",
    "pattern_problem",
]
