"""The fast paths of the fenced-YAML reading give exactly what the full reading gives
(docs/protocol.md §4, §4.1).

* ``plain_read`` (one loop over the events, value only) against the full reading
  (depth-checked stream, ``Builder``, spans and findings), with the same parser, on
  documents drawn with anchors, aliases, tags, YAML 1.1 scalars, duplicate and
  non-string keys, flow and scalar roots, several documents, syntax errors and nesting
  around the depth limit: whenever the fast path answers, the full reading reports
  nothing and builds the same value; whenever the full reading reports nothing, the
  fast path answers.
* ``read_yaml`` on such a payload: the spans computed lazily on first use are the full
  reading's.
* ``plain_form`` (the field table with nothing to report) against the full checks, on
  valid forms and on forms with one field edited: the same form when the checks report
  nothing, and an answer whenever they report nothing.
"""

from __future__ import annotations

import sys
from typing import Any

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from payload.same_read import assert_same_read
from payload.yaml_text import yaml_texts
from replykit.cap import Collector
from replykit.diagnostics import Finding
from replykit.questionnaire.limits import DEFAULT_LIMITS, Limits
from replykit.questionnaire.payload import fenced_form, fenced_plain, yaml12
from replykit.questionnaire.payload.results import FormRead, Read, finding_sink
from replykit.questionnaire.payload.yaml_build import plain_read
from replykit.questionnaire.payload.yaml_loader import choose_loader
from replykit.questionnaire.payload.yaml_referee import RefereeParser
from replykit.testing.strategies import form_dicts, form_yaml, hostile_payloads

EXAMPLES = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# Scalars where YAML 1.1 and 1.2 differ, every core-schema kind, quoted and block
# scalars, surrogate escapes and an oversized integer ...
_CALM_LEAVES = [
    "a", "b c", "问卷", "yes", "No", "on", "OFF", "y", "0o17", "0x1F", "017", "1_000",
    "9:16", "1e3", ".5", "+1", "-0", "1.", ".inf", "-.Inf", ".nan", ".NaN", "~", "null",
    "Null", "", "true", "False", "TRUE", "2026-01-01", "'q'", "''", '"d\\n"', '""',
    '"\\U0001F600"', "|\n  block", ">-\n  fold", "a #c", "a#b", "[a, b]", "{a: 1}", "[]",
    "{}", "'it''s'",
]  # fmt: skip
# ... and nodes the fast path must leave to the full reading (anchors, aliases, tags,
# surrogates, an integer too long to convert, broken quotes, misplaced indicators).
_WILD_LEAVES = [
    '"\\ud800"', '"\\ud800\\udc00"', "1" * 4400, "&a x", "*a", "!!str 1", "!x y", "! z",
    "&b [1]", "'unclosed", '"bad \\q"', "x: y", "- z", "@x", "- ", "? k", "[a, *a]",
]  # fmt: skip
_CALM_KEYS = ["a", "b", "title", "text", "é", "a b", "'q'", '"d"', "x1"]
_WILD_KEYS = [
    "1", "0x1", "null", "~", "true", "&k a", "*k", "!!str a", "!!int 1", "[a]", "{a: b}",
    "? c\n", "-",
]  # fmt: skip
# Whether a tree draws wild nodes at all (one in three), so that most trees have nothing
# to report somewhere and the fast path answers on many of them.
_WILD = st.shared(st.integers(0, 2).map(lambda n: n == 0), key="test_yaml_fast_path.wild")


def _leaf(draw: st.DrawFn) -> str:
    wild = draw(_WILD) and draw(st.integers(0, 3)) == 0
    return draw(st.sampled_from(_WILD_LEAVES if wild else _CALM_LEAVES))


def _key(draw: st.DrawFn) -> str:
    wild = draw(_WILD) and draw(st.integers(0, 3)) == 0
    return draw(st.sampled_from(_WILD_KEYS if wild else _CALM_KEYS))


def _node(draw: st.DrawFn, indent: int, depth: int) -> str:
    """A value placed after ``key:`` or ``-``: a scalar on the same line, or a nested
    block collection on the following lines."""
    if depth >= 8 or draw(st.integers(0, 2)) == 0:
        return " " + _leaf(draw).replace("\n", "\n" + " " * indent)  # block scalars
    wild = draw(_WILD) and draw(st.integers(0, 3)) == 0
    decoration = draw(st.sampled_from([" &n", " !!map", " !t"])) if wild else ""
    return decoration + "\n" + _block(draw, indent + 2, depth + 1)


def _block(draw: st.DrawFn, indent: int, depth: int) -> str:
    pad = " " * indent
    lines = []
    if draw(st.booleans()):
        for _ in range(draw(st.integers(1, 3))):
            lines.append(f"{pad}-{_node(draw, indent, depth)}")
    else:
        for _ in range(draw(st.integers(1, 3))):
            lines.append(f"{pad}{_key(draw)}:{_node(draw, indent, depth)}")
    return "\n".join(lines)


