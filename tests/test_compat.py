"""§9 Sage compatibility: each switch alone, and compat="sage" with all of them."""

from __future__ import annotations

import json

import attrs
import pytest
from hypothesis import given
from hypothesis import strategies as st

from replykit import Limits, segment
from replykit.questionnaire.compat import SAGE, Compat, unescape_payload
from replykit.questionnaire.segmentation.blocks import PayloadMap

FORM = {"title": "T", "questions": [{"type": "text", "text": "Why?"}]}
BODY = json.dumps(FORM, ensure_ascii=False)


def blocks(text: str, compat: Compat | str | None) -> list[tuple[str | None, bool]]:
    return [
        (s.name, s.valid) for s in segment(text, compat=compat).segments if s.kind != "markdown"
    ]


def test_strict_is_the_default() -> None:
    text = f"Intro <Questionnaire>{BODY}</Questionnaire>"
    assert blocks(text, None) == []
    assert [d.code for d in segment(text).diagnostics] == ["near_miss.case"]


@pytest.mark.parametrize(
    ("switch", "text"),
    [
        ("case_insensitive", f"Intro <Questionnaire>{BODY}</QUESTIONNAIRE>"),
        ("escaped_closers", f"Intro <questionnaire>{BODY}<\\/questionnaire>"),
        ("tag_attributes", f'Intro <questionnaire timeout_seconds="30">{BODY}</questionnaire>'),
        ("decode_entities", f"Intro &lt;questionnaire&gt;{BODY}&lt;/questionnaire&gt;"),
        (
            "decode_json_string",
            json.dumps(f"Intro\n\n<questionnaire>{BODY}</questionnaire>", ensure_ascii=False),
        ),
        ("escaped_payloads", f"Intro <questionnaire>{json.dumps(BODY)[1:-1]}</questionnaire>"),
    ],
)
def test_each_switch_alone_opens_the_block(switch: str, text: str) -> None:
    assert ("questionnaire", True) not in blocks(text, None)
    assert blocks(text, Compat(**{switch: True})) == [("questionnaire", True)]
    assert blocks(text, "sage") == [("questionnaire", True)]


def test_tag_attribute_timeout_is_kept() -> None:
    text = f'Intro <questionnaire timeout_seconds="30">{BODY}</questionnaire>'
    form = segment(text, compat=Compat(tag_attributes=True)).segments[1].questionnaire
    assert form is not None and form.timeout_seconds == 30


def test_decoded_text_is_what_offsets_index() -> None:
    raw = "Intro &lt;questionnaire&gt;{}&lt;/questionnaire&gt; &amp; more"
    result = segment(raw, compat=SAGE)
    assert result.decoded == "Intro <questionnaire>{}</questionnaire> & more"
    assert "".join(s.text for s in result.segments) == result.decoded
    assert segment("no entities here", compat=SAGE).decoded is None


def test_filter_invalid_questions_drops_with_a_warning() -> None:
    payload = {"title": "T", "questions": [{"type": "bogus", "text": "a"}, FORM["questions"][0]]}
    text = f"Intro <questionnaire>{json.dumps(payload)}</questionnaire>"
    strict = segment(text).segments[1]
    assert not strict.valid
    assert [d.code for d in strict.diagnostics] == ["questionnaire.start.question_type_invalid"]
    relaxed = segment(text, compat=Compat(filter_invalid_questions=True)).segments[1]
    assert relaxed.valid
    assert [(d.code, d.severity, d.path) for d in relaxed.diagnostics] == [
        ("compat.question_dropped", "warning", "questions[1]")
    ]
    # The warning covers the dropped question, not the whole payload.
    (dropped,) = relaxed.diagnostics
    assert text[dropped.start : dropped.end] == '{"type": "bogus", "text": "a"}'
    assert relaxed.questionnaire is not None
    assert [q.text for q in relaxed.questionnaire.questions] == ["Why?"]


