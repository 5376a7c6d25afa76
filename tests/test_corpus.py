"""The real corpus (tests/corpus).

* Every file of the Sage documentation (``tests/corpus/sage-docs``) segments cleanly
  under the client and Self-check profiles, and none holds a candidate block: the two
  ``QUESTIONNAIRE_FORMATS.md`` documents (en, zh) describe the protocol with examples
  that all sit in fenced code or code spans, so they must stay inert (§3b).
* Every example of the CommonMark 0.31.2 spec (``tests/corpus/commonmark/spec.json``)
  segments and concatenates back, also when the family name forces the full lexer.
* The example messages the seed ``000_*.txt`` shows (copied in ``tests/data/seed``)
  give the forms the seed describes, written out by hand below.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from replykit.questionnaire.model import (
    Answer,
    Option,
    Question,
    Questionnaire,
    Response,
    Segmentation,
)
from replykit.questionnaire.profiles import CLIENT, SELF_CHECK, Profile, product
from replykit.questionnaire.segmentation.segmenter import segment

# Every test here runs under each YAML loader (docs/protocol.md §4.1).
pytestmark = pytest.mark.usefixtures("yaml_loader")

HERE = Path(__file__).parent
SAGE_DOCS = HERE / "corpus" / "sage-docs"
SPEC_JSON = HERE / "corpus" / "commonmark" / "spec.json"
SEED_DATA = HERE / "data" / "seed"

SAGE_FILES = sorted(SAGE_DOCS.rglob("*.md"))
PROTOCOL_DOCS = [SAGE_DOCS / lang / "QUESTIONNAIRE_FORMATS.md" for lang in ("en", "zh")]
SPEC_EXAMPLES = json.loads(SPEC_JSON.read_text(encoding="utf-8"))
PROFILES = {"client": CLIENT, "self_check": SELF_CHECK}

# Files of the corpus allowed to hold a candidate block or a near-miss, each with the
# reason CommonMark gives. The oracle (markdown-it-py) puts every protocol example of
# the corpus in code, so there is none; keep it that way unless CommonMark disagrees.
EXCEPTIONS: dict[str, str] = {}


def _read(path: Path) -> str:
    # Bytes decoded by hand: read_text() would translate CRLF and lone CR.
    return path.read_bytes().decode("utf-8")


def _rel(path: Path) -> str:
    return path.relative_to(SAGE_DOCS).as_posix()


def _assert_covers(text: str, result: Segmentation) -> None:
    """Segments are non-empty slices that tile ``text`` in order, no two Markdown
    segments in a row; every diagnostic lies inside the message."""
    assert "".join(s.text for s in result.segments) == text
    pos = 0
    prev_kind = None
    for seg in result.segments:
        assert seg.start == pos
        assert seg.end > seg.start
        assert seg.text == text[seg.start : seg.end]
        assert not (seg.kind == "markdown" and prev_kind == "markdown")
        pos, prev_kind = seg.end, seg.kind
    assert pos == len(text)
    for d in result.diagnostics:
        assert 0 <= d.start <= d.end <= len(text)


# --- sage-docs -------------------------------------------------------------------------


def test_corpus_is_complete() -> None:
    assert len(SAGE_FILES) == 110
    assert (SAGE_DOCS / "LICENSE").is_file()
    assert all(p.is_file() for p in PROTOCOL_DOCS)
    assert len(SPEC_EXAMPLES) == 655


@pytest.mark.parametrize("profile_name", sorted(PROFILES))
@pytest.mark.parametrize("path", SAGE_FILES, ids=_rel)
def test_sage_doc_segments_as_plain_markdown(path: Path, profile_name: str) -> None:
    text = _read(path)
    result = segment(text, message_id="doc", profile=PROFILES[profile_name])
    _assert_covers(text, result)
    assert not [d for d in result.diagnostics if d.severity == "error"]
    if _rel(path) in EXCEPTIONS:
        return
    assert [s.kind for s in result.segments] == ["markdown"]
    assert result.diagnostics == ()


def test_exceptions_name_real_files() -> None:
    names = {_rel(p) for p in SAGE_FILES}
    assert set(EXCEPTIONS) <= names


_OPENER_OR_TAG = re.compile(
    r"<(?:[a-z0-9]+-)?questionnaire(?:-response)?>|^ {0,3}`{3,}[ \t]*(?:[a-z0-9]+-)?questionnaire",
    re.MULTILINE,
)


@pytest.mark.parametrize("path", PROTOCOL_DOCS, ids=_rel)
def test_oracle_puts_protocol_examples_in_code(path: Path) -> None:
    """Cross-check with markdown-it-py: every tag and fence opener of the protocol
    documents is inside a fenced block or a code span, which is why the test above
    may demand plain Markdown."""
    text = _read(path)
    tokens = MarkdownIt("commonmark").parse(text)
    code_lines: set[int] = set()
    spans_by_line: dict[int, list[str]] = {}
    for tok in tokens:
        if tok.map is None:
            continue
        if tok.type in ("fence", "code_block"):
            code_lines.update(range(*tok.map))
        elif tok.type == "inline":
            spans = [c.content for c in tok.children or () if c.type == "code_inline"]
            for line in range(*tok.map):
                spans_by_line[line] = spans
    found = {"fence": 0, "span": 0}
    for m in _OPENER_OR_TAG.finditer(text):
        line = text.count("\n", 0, m.start())
        if line in code_lines:
            found["fence"] += 1
        else:
            assert any(m.group(0) in s for s in spans_by_line.get(line, ())), (line + 1, m)
            found["span"] += 1
    # The document's examples: one fenced form and three XML blocks in fences; the
    # response tag named in code spans in two table rows and two sentences.
    assert found == {"fence": 4, "span": 4}


# --- CommonMark spec examples ------------------------------------------------------------


@pytest.mark.parametrize("example", SPEC_EXAMPLES, ids=lambda e: f"ex{e['example']}")
def test_spec_example_concatenates(example: dict[str, object]) -> None:
    text = example["markdown"]
    assert isinstance(text, str)
    _assert_covers(text, segment(text))
    # The family name defeats the no-candidate fast path, so the lexer and grammar
    # read the whole example; a lone word is never a candidate nor a near-miss.
    forced = text + "\nquestionnaire\n"
    result = segment(forced)
    _assert_covers(forced, result)
    assert [s.kind for s in result.segments] == ["markdown"]
    assert result.diagnostics == ()


# --- the seed's examples -----------------------------------------------------------------

TASK_PAUSED = Questionnaire(
    title="任务已暂停",
    questions=(
        Question(
            id="q1",
            type="single_choice",
            text="是否继续当前任务？",
            options=(Option("继续", "继续"),),
            default="继续",
            allow_other=False,
        ),
    ),
)

LOOP_RECOVERY = Questionnaire(
    title="执行路径正在重复",
    questions=(
        Question(
            id="loop_recovery_action",
            type="free_text",
            text="请说明你希望我接下来如何处理",
            options=(),
            default="",
            allow_other=False,
        ),
    ),
)

PROJECT_CONFIRM = Questionnaire(
    title="项目确认",
    questions=(
        Question(
            id="q1",
            type="single_choice",
            text="下一步如何处理？",
            options=(Option("继续", "继续"), Option("调整", "调整")),
            default="继续",
            allow_other=False,
        ),
    ),
)

SEED_RESPONSE = Response(
    type="questionnaire_response",
    questionnaire_id="MESSAGE_ID_q1",
    status="submitted",
    answers=(
        Answer(
            question_id="q1",
            type="single_choice",
            answer="继续",
            question="是否继续当前任务？",
            value="继续",
            label="继续",
        ),
    ),
)


@pytest.mark.parametrize("profile", [CLIENT, SELF_CHECK], ids=lambda p: p.name)
def test_seed_fenced_task_paused(profile: Profile) -> None:
    text = _read(SEED_DATA / "fenced_task_paused.md")
    result = segment(text, message_id="m1", profile=profile)
    _assert_covers(text, result)
    assert result.diagnostics == ()
    preface, block = result.segments[0], result.segments[1]
    assert preface.kind == "markdown"
    assert preface.text == "已达到本轮最大循环次数（50），任务已暂停。\n\n"
    assert block.kind == "questionnaire"
    # The block runs from the opener to the closer's line ending (docs/architecture.md).
    assert (block.start, block.end) == (text.index("```questionnaire"), len(text))
    assert block.text.endswith("\n```\n")
    assert block.encoding == "fenced_yaml"
    assert block.name == "questionnaire"
    assert block.registered and block.valid
    assert block.id == "m1_q1"
    assert block.questionnaire == TASK_PAUSED
    assert len(result.segments) == 2


def test_seed_fenced_form_alone_lacks_preface() -> None:
    # The seed: a fenced questionnaire cannot be the whole assistant message.
    text = _read(SEED_DATA / "fenced_task_paused.md")
    alone = text[text.index("```questionnaire") :]
    result = segment(alone)
    block = result.segments[0]
    assert block.kind == "questionnaire"
    assert not block.valid
    assert block.questionnaire is None
    assert [d.code for d in block.diagnostics] == ["fence.no_preface"]


@pytest.mark.parametrize(
    ("filename", "name", "form"),
    [
        ("xml_loop_recovery.md", "questionnaire", LOOP_RECOVERY),
        ("xml_sage_project.md", "sage-questionnaire", PROJECT_CONFIRM),
    ],
)
@pytest.mark.parametrize("profile", [CLIENT, SELF_CHECK], ids=lambda p: p.name)
def test_seed_xml_forms(filename: str, name: str, form: Questionnaire, profile: Profile) -> None:
    text = _read(SEED_DATA / filename)
    result = segment(text, message_id="m7", profile=profile)
    _assert_covers(text, result)
    assert result.diagnostics == ()
    block = result.segments[0]
    closer = f"</{name}>"
    assert block.kind == "questionnaire"
    assert (block.start, block.end) == (0, text.index(closer) + len(closer))
    assert block.encoding == "xml_json"
    assert block.name == name
    assert block.registered and block.valid
    assert block.id == "m7_q1"
    assert block.questionnaire == form
    assert [s.kind for s in result.segments] == ["questionnaire", "markdown"]
    assert result.segments[1].text == "\n"


def test_seed_xml_form_json_shape() -> None:
    text = _read(SEED_DATA / "xml_sage_project.md")
    block = segment(text).segments[0]
    assert block.to_json()["questionnaire"] == {
        "title": "项目确认",
        "questions": [
            {
                "id": "q1",
                "type": "single_choice",
                "text": "下一步如何处理？",
                "options": [
                    {"value": "继续", "label": "继续"},
                    {"value": "调整", "label": "调整"},
                ],
                "default": "继续",
                "allow_other": False,
            }
        ],
    }


def test_seed_sage_name_is_markdown_elsewhere() -> None:
    # A product's own client registers only its namespace and the bare name (§6).
    text = _read(SEED_DATA / "xml_sage_project.md")
    block = segment(text, profile=product("yiii")).segments[0]
    assert block.kind == "questionnaire"
    assert not block.registered and not block.valid
    assert [d.code for d in block.diagnostics] == ["name.unregistered"]


def test_seed_response() -> None:
    text = _read(SEED_DATA / "xml_response.md")
    result = segment(text, message_id="u1")
    _assert_covers(text, result)
    assert result.diagnostics == ()
    block = result.segments[0]
    assert block.kind == "questionnaire_response"
    assert block.name == "questionnaire-response"
    assert block.encoding == "xml_json"
    assert block.registered and block.valid
    assert block.id == "u1_q1"
    assert block.response == SEED_RESPONSE