@st.composite
def yaml_trees(draw: st.DrawFn) -> str:
    """A block document, mostly a mapping at the root (a sequence, scalar or flow root
    sometimes), with a drawn prefix and suffix (a second document, an end marker)."""
    root = draw(st.integers(0, 9))
    if root == 0:
        body = _leaf(draw)
    elif root == 1:
        body = draw(st.sampled_from(["{a: 1}", "[a]", "{a: [1, {b: c}]}", ""]))
    else:
        body = _block(draw, 0, 1) if root == 2 else "k:\n" + _block(draw, 2, 2)
    prefix = draw(st.sampled_from(["", "", "", "---\n", "# c\n", "%YAML 1.2\n---\n"]))
    suffix = draw(st.sampled_from(["", "\n", "\n", "\n...\n", "\n---\nx: 1\n", "\n---\n"]))
    return prefix + body + suffix


def _deep(depth: int, seq: bool) -> str:
    """``depth`` nested block collections (mappings, or a sequence at every level)."""
    if seq:
        return "a:\n" + "".join("  " * i + "-\n" for i in range(1, depth)) + "  " * depth + "- x\n"
    return "a:\n" + "".join("  " * i + "b:\n" for i in range(1, depth)) + "  " * depth + "c: 1\n"


@st.composite
def deep_documents(draw: st.DrawFn) -> tuple[str, int]:
    """A document nested about as deep as the limit drawn with it."""
    limit = draw(st.integers(1, 10))
    depth = limit + draw(st.integers(-2, 2))
    return _deep(max(1, depth), draw(st.booleans())), limit


def _parser() -> type[Any]:
    return yaml.CBaseLoader if choose_loader() == "c" else RefereeParser


def _assert_fast_equals_full(payload: str, max_depth: int) -> None:
    parser = _parser()
    fast = plain_read(payload, max_depth, parser)
    full = yaml12._read(payload, max_depth, parser, sys.maxsize, ())
    if full is None:  # the C parser did not read the document whole
        assert fast is None
        return
    if fast is not None:
        assert full.findings == ()
        assert type(fast) is dict
        assert repr(fast) == repr(full.value)
    elif type(full.value) is dict:
        assert full.findings != (), "the fast path left a payload with nothing to report"


@EXAMPLES
@given(yaml_trees(), st.integers(1, 10))
def test_fast_reading_equals_the_full_reading_on_trees(payload: str, max_depth: int) -> None:
    _assert_fast_equals_full(payload, max_depth)


@EXAMPLES
@given(yaml_texts())
def test_fast_reading_equals_the_full_reading_on_yaml_texts(payload: str) -> None:
    _assert_fast_equals_full(payload, 64)


@EXAMPLES
@given(deep_documents())
def test_fast_reading_stops_at_the_depth_limit(drawn: tuple[str, int]) -> None:
    payload, limit = drawn
    _assert_fast_equals_full(payload, limit)


@EXAMPLES
@given(form_dicts(traps=True), st.booleans())
def test_fast_reading_equals_the_full_reading_on_forms(form: dict[str, Any], quoted: bool) -> None:
    _assert_fast_equals_full(form_yaml(form, quoted=quoted), 64)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_payloads())
def test_fast_reading_equals_the_full_reading_on_hostile_payloads(fragment: str) -> None:
    _assert_fast_equals_full(fragment, 64)


@EXAMPLES
@given(st.one_of(yaml_trees(), form_dicts(traps=True).map(form_yaml)))
def test_lazy_spans_are_the_full_readings(payload: str) -> None:
    read = yaml12.read_yaml(payload)
    full = yaml12.read_yaml(payload, max_findings=10**6)  # the same reading
    parser = yaml.CBaseLoader if read.findings == () and choose_loader() == "c" else None
    reference = yaml12._read(payload, 64, parser or RefereeParser, sys.maxsize, ())
    if read.findings == () and reference is not None and reference.findings == ():
        assert dict(read.spans) == dict(reference.spans)
        assert dict(read.key_spans) == dict(reference.key_spans)
    assert dict(read.spans) == dict(full.spans)


def test_spans_of_a_valid_payload_are_built_on_first_use() -> None:
    payload = "title: T\nquestions:\n  - type: free_text\n    text: Why?\n    default: ''\n"
    read = yaml12.read_yaml(payload)
    assert read.findings == ()
    assert read.spans[("questions", 0, "text")] == (50, 54)
    assert payload[slice(*read.key_spans[("questions", 0, "default")])] == "default"
    assert len(read.spans) == 7 and len(read.key_spans) == 5


# --- the field table -------------------------------------------------------------------