@pytest.mark.parametrize(
    ("bad", "code", "at"),
    [
        ('{"type": "text", "text": "a", "x": NaN}', "json.constant", "NaN"),
        ('{"type": "text", "text": "a", "text": "b"}', "json.duplicate_key", '"text"'),
        ('{"type": "text", "text": "\\ud800"}', "json.lone_surrogate", "\\ud800"),
        ('{"type": "text", "text": 1e400}', "json.number_too_large", "1e400"),
    ],
)
def test_filter_never_hides_a_strict_json_error(bad: str, code: str, at: str) -> None:
    # §1: strict-JSON problems are never resolved silently, not by dropping a question
    # either (Sage's own client refuses NaN for the whole payload).
    payload = f'{{"questions": [{bad}, {{"type": "text", "text": "Q"}}]}}'
    text = f"Intro <questionnaire>{payload}</questionnaire>"
    block = segment(text, compat=SAGE).segments[1]
    assert not block.valid and block.questionnaire is None
    assert [(d.code, d.path, text[d.start : d.end]) for d in block.diagnostics] == [
        (code, "questions[1]" + (".x" if code == "json.constant" else ".text"), at)
    ]


def test_filter_never_hides_a_limit() -> None:
    form = {"questions": [{"type": "single_choice", "text": "a", "options": ["x", "y", "z"]}]}
    form["questions"].append({"type": "text", "text": "Q"})
    text = f"Intro <questionnaire>{json.dumps(form)}</questionnaire>"
    block = segment(text, compat=SAGE, limits=Limits(max_options=2)).segments[1]
    assert not block.valid
    assert [d.code for d in block.diagnostics] == ["limit.options"]


def test_filter_keeps_the_error_when_nothing_is_left() -> None:
    # Filtering never adds an error: with no question left, the strict reading stands.
    payload = {"title": "T", "questions": [{"type": "bogus", "text": "a"}, 5]}
    text = f"Intro <questionnaire>{json.dumps(payload)}</questionnaire>"
    block = segment(text, compat=SAGE).segments[1]
    assert not block.valid
    assert [(d.code, d.path) for d in block.diagnostics] == [
        ("questionnaire.start.question_type_invalid", "questions[1].type"),
        ("questionnaire.start.question_not_object", "questions[2]"),
    ]


def test_unknown_compat_is_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown compat"):
        segment("x", compat="yiii")


# --- escaped_payloads: quotes stored backslash-escaped --------------------------------------

ESCAPED = r"{\"questions\":[{\"type\":\"text\",\"text\":\"Q\"}]}"


def escaped(value: object) -> str:
    """``value`` as JSON, written the way a JSON string would hold it (quotes escaped)."""
    return json.dumps(json.dumps(value, ensure_ascii=False), ensure_ascii=False)[1:-1]


@pytest.mark.parametrize("closer", ["</questionnaire>", "<\\/questionnaire>"])
def test_the_stored_sage_payload_opens_a_card(closer: str) -> None:
    text = f"<questionnaire>{ESCAPED}{closer}"
    strict = segment(text)
    if closer.startswith("</"):
        assert [(d.code, d.start) for d in strict.diagnostics] == [("json.syntax", 16)]
    else:
        assert [d.code for d in strict.diagnostics] == ["near_miss.unclosed_tag"]
    sage = segment(text, compat="sage")
    assert sage.diagnostics == ()
    block = sage.segments[0]
    assert (block.kind, block.valid, block.text) == ("questionnaire", True, text)
    assert block.questionnaire is not None
    assert [(q.id, q.type, q.text) for q in block.questionnaire.questions] == [
        ("q1", "free_text", "Q")
    ]
    assert sage.decoded is None  # the message text itself is unchanged


def test_escaped_payloads_is_a_switch_of_its_own() -> None:
    text = f"Intro <questionnaire>{ESCAPED}</questionnaire>"
    assert SAGE.escaped_payloads and not Compat().escaped_payloads
    assert blocks(text, None) == [("questionnaire", False)]
    assert blocks(text, Compat(escaped_payloads=True)) == [("questionnaire", True)]
    everything_else = attrs.evolve(SAGE, escaped_payloads=False)
    assert blocks(text, everything_else) == [("questionnaire", False)]


