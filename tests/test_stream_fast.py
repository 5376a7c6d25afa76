"""The streaming segmenter's fast path against its general reading (§10).

The fast path skips work the general reading does: a chunk that completes no line
reads nothing and, while the pending tail stays the last update's, its update is
built at once (only ``held_from`` and ``received`` move); lines without the family
word after the resume point are committed 1024 code points at a time without a
reading (tests/test_stream_plain.py); otherwise a reading runs only when
new complete lines may open or close a block, after 1024 new code points, or when a
blank line ends the paragraph that held the last one back; a reading reads runs of
lines in one step as ``segment()`` does (``scan/runs.py``), noting a checkpoint only
where a run stops; a checkpoint that copies the scanner's state is taken at most every
128 code points; an update that repeats the last one's pending tail is not computed
again. The general reading (:class:`General`) reads after every chunk that completes a
line, reads every line alone, takes every checkpoint and computes every update in
full. For any chunking:

- without the quick updates alone, the updates are identical;
- the fast path commits nothing the general reading does not: after every chunk its
  commits (Markdown ranges joined, blocks) are a prefix of the general reading's, and
  so are its committed diagnostics; both ``finish()`` alike;
- a chunk that completes no line scans nothing;
- one reading with runs finds exactly the parts, near-misses, tags without a closer
  and taint a reading of every line alone finds, and a checkpoint no later;
- on replies as a model writes them (the rich replies of the benchmarks, a long reply
  with forms) the runs change no update at all.

What the segmenter notes of each chunk (:class:`Received`: line starts, the family
word and the marks searched once over newly complete lines, the text held back, the
§9 transport limit) equals a direct reading of the whole text received, after every
chunk, and its short path (a chunk without ``\n``, ``\r`` or ``<`` while nothing is
held back) notes what its general path notes; the characters it joins and searches
stay within 5x the text. Updates built
without the checked constructor equal the checked constructor's.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import attrs
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from inputs import CORPUS, SPEC, VECTORS, benchmark_reply
from test_rich_replies import REPLIES

from replykit.questionnaire.compat import Compat, resolve
from replykit.questionnaire.model import Segment
from replykit.questionnaire.scan.grammar import lexemes
from replykit.questionnaire.scan.scanner import Scanner
from replykit.questionnaire.segmentation.stream import StreamSegmenter
from replykit.questionnaire.segmentation.stream_input import Received
from replykit.questionnaire.segmentation.stream_reading import Reading, Resume, read
from replykit.questionnaire.segmentation.stream_shapes import (
    MarkdownCommit,
    PendingMarkdown,
    StreamUpdate,
    new_commit,
    new_pending,
    new_update,
)
from replykit.testing import strategies as rs
from replykit.testing.streaming import cut
from replykit.text import BLANK_CLASS, LINE_END_RE, trim_blank

CASES: list[dict[str, Any]] = VECTORS
FAMILY_FILES = [p for p in CORPUS if "questionnaire" in p.read_text(encoding="utf-8").lower()]

MESSAGES = st.one_of(
    rs.messages(), rs.markdown(), rs.prose(), rs.inert_messages(), rs.fenced_blocks(),
    rs.xml_blocks(), rs.hostile_payloads(),
    st.lists(st.one_of(rs.fenced_blocks(), rs.xml_blocks(), rs.prose()), max_size=6).map(
        "\n\n".join
    ),
)  # fmt: skip
# Each message with every line ending it may have (runs of lines stop after blank lines).
GENERATORS = st.tuples(MESSAGES, st.sampled_from(["\n", "\n", "\r\n", "\r"])).map(
    lambda m: m[0].replace("\n", m[1])
)

# Short texts thick with line endings, partial tags, fence runs and the family word.
_PIECES = st.lists(
    st.sampled_from([
        "\r", "\n", "\r\n", "<", "</", "<!-", "\\/", "questionnaire", "QuestionNaire",
        "questionnair", "-response>", "```", "~~~", "`", " ", "   ", "a", "&", '"', "-",
        "\u00a0", ">", "\t", " a=\"1\"", "/",
    ]),
    max_size=40,
).map("".join)  # fmt: skip


class FullUpdates(StreamSegmenter):
    """The fast path with every update computed in full: its pending tail rebuilt from
    the items after every push (but when the client was sent all of it) and compared
    item by item with the last one."""

    _quick = False
    _grow = False


class General(StreamSegmenter):
    """The general reading: every line-completing chunk read, every line read alone,
    every checkpoint taken; plain lines after the resume point (no family word, no
    fenced candidate open there) committed at every complete line, not 1024 at once."""

    _every_line = True
    _gap = 0
    _line_runs = False
    _plain_gap = 0


class LineByLine(StreamSegmenter):
    """The fast path reading every line alone."""

    _line_runs = False
    _quick = False


Flat = list[tuple[int, int] | Segment]


def _flatten(updates: list[StreamUpdate]) -> list[Flat]:
    """After each update, everything committed so far: Markdown as joined ranges."""
    out: list[Flat] = []
    flat: Flat = []
    for update in updates:
        for item in update.committed:
            last = flat[-1] if flat else None
            if isinstance(item, MarkdownCommit):
                if isinstance(last, tuple) and last[1] == item.start:
                    flat[-1] = (last[0], item.end)
                else:
                    flat.append((item.start, item.end))
            else:
                flat.append(item)
        out.append(list(flat))
    return out


def _is_prefix(fast: Flat, general: Flat) -> bool:
    """``fast`` is a beginning of ``general``: equal items, its last Markdown range
    possibly shorter."""
    if len(fast) > len(general):
        return False
    for i, (a, b) in enumerate(zip(fast, general, strict=False)):
        last = i == len(fast) - 1
        if isinstance(a, tuple) and isinstance(b, tuple) and last:
            if a[0] != b[0] or a[1] > b[1]:
                return False
        elif a != b:
            return False
    return True


def _run(cls: type[StreamSegmenter], chunks: list[str], **options: Any) -> tuple[Any, ...]:
    seg = cls(**options)
    updates = [seg.push(c) for c in chunks]
    return updates, seg.finish()


# A complete opening tag of the family in the line still arriving (read at once, §10).
_OPENING_TAG = re.compile(
    r"<(?:[a-z0-9]+-)?questionnaire(?:-response)?(?:>|[ \t/][^<>\r\n]*>)", re.IGNORECASE | re.ASCII
)


def _reads_only_on_complete_lines(chunks: list[str], **options: Any) -> None:
    """A chunk that completes no line, nor an opening tag in the line still arriving,
    scans nothing (docs/streaming.md, "Work")."""
    seg = StreamSegmenter(**options)
    cr = False  # the text so far ends with "\r": any character completes its line
    text = ""
    for n, chunk in enumerate(chunks):
        before = seg.scanned
        seg.push(chunk)
        line_start = max(text.rfind("\n"), text.rfind("\r")) + 1
        line, text = text[line_start:] + chunk, text + chunk
        tag = ">" in chunk and _OPENING_TAG.search(line, max(0, len(line) - len(chunk) - 70))
        if not (chunk and cr) and "\n" not in chunk and "\r" not in chunk[:-1] and not tag:
            assert seg.scanned == before, n
        cr = chunk.endswith("\r") or (cr and not chunk)


def _compare(chunks: list[str], **options: Any) -> None:
    _reads_only_on_complete_lines(chunks, **options)
    fast, fast_result = _run(StreamSegmenter, chunks, **options)
    full, full_result = _run(FullUpdates, chunks, **options)
    assert fast == full
    assert fast_result == full_result
    general, general_result = _run(General, chunks, **options)
    assert fast_result == general_result
    said: Counter[Any] = Counter()
    told: Counter[Any] = Counter()
    for n, (a, b, fa, ga) in enumerate(
        zip(fast, general, _flatten(fast), _flatten(general), strict=True)
    ):
        assert a.committed_end <= b.committed_end, n
        assert _is_prefix(fa, ga), n
        said.update(a.diagnostics)
        told.update(b.diagnostics)
        assert not said - told, n


@settings(max_examples=120)
@given(
    text=st.one_of(GENERATORS, _PIECES),
    cuts=st.lists(st.integers(0, 4_000), max_size=30),
    compat=st.sampled_from([None, None, "sage"]),
)
def test_fast_path_commits_what_the_general_reading_does(
    text: str, cuts: list[int], compat: str | None
) -> None:
    _compare(cut(text, [c % (len(text) + 1) for c in cuts]), compat=compat)


@settings(max_examples=40)
@given(text=GENERATORS, size=st.sampled_from([1, 3, 16, 64]))
def test_fast_path_in_chunks_of_fixed_size(text: str, size: int) -> None:
    _compare([text[i : i + size] for i in range(0, len(text), size)])


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["id"])
def test_fast_path_on_every_vector(case: dict[str, Any]) -> None:
    text = case["input"]
    _compare([text[i : i + 7] for i in range(0, len(text), 7)], message_id=case["message_id"])


def test_general_reading_commits_earlier_on_a_long_reply() -> None:
    # The fast path waits for 1024 code points of prose (or a line that may open or
    # close a block) before it reads; the general reading commits each paragraph.
    text = "".join(f"Paragraph {i} about the questionnaire results.\n\n" for i in range(40))
    chunks = [text[i : i + 16] for i in range(0, len(text), 16)]
    fast, _ = _run(StreamSegmenter, chunks)
    general, _ = _run(General, chunks)
    assert sum(u.committed_end < g.committed_end for u, g in zip(fast, general, strict=True))
    _compare(chunks)


def test_fast_path_on_thebenchmark_reply() -> None:
    # The reply benchmarks/stream.py times (prose, lists, code, forms in paragraphs).
    text = benchmark_reply(12_000)
    for size in (1, 16, 256):
        _compare([text[i : i + size] for i in range(0, len(text), size)])


@pytest.mark.parametrize("path", FAMILY_FILES, ids=lambda p: p.name)
def test_fast_path_on_corpus_files_with_the_family_word(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    _compare([text[i : i + 16] for i in range(0, len(text), 16)], compat="sage")


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["id"])
def test_fast_path_on_every_vector_a_character_at_a_time(case: dict[str, Any]) -> None:
    _compare(list(case["input"]), message_id=case["message_id"])


# ---- what the segmenter notes of each chunk ---------------------------------------------
_TAG_SO_FAR = re.compile(r"(?:\\?/?)?[A-Za-z0-9-]*|!-?")
# A family tag's name and its attributes so far: held whole (on its line; under §9's
# tag_attributes across line endings too, after any §1 blank).
_FAMILY = "(?:[a-z0-9]+-)?questionnaire(?:-response)?"
_ATTRIBUTES_SO_FAR = re.compile(f"{_FAMILY}[ \\t/][^<>\\r\\n]*", re.IGNORECASE | re.ASCII)
_ANY_ATTRIBUTES_SO_FAR = re.compile(
    f"{_FAMILY}(?:[ \\t\\r\\n/]|{BLANK_CLASS})[^<>]*", re.IGNORECASE | re.ASCII
)
_FENCE_SO_FAR = re.compile(r" {0,3}(?:`*|~*|`{3,}[^`]+|~{3,}.+)", re.DOTALL)


def _direct(text: str, compat: Compat | None) -> dict[str, Any]:
    """What :class:`Received` says after receiving ``text``, read from the whole text
    at once (docs/streaming.md: a final ``\\r`` ends no line yet; the held text is a
    partial tag or comment opener, a last line that may still open a fence, a final
    ``\\r``)."""
    cr = text.endswith("\r")
    ends = [m.end() for m in LINE_END_RE.finditer(text)][: -1 if cr else None]
    line_starts = [0, *ends]
    complete = line_starts[-1]
    done = text[:complete]
    # The family word, or a numeric reference that may spell it in an info string (§3a).
    word = lexemes().family_word_any_case
    possible = re.compile(f"(?:{word.pattern})|&#", word.flags)
    words = [m.start() for m in possible.finditer(done)]
    held = len(text) - 1 if cr else len(text)
    lt = text.rfind("<")
    tag_attributes = compat is not None and compat.tag_attributes
    so_far = (_TAG_SO_FAR, _ANY_ATTRIBUTES_SO_FAR if tag_attributes else _ATTRIBUTES_SO_FAR)
    if lt >= 0 and any(p.fullmatch(text, lt + 1) for p in so_far):
        held = min(held, lt)
    # A leading U+FEFF is not read (§1.1): the first line may still open a fence after it.
    line = complete + 1 if complete == 0 and text.startswith("\ufeff") else complete
    if not cr and complete < held and _FENCE_SO_FAR.fullmatch(text, line):
        held = complete
    limit: int | None = None
    if compat is not None:
        # The first character not blank by §1.1 (U+FEFF is), as decode_transport trims.
        if compat.decode_json_string and trim_blank(text)[:1] in ("", '"'):
            limit = 0
        elif compat.decode_entities and "&" in text:
            limit = text.index("&")
    return {
        "line_starts": line_starts, "complete": complete, "held": held,
        "family": max(s for s in line_starts if s <= words[0]) if words else None,
        "last_family": words[-1] if words else -1,
        "last_mark": max(done.rfind("<"), done.rfind("```"), done.rfind("~~~")),
        "transport_limit": limit, "words": words, "angles": (done.rfind("<"), done.rfind(">")),
    }  # fmt: skip


def _noted(received: Received) -> dict[str, Any]:
    return {
        "line_starts": received.line_starts, "complete": received.complete,
        "held": received.held_from(), "family": received.family,
        "last_family": received.last_family, "last_mark": received.last_mark,
        "transport_limit": received.transport_limit(), "words": received.words,
        "angles": received.angles,
    }  # fmt: skip


def _check_received(chunks: list[str], compat: str | None, every: int = 1) -> None:
    mode = resolve(compat)
    received = Received(mode)
    text = ""
    noted = _direct("", mode)
    for n, chunk in enumerate(chunks):
        moved = received.append(chunk)
        text += chunk
        if n % every and n != len(chunks) - 1:
            continue
        expected = _direct(text, mode)
        assert _noted(received) == expected, n
        if every == 1 and not moved:  # nothing but the held text moved
            for key in ("complete", "transport_limit"):
                assert noted[key] == expected[key], (n, key)
        noted = expected
    assert received.text() == text == received.slice(0, len(text))
    received.close()  # the last line's words too, for finish()
    word = lexemes().family_word_any_case
    possible = re.compile(f"(?:{word.pattern})|&#", word.flags)
    assert received.words == [m.start() for m in possible.finditer(text)]
    assert received.searched <= 5 * len(text)


@settings(max_examples=300)
@given(
    text=st.one_of(GENERATORS, _PIECES),
    cuts=st.lists(st.integers(0, 4_000), max_size=30),
    compat=st.sampled_from([None, "sage"]),
)
@example(text="\ufeffHello\n", cuts=[1], compat="sage")  # a lone BOM is no visible character yet
def test_received_notes_what_the_whole_text_says(
    text: str, cuts: list[int], compat: str | None
) -> None:
    chunks = cut(text, [c % (len(text) + 1) for c in cuts])
    _check_received(chunks, compat)
    # The same chunks through append()'s short path and its general path.
    _received_pair(chunks, compat)


@pytest.mark.parametrize("size", [1, 5, 64])
def test_received_on_every_vector_and_spec_example(size: int) -> None:
    for text in [case["input"] for case in CASES] + SPEC:
        chunks = [text[i : i + size] for i in range(0, len(text), size)]
        _check_received(chunks, None, every=max(1, len(chunks) // 40))


def test_received_on_the_corpus() -> None:
    for path in CORPUS:
        text = path.read_text(encoding="utf-8")
        chunks = [text[i : i + 16] for i in range(0, len(text), 16)]
        _check_received(chunks, "sage", every=max(1, len(chunks) // 20))


def _received_pair(chunks: list[str], compat: str | None) -> None:
    """The short path of a chunk that changes only the size notes what the general
    path notes, after every chunk."""
    mode = resolve(compat)
    fast, general = Received(mode), Received(mode, short_path=False)
    for n, chunk in enumerate(chunks):
        assert fast.append(chunk) == general.append(chunk), n
        noted = (_noted(general), general.size, general.searched)
        assert (_noted(fast), fast.size, fast.searched) == noted, n
    fast.close()
    general.close()
    assert (_noted(fast), fast.text()) == (_noted(general), general.text())


@pytest.mark.parametrize("size", [1, 3, 16, 256])
def test_received_short_path_on_vectors_spec_and_corpus(size: int) -> None:
    texts = [case["input"] for case in CASES] + SPEC
    texts += [p.read_text(encoding="utf-8") for p in CORPUS] + [benchmark_reply(8_000)]
    for text in texts:
        _received_pair([text[i : i + size] for i in range(0, len(text), size)], None)


@pytest.mark.parametrize(
    "chunks",
    [
        ["a"] * 5_000 + ["\n"],  # one long line a character at a time
        ["x\n" + "a" * 5_000] + ["\n"] * 5_000,  # a long chunk, then short lines
        ["a" * 5_000, "b\n" * 2_500, "questionnaire ```\n" * 300],
        [c for _ in range(2_000) for c in ("line", " <", "\r", "\n")],
    ],
    ids=["long-line", "long-chunk", "big-chunks", "split-line-ends"],
)
def test_received_joins_and_searches_linear_text(chunks: list[str]) -> None:
    # Each complete line is searched once and each chunk joined at most twice.
    received = Received(None)
    for chunk in chunks:
        received.append(chunk)
    assert received.searched <= 3 * received.size
    assert received.complete == received.line_starts[-1]


@settings(max_examples=100)
@given(
    ints=st.lists(st.integers(0, 10**6), min_size=6, max_size=6),
    text=st.text(max_size=5),
)
def test_updates_built_unchecked_equal_the_checked_constructor(ints: list[int], text: str) -> None:
    a, b, c, d, e, f = ints
    commit, pending = new_commit(a, b, text), new_pending(c)
    assert commit == MarkdownCommit(a, b, text) and pending == PendingMarkdown(c)
    update = new_update((commit,), (), a, (pending,), d, e, f)
    checked = StreamUpdate((commit,), (), a, (pending,), d, e, f)
    assert update == checked and hash(update) == hash(checked)
    assert attrs.astuple(update, recurse=False) == ((commit,), (), a, (pending,), d, e, f)


def _reading(text: str, line_runs: bool) -> Reading:
    return read(text, 0, Resume(0), lexemes(), Compat(), final=False, limit=len(text), gap=0,
                line_runs=line_runs)  # fmt: skip


@settings(max_examples=200)
@given(text=GENERATORS, end=st.integers(0, 4_000))
def test_a_reading_with_runs_finds_what_reading_every_line_finds(text: str, end: int) -> None:
    # A reading ends with a complete line; it may stop anywhere in a message.
    lines = text.splitlines(keepends=True)
    text = "".join(lines[: end % (len(lines) + 1)])
    fast, each = _reading(text, True), _reading(text, False)
    assert (fast.parts, fast.near_misses, fast.misses, fast.taint, fast.waits_blank) == (
        each.parts, each.near_misses, each.misses, each.taint, each.waits_blank
    )  # fmt: skip
    # Every checkpoint of the reading of every line is taken (gap 0): the last is the
    # latest there is, and a run stops only at line starts that reading passes.
    at = fast.checkpoint.at if fast.checkpoint is not None else -1
    assert at <= (each.checkpoint.at if each.checkpoint is not None else -1)


LONG = "".join(
    f"## Part {i}\n\nProse about the rollout, `code`, and **more**.\nA second line.\n\n"
    "- item\n- item\n\n```bash\nkubectl get pods\n```\n\n> A quote.\n\n"
    + ("```questionnaire\ntitle: T\nquestions:\n  - type: free_text\n    text: Why?\n"
       '    default: ""\n```\n\n' if i % 2 else
       'Confirm: <questionnaire>{"title":"T","questions":[{"id":"a","type":"free_text",'
       '"text":"Q","default":""}]}</questionnaire>\n\n')
    for i in range(24)
)  # fmt: skip


@pytest.mark.parametrize("size", [1, 16, 256])
@pytest.mark.parametrize("k", range(len(REPLIES)))
def test_runs_change_no_update_of_a_rich_reply(k: int, size: int) -> None:
    text = REPLIES[k].text
    chunks = [text[i : i + size] for i in range(0, len(text), size)]
    assert _run(StreamSegmenter, chunks) == _run(LineByLine, chunks)


def test_a_reading_reads_few_lines_alone() -> None:
    # Runs of lines as in segment(); each stretch before a family word is cut once
    # more, after its last empty line (one more line alone there).
    one = Scanner(LONG, lexemes())
    one.run()
    assert _reading(LONG, False).alone == LONG.count("\n")
    assert _reading(LONG, True).alone <= 2 * one.lines_alone < LONG.count("\n") / 5


@pytest.mark.parametrize("size", [1, 16, 256])
def test_runs_change_no_update_of_a_long_reply_with_forms(size: int) -> None:
    chunks = [LONG[i : i + size] for i in range(0, len(LONG), size)]
    fast = _run(StreamSegmenter, chunks)
    assert fast == _run(LineByLine, chunks)
    assert sum(isinstance(c, Segment) for u in fast[0] for c in u.committed) == 24


@pytest.mark.parametrize(
    "text",
    [
        "Intro.\r\n\r\nOne paragraph.\r\n\r\nThe last\r\nparagraph.\r\n",
        "Intro.\r\rOne paragraph.\r\rThe last\rparagraph.\r",
        # A line ending "\r", then an empty line ending "\r\n": the run stops after both.
        "Intro.\n\nOne paragraph.\r\r\nThe last\nparagraph.\n",
        "Intro.\r\n\nOne paragraph.\n\r\nThe last\r\nparagraph.\r\n",
    ],
)
def test_a_run_stops_after_an_empty_line_of_any_ending(text: str) -> None:
    # The last paragraph of a reading is still open: the checkpoint is the start of
    # its first line, after an empty line however the lines end.
    fast = _reading(text, True)
    assert fast.parts == _reading(text, False).parts
    assert fast.checkpoint is not None
    assert fast.checkpoint.at == text.index("The last")
    assert fast.checkpoint.at == _reading(text, False).checkpoint.at  # type: ignore[union-attr]