_EDITS: list[tuple[str, Any]] = [
    ("title", ""), ("title", " "), ("title", 1), ("title", None), ("title", ["x"]),
    ("extra", "x"), ("questions", []), ("questions", "x"), ("type", "text"),
    ("type", "multiple_choice"), ("type", "choice"), ("type", 1), ("text", ""),
    ("text", "\u3000"), ("text", True), ("default", None), ("default", 1), ("default", []),
    ("default", ["zz"]), ("default", "zz"), ("default", ""), ("options", []),
    ("options", ["a", "a"]), ("options", ["__questionnaire_other__"]), ("options", [" "]),
    ("options", [{"value": "a"}]), ("options", [1]), ("options", "a"),
    ("allow_other", "yes"), ("allow_other", 1), ("allow_other", True),
    ("allow_other", False), ("note", "x"), ("-default", None), ("-type", None),
    ("-text", None), ("-options", None), ("-title", None), ("-questions", None),
    ("question", "x"), ("question", ["x"]),
]  # fmt: skip


def _edit(form: dict[str, Any], edit: tuple[str, Any], at: int) -> dict[str, Any]:
    """``form`` with one field set (``-field``: removed) at the top level or in the
    question at ``at`` (modulo their number); a list of options or defaults is put
    before the question's own options."""
    field, value = edit
    out = dict(form)
    raw = out.get("questions")
    questions = (
        [dict(q) if isinstance(q, dict) else q for q in raw] if isinstance(raw, list) else []
    )
    if questions:
        out["questions"] = questions
    if field in ("title", "extra", "questions", "-title", "-questions"):
        target: dict[str, Any] = out
    elif not questions:
        return out
    elif field == "question":
        questions[at % len(questions)] = value
        return out
    elif isinstance(questions[at % len(questions)], dict):
        target = questions[at % len(questions)]
    else:
        return out
    if field.startswith("-"):
        target.pop(field[1:], None)
    elif field == "options" and isinstance(value, list) and value:
        own = target.get("options")
        target[field] = [*value, *own] if isinstance(own, list) else value
    else:
        target[field] = value
    return out


def _full(root: Any, limits: Limits) -> tuple[Any, tuple[Finding, ...]]:
    """The full checks of a root mapping read from YAML: the form and every finding."""
    sink: Collector[Finding] = finding_sink(limits.max_diagnostics)
    form = fenced_form._checked_form("", Read(value=root), limits, sink)
    return (None if sink.has_error else form), tuple(sink)


@EXAMPLES
@given(
    form_dicts(traps=True),
    st.lists(st.tuples(st.sampled_from(_EDITS), st.integers(0, 3)), max_size=2),
    st.sampled_from([DEFAULT_LIMITS, Limits(max_questions=2, max_options=2)]),
)
def test_plain_form_equals_the_full_checks(
    form: dict[str, Any], edits: list[tuple[tuple[str, Any], int]], limits: Limits
) -> None:
    for edit, at in edits:
        form = _edit(form, edit, at)
    fast = fenced_plain.plain_form(form, limits)
    expected, findings = _full(form, limits)
    if fast is not None:
        assert findings == ()
        assert fast == expected
    else:
        assert findings != (), "the fast checks refused a form with nothing to report"


def _full_fenced(payload: str, limits: Limits) -> FormRead:
    """``read_fenced_form`` without its fast paths: the nested fences searched line by
    line, a collector always built, every finding, the full checks."""
    sink = finding_sink(limits.max_diagnostics)
    nested = list(fenced_form.nested_fences(payload, 3))
    sink.extend(nested)
    read = yaml12.read_yaml(
        payload,
        max_depth=limits.max_depth,
        max_findings=limits.max_diagnostics,
        quiet=[(f.start, f.end) for f in nested if f.start is not None and f.end is not None],
    )
    sink.extend(read.findings)
    sink.absorb(read.overflow, len(read.findings))
    apply = fenced_form._fields_apply(read)
    form = fenced_form._checked_form(payload, read, limits, sink) if apply else None
    return fenced_form._result(form, read.spans, sink)


_DAMAGE = [
    "", "extra: x\n", "title: again\n", "  - type: free_text\n    text: T\n    default: x\n",
    "  - type: free_text\n    text: T\n", "  - &a x\n", "  - !!str x\n", "```\n", "\tx\n",
    "  - type: single_choice\n    text: T\n    options: [a, a]\n    default: a\n",
]  # fmt: skip


@EXAMPLES
@given(
    form_dicts(traps=True),
    st.booleans(),
    st.sampled_from(_DAMAGE),
    st.sampled_from([DEFAULT_LIMITS, Limits(max_questions=2, max_options=2, max_diagnostics=2)]),
)
def test_read_fenced_form_equals_the_full_path(
    form: dict[str, Any], quoted: bool, damage: str, limits: Limits
) -> None:
    payload = form_yaml(form, quoted=quoted) + damage
    assert_same_read(
        fenced_form.read_fenced_form(payload, limits=limits), _full_fenced(payload, limits)
    )