def test_diagnostics_point_at_the_escapes_that_wrote_the_value() -> None:
    payload = escaped(
        {
            "questions": [
                {"type": "bogus", "text": "😀"},
                {"type": "text"},
                {"type": "text", "text": "a\nb"},
            ]
        }
    )
    assert "\\n" not in payload.replace("\\\\n", "")  # the line break is a double escape
    text = f"Intro\n<questionnaire>{payload}</questionnaire>"
    got = segment(text, compat=Compat(escaped_payloads=True)).diagnostics
    bogus = text.index(r"\"bogus\"")
    second = text.index(r"{\"type\": \"text\"}")
    assert [(d.code, d.start, d.end, d.line, d.column, d.path) for d in got] == [
        ("questionnaire.start.question_type_invalid", bogus, bogus + 9, 2, bogus - 5,
         "questions[1].type"),
        ("questionnaire.start.question_text_required", second, second + 20, 2, second - 5,
         "questions[2].text"),
    ]  # fmt: skip


def test_unescaped_values_are_json_values() -> None:
    form = {"title": 'Say "hi" \\ 😀', "questions": [{"type": "text", "text": "a\nb\tc/d"}]}
    text = f"Intro <questionnaire>{escaped(form)}</questionnaire>"
    read = segment(text, compat="sage").segments[1].questionnaire
    assert read is not None
    assert (read.title, read.questions[0].text) == ('Say "hi" \\ 😀', "a\nb\tc/d")


def test_escaped_response_payloads_are_read_too() -> None:
    response = {
        "type": "questionnaire_response",
        "questionnaire_id": "m_q1",
        "status": "submitted",
        "answers": [{"question_id": "q1", "type": "free_text", "answer": "ok"}],
    }
    text = f"<questionnaire-response>{escaped(response)}</questionnaire-response>"
    assert not segment(text).segments[0].valid
    block = segment(text, compat="sage").segments[0]
    assert block.valid and block.response is not None
    assert block.response.answers[0].answer == "ok"


@pytest.mark.parametrize(
    "payload",
    [
        '{"title": "say \\"hi\\"", "questions": [{"type": "text", "text": "Q"}]}',  # valid JSON
        r"{\"questions\":[{\"type\":\"text\",\"text\":\"Q\"}]",  # unescaped: still no JSON
        r'{\"questions": [1]}',  # a raw quote: not one escaped body
        r"{\"questions\":[\x]}",  # not a JSON escape
    ],
)
def test_only_an_escaped_body_that_unescapes_to_json_is_unescaped(payload: str) -> None:
    text = f"Intro <questionnaire>{payload}</questionnaire>"
    strict = segment(text)
    sage = segment(text, compat=Compat(escaped_payloads=True))
    assert sage == strict


@pytest.mark.parametrize("depth", [3, 64])
def test_an_escaped_value_too_deep_is_reported_as_the_plain_one(depth: int) -> None:
    # Too deep is a limit, not "no JSON": the unescaped value is read (§9) and the
    # finding is json.too_deep, at the escape that wrote the opening bracket.
    form = {"questions": [{"type": "text", "text": "a"}], "x": [0]}
    plain = json.dumps(form, separators=(",", ":")).replace(
        "[0]", "[" * (depth + 1) + "]" * (depth + 1)
    )
    limits = Limits(max_depth=depth)
    got = []
    for payload in (plain, json.dumps(plain)[1:-1]):
        text = f"Intro <questionnaire>{payload}</questionnaire>"
        (d,) = segment(text, compat=Compat(escaped_payloads=True), limits=limits).diagnostics
        got.append((d.code, text[d.start]))
    assert got == [("json.too_deep", "["), ("json.too_deep", "[")]


def test_payload_size_limit_comes_first() -> None:
    from replykit import Limits

    text = f"Intro <questionnaire>{ESCAPED}</questionnaire>"
    result = segment(text, compat="sage", limits=Limits(max_payload=10))
    assert [d.code for d in result.diagnostics] == ["limit.payload_size"]


def test_unescape_payload_pieces() -> None:
    assert unescape_payload('{"a":1}') is None
    assert unescape_payload(r"{\"a\":1}") == (
        '{"a":1}',
        ((0, 0), (1, 1), (2, 3), (3, 4), (4, 6), (7, 9)),
    )
    # A surrogate pair is one character at the first escape; a lone one stays lone.
    value, pieces = unescape_payload(r"\"\ud83d\ude00\udc00\"") or ("", ())
    assert value == '"😀\udc00"'
    assert pieces == ((0, 0), (1, 2), (2, 14), (3, 20), (4, 22))
    assert unescape_payload(r'\"a"') is None
    assert unescape_payload('\\"a\\') is None
    assert unescape_payload(r"\"\u12\"") is None


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner),
    max_leaves=8,
)


@given(JSON_VALUES.map(lambda v: {"v": v}))
def test_every_unescaped_character_maps_to_the_escape_that_wrote_it(value: object) -> None:
    raw = escaped(value)
    found = unescape_payload(raw)
    assert found is not None
    decoded, pieces = found
    assert decoded == json.dumps(value, ensure_ascii=False)
    to_raw = PayloadMap(pieces)
    assert to_raw(0) == 0 and to_raw(len(decoded)) == len(raw)
    for i, char in enumerate(decoded):
        written = raw[to_raw(i) : to_raw(i + 1)]
        assert json.loads(f'"{written}"') == char


def test_a_quoted_gt_ends_the_opening_tag() -> None:
    # docs/protocol.md §8.1: the tag ends at its first '>', inside quotes too.
    text = f'Intro <questionnaire title="a>b">{BODY}</questionnaire>'
    strict = segment(text)
    assert [s.kind for s in strict.segments] == ["markdown"]
    assert [(d.code, text[d.start : d.end]) for d in strict.diagnostics] == [
        ("near_miss.tag_attributes", '<questionnaire title="a>')
    ]
    sage = segment(text, compat=SAGE)
    block = sage.segments[1]
    assert (block.kind, block.valid, text[block.start : block.end]) == (
        "questionnaire",
        False,
        text[6:],
    )
    assert [(d.code, d.start, d.message) for d in sage.diagnostics] == [
        ("json.syntax", text.index("b"), "JSON syntax error: expected a value, found 'b'")
    ]


ENTITY_CASES = [
    # (text, decoded with decode_entities alone, decoded with case_insensitive too)
    (f"Intro &lt;Questionnaire&gt;{BODY}&lt;/Questionnaire&gt;", False, True),
    (f"Intro &lt;QUESTIONNAIRE&gt;{BODY}", False, True),
    (f"Intro &LT;questionnaire&GT;{BODY}&LT;/questionnaire&GT;", True, True),
    (f"Intro <questionnaire>{BODY}&lt;/questionnaire&gt;", True, True),
    (f"Intro <Questionnaire>{BODY}&lt;/Questionnaire&gt; &amp;", False, True),
    (f"Intro &lt;questionnaire-response&gt;{BODY}", True, True),
    # No whole family tag name, or no "<": nothing is decoded, whatever the case.
    ("Use &lt;b&gt;bold&lt;/b&gt; and the &lt;questionnaire_id&gt; field.", False, False),
    ("Use &lt;questionnaires&gt; &amp; &lt;questionnaire.x", False, False),
    (f"Tom &amp; Jerry: &Lt;questionnaire&Gt;{BODY}", False, False),
    (f"Tom &amp; Jerry: &lT;questionnaire&gt;{BODY}", False, False),
]


@pytest.mark.parametrize(("text", "alone", "any_case"), ENTITY_CASES)
def test_decode_entities_alone_claims_only_the_names_a_switch_reads(
    text: str, alone: bool, any_case: bool
) -> None:
    only = segment(text, compat=Compat(decode_entities=True))
    assert (only.decoded is not None) == alone
    if not alone:
        # Offsets stay those of the raw text: nothing was decoded.
        assert "".join(s.text for s in only.segments) == text
    both = segment(text, compat=Compat(decode_entities=True, case_insensitive=True))
    assert (both.decoded is not None) == any_case
    assert (segment(text, compat=SAGE).decoded is not None) == any_case
