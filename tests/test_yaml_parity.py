"""One answer on every install (docs/protocol.md §1, §4.1).

* The loader is chosen by a parameter or by ``REPLYKIT_YAML_LOADER``, read at call time.
* Differential property: on generated YAML (block and flow styles, tabs everywhere,
  comments, every scalar style, ``?``/``:``/``#`` in plain scalars, odd indentation,
  random edits) the C loader and the pure loader give identical results: value, spans,
  and every finding's code, message, offsets, path and details.
* No diagnostic carries PyYAML's own error text: every ``yaml.syntax`` message is one of
  replykit's, and none holds the problem or context text either PyYAML parser reports.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st
from payload.yaml_text import yaml_texts

from replykit.codes.payload import YAML_SYNTAX
from replykit.questionnaire.payload import read_fenced_form
from replykit.questionnaire.payload.results import Read
from replykit.questionnaire.payload.yaml12 import read_with, read_yaml
from replykit.questionnaire.payload.yaml_differ import RULES, c_may_differ, differ_rules
from replykit.questionnaire.payload.yaml_loader import C_PARSER, ENV_VAR, c_available, choose_loader
from replykit.questionnaire.payload.yaml_referee import RefereeParser

needs_c = pytest.mark.skipif(not c_available(), reason="PyYAML's C extension is not built")
PARITY = settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _view(read: Read) -> Any:
    """Everything a reader returns, in a comparable form (NaN compares by repr)."""
    return (
        repr(read.value),
        sorted(map(repr, read.spans.items())),
        sorted(map(repr, read.key_spans.items())),
        [(f.code, f.severity, f.message, f.start, f.end, f.path, dict(f.details))
         for f in read.findings],
    )  # fmt: skip


# --- the loader choice -----------------------------------------------------------------


def test_loader_from_parameter_and_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV_VAR, raising=False)
    auto = "c" if c_available() else "pure"
    assert choose_loader() == auto
    assert choose_loader("auto") == auto
    assert choose_loader("pure") == "pure"
    monkeypatch.setenv(ENV_VAR, "pure")
    assert choose_loader() == "pure"  # read at call time, not at import
    monkeypatch.setenv(ENV_VAR, "")
    assert choose_loader() == auto
    monkeypatch.setenv(ENV_VAR, "PURE")
    with pytest.raises(ValueError, match="REPLYKIT_YAML_LOADER must be one of auto, c, pure"):
        choose_loader()
    assert choose_loader("pure") == "pure"  # the parameter wins over the environment
    with pytest.raises(ValueError, match="REPLYKIT_YAML_LOADER must be"):
        read_yaml("a: b\n")
    with pytest.raises(ValueError, match="loader must be one of"):
        read_fenced_form("title: T\n", loader="libyaml")


def test_asking_for_c_without_it_is_an_error() -> None:
    # An install without PyYAML's C extension: its module cannot be imported.
    script = (
        "import sys; sys.modules['yaml._yaml'] = None\n"
        "from replykit.questionnaire.payload.yaml_loader import c_available, choose_loader\n"
        "from replykit.questionnaire.payload.yaml12 import read_yaml\n"
        "print(c_available(), choose_loader(), read_yaml('a: [b]').value)\n"
        "choose_loader('c')\n"
    )
    env = {k: v for k, v in os.environ.items() if k != ENV_VAR}
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, env=env, check=False
    )
    assert done.stdout == "False pure {'a': ['b']}\n"
    assert done.returncode == 1
    assert "ValueError: REPLYKIT_YAML_LOADER=c (or loader='c') asks for PyYAML's C" in done.stderr
    assert "not importable here" in done.stderr


@needs_c
def test_loaders_agree_on_the_differences_found() -> None:
    # One payload of each place where libyaml and the pure scanner read differently.
    for payload in [
        "title:\tPlan", "a: b\t# c", "a: b\t", "x: [a,\tb]", "x: {text: Why?, a: b}",
        "a: |\n \tb", "a: [?x]", "a: {b:,c}", "\ufeff{a: 1}", "a: >+#c\n x", "a: [!t,]",
        "a: {*x:b}", "x: {a: # c\n }", "x: [? ]", "a: ]", "options: [+, -]", "x: [-]",
        "x: [a, -]", "x: {a: -}", "x: [-,]", "x: [?]", "x: [:]", "x: {?}", "x: [a, :]",
        'a: "b"#c', "a: [b]#c", "x: [a,#c\n b]",
        # after the line breaks both scanners read besides "\n" and "\r"
        "options: [a,\u2028?x]", "title: [\u2028&a:b x]", "a: 1\n\x85&ax: 1", "x: [\u2029:x]",
        "x: [a,\x85*b:c]",
    ]:  # fmt: skip
        assert _view(read_yaml(payload, loader="c")) == _view(read_yaml(payload, loader="pure"))


# --- differential property ---------------------------------------------------------------
_BREAKS = st.sampled_from(["\x85", "\u2028", "\u2029", "\n", " "])
_AFTER = st.sampled_from(["?x", ":x", "&a:b x", "*a:b", "-]", "? ", "x", "&a b"])


@needs_c
@PARITY
@given(st.lists(st.tuples(_BREAKS, _AFTER), min_size=1, max_size=4), st.booleans())
def test_loaders_agree_after_unicode_line_breaks(parts: list[tuple[str, str]], flow: bool) -> None:
    # U+0085, U+2028 and U+2029 are line breaks to both scanners: what follows one
    # starts a token as after "\n" (the gate's rules look behind them too).
    body = ",".join(brk + after for brk, after in parts)
    text = f"title: [a,{body}]\n" if flow else f"title: T\nx: {body}\n"
    assert _view(read_yaml(text, loader="c")) == _view(read_yaml(text, loader="pure"))


@needs_c
@PARITY
@given(yaml_texts())
def test_c_and_pure_loaders_give_one_answer(text: str) -> None:
    assert _view(read_yaml(text, loader="c")) == _view(read_yaml(text, loader="pure"))
    c_form = read_fenced_form(text, loader="c")
    pure_form = read_fenced_form(text, loader="pure")
    assert c_form.value == pure_form.value
    assert [(f.code, f.message, f.start, f.end, f.path) for f in c_form.findings] == [
        (f.code, f.message, f.start, f.end, f.path) for f in pure_form.findings
    ]


def _reading(text: str, parser: type[Any]) -> Any:
    """The reading of ``text`` with the event source ``parser``, gate or not."""
    return _view(read_with(text, parser, 64, sys.maxsize, ()))


@st.composite
def _tabbed(draw: st.DrawFn) -> str:
    """A generated text with tabs put where spaces were, and inserted anywhere: most land
    between two pieces of content on a line, where the gate lets libyaml read them."""
    chars = list(draw(yaml_texts()))
    spaces = [i for i, c in enumerate(chars) if c == " "]
    if spaces:
        for i in draw(st.lists(st.sampled_from(spaces), max_size=4, unique=True)):
            chars[i] = draw(st.sampled_from(["\t", "\t ", " \t", "\t\t"]))
    for _ in range(draw(st.integers(0, 2))):
        chars.insert(draw(st.integers(0, len(chars))), "\t")
    return "".join(chars)


@needs_c
@pytest.mark.parametrize(
    "rule",
    ["tab", "bom", "odd_anchor", "hash_in_header", "hash_unspaced", "lone_indicator"],
)
def test_the_generator_draws_what_each_gate_rule_guards(rule: str) -> None:
    # A drawn text that only this rule of the C gate keeps from the C parser, which
    # reads it otherwise than the referee: without the rule the differential property
    # above would find it.
    def guarded(text: str) -> bool:
        return differ_rules(text) == (rule,) and _reading(text, C_PARSER) != _reading(
            text, RefereeParser
        )

    # Tabs between content pass the gate now: texts with more tabs show what it keeps.
    texts = _tabbed() if rule == "tab" else yaml_texts()
    found = find(
        texts, guarded, settings=settings(max_examples=4000, derandomize=True, database=None)
    )
    assert _view(read_yaml(found, loader="c")) == _view(read_yaml(found, loader="pure"))


@needs_c
@pytest.mark.parametrize(
    ("rule", "text"),
    [
        # The generator's '?' in flow context mostly spans lines, which flow_continued
        # sends to the referee too: a one-line witness shows what this rule alone keeps.
        ("question", "k: [?x]\n"),
        ("question", "- [?a, b]\n"),
        ("block_header_first", "title:\n|\n  Plan\n"),
        ("flow_continued", "flow: [a,\nb,\nc]\n"),
    ],
)
def test_a_witness_that_only_this_gate_rule_keeps_from_libyaml(rule: str, text: str) -> None:
    assert differ_rules(text) == (rule,)
    assert _reading(text, C_PARSER) != _reading(text, RefereeParser)
    assert _view(read_yaml(text, loader="c")) == _view(read_yaml(text, loader="pure"))


@needs_c
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_tabbed())
def test_the_gate_lets_libyaml_read_only_what_it_reads_as_the_referee(text: str) -> None:
    # The soundness of the gate, tabs between content included (§4.1): whatever it
    # leaves to the C parser, the C parser reads as the referee does.
    if not c_may_differ(text):
        assert _reading(text, C_PARSER) == _reading(text, RefereeParser)


@needs_c
@pytest.mark.parametrize("text", ["%YAML 1.2#\n---\n- a title\t", "%YAML 1.2#x\n---\n- a\n"])
def test_a_hash_right_after_a_directive_goes_to_the_referee(text: str) -> None:
    # libyaml reads "1.2#" as a version and a comment, YAML 1.2.2 refuses it (a comment
    # needs white space before it): found by CI's property run of the gate above.
    assert differ_rules(text) == ("hash_unspaced",)
    assert _reading(text, C_PARSER) != _reading(text, RefereeParser)
    assert _view(read_yaml(text, loader="c")) == _view(read_yaml(text, loader="pure"))


@needs_c
def test_a_tab_between_content_stays_on_the_c_path() -> None:
    for text in [
        "title:\tPlan\n",
        "a: b\t# c\n",
        "x: [a,\tb]\n",
        "a: b\tc\n",
        "-\ta\n",
        "a: b\t\n",
    ]:
        assert differ_rules(text) == (), text
        assert _reading(text, C_PARSER) == _reading(text, RefereeParser), text
    for text in ["a:\n\tb: c\n", " \ta: b\n", "a: |\t# c\n x\n", "%YAML\t1.2\n---\na: b\n"]:
        assert differ_rules(text) == ("tab",), text


@needs_c
def test_libyaml_refuses_what_only_colon_first_guards() -> None:
    # ':' starting a plain scalar ('[:x]', '{:x: 1}'): libyaml reports an error, so the
    # referee decides with or without the rule, which only spares the C parser's try.
    def colon_first_only(text: str) -> bool:
        return differ_rules(text) == ("colon_first",)

    found = find(
        yaml_texts(),
        colon_first_only,
        settings=settings(max_examples=600, derandomize=True, database=None),
    )
    assert _reading(found, C_PARSER) == _reading(found, RefereeParser)
    for text in ("[:x]\n", "{:x: 1}\n", "a: [b, :x]\n", found):
        with pytest.raises(yaml.YAMLError):
            yaml.load(text, Loader=yaml.CSafeLoader)


@PARITY
@given(yaml_texts())
def test_the_gate_is_its_named_rules(text: str) -> None:
    assert c_may_differ(text) == bool(differ_rules(text))
    assert set(differ_rules(text)) <= {name for name, _ in RULES}


# --- no library text in any diagnostic ---------------------------------------------------

_OURS = [
    re.compile(re.escape(text.format(what="\0", shown="\0")).replace("\0", ".+") + "$")
    for text in YAML_SYNTAX.en.values()
]


def _library_texts(text: str) -> list[str]:
    """The problem and context texts PyYAML's parsers report for ``text``."""
    found = []
    loaders = [yaml.BaseLoader] + ([yaml.CBaseLoader] if c_available() else [])
    for loader in loaders:
        try:
            parser = loader(text)
            try:
                while parser.check_event():
                    parser.get_event()
            finally:
                parser.dispose()
        except yaml.MarkedYAMLError as error:
            found += [t for t in (error.problem, error.context) if t]
        except yaml.YAMLError as error:
            found.append(str(error).split("\n")[0])
    return found


_SYNTAXY = st.lists(
    st.sampled_from([*"{}[]:,-?&*!|>'\"#%@` \n\t~.", "---", "...", "\\q", "\\x4", "- ",
                     ": ", "a", "%YAML 1.2\n", "%TAG !x! y\n", "!x!y", "!<x", "\x01"]),
    max_size=30,
).map("".join)  # fmt: skip


@PARITY
@given(st.one_of(yaml_texts(), _SYNTAXY))
def test_no_diagnostic_carries_pyyaml_text(text: str) -> None:
    library = _library_texts(text)
    for loader in ["pure", *(["c"] if c_available() else [])]:
        for read in (read_yaml(text, loader=loader), read_fenced_form(text, loader=loader)):
            for f in read.findings:
                assert not any(t in f.message for t in library), (f.message, library)
                if f.code == "yaml.syntax":
                    assert any(p.match(f.message) for p in _OURS), f.message
                    assert f.start is not None and 0 <= f.start <= len(text)


# Found by a reviewer against a YAML 1.2 reference (yaml-test-suite NJ66, 9SA2, VJP3):
# a flow mapping's implicit key may span lines and be longer than 1024 characters.
@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("x:\n- { multi\n  line: value}", {"x": [{"multi line": "value"}]}),
        ('x:\n- { "multi\n  line": value}', {"x": [{"multi line": "value"}]}),
        ("k: {\n k\n :\n v\n }", {"k": {"k": "v"}}),
        ('k: {"foo"\n  : "bar"}', {"k": {"foo": "bar"}}),
        ("k: {" + "x" * 1100 + ": v}", {"k": {"x" * 1100: "v"}}),
        ("k: [{a\n  b: c}]", {"k": [{"a b": "c"}]}),
    ],
)
@pytest.mark.parametrize("loader", ["c", "pure"])
def test_a_flow_mapping_key_may_span_lines(text: str, value: Any, loader: str) -> None:
    if loader == "c" and not c_available():
        pytest.skip("PyYAML's C extension is not built")
    read = read_yaml(text, loader=loader)
    assert read.findings == ()
    assert read.value == value


@pytest.mark.parametrize("text", ["k: [multi\n line: v]", "k: [" + "x" * 1100 + ": v]"])
def test_a_flow_sequence_pair_key_stays_on_one_short_line(text: str) -> None:
    (finding,) = read_yaml(text, loader="pure").findings
    assert finding.code == "yaml.syntax"


@needs_c
@pytest.mark.parametrize(
    ("text", "at"),
    [
        ("title:\n|\n  Plan\n", 7),
        ("a:\n  b:\n  >-\n    x\n", 10),
        ("- a\n-\n|\n x\n", 6),
        ("a:\r|\r x\r", 3),
    ],
)
def test_a_block_scalar_header_first_on_its_line_needs_more_indentation(text: str, at: int) -> None:
    # libyaml reads the scalar as the value at its key's column; YAML 1.2.2 refuses it.
    assert differ_rules(text) == ("block_header_first",)
    assert _reading(text, C_PARSER) != _reading(text, RefereeParser)
    for loader in ("c", "pure"):
        (finding,) = read_yaml(text, loader=loader).findings
        assert (finding.code, finding.start) == ("yaml.syntax", at)
        assert finding.message == YAML_SYNTAX.template("block_scalar_column")


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("a:\n  |\n  x\n", {"a": "x\n"}),
        ("a:\n - |\n   x\n", {"a": ["x\n"]}),
        ("a: >\n x\n", {"a": "x\n"}),
    ],
)
def test_a_block_scalar_header_indented_more_is_read(text: str, value: Any) -> None:
    read = read_yaml(text, loader="pure")
    assert (read.findings, read.value) == ((), value)


# Found by the session's regression diff, checked against a YAML 1.2 reference (npm yaml,
# yaml-test-suite 9C9N): a flow collection's lines go past the indentation of the block
# collection holding it; its closing bracket may stand at that column.
@needs_c
@pytest.mark.parametrize(
    ("text", "at"),
    [
        ("flow: [a,\nb,\nc]\n", 10),
        ('- {type: free_text, text: Why?, default\n: ""}\n', 40),
        ("a:\n  b: [x,\n  y]\n", 14),
        ("k: [a\nb]\n", 6),
        ("k: [a,\n# c\nb]\n", 11),
    ],
)
def test_a_flow_line_at_its_blocks_indentation_is_refused(text: str, at: int) -> None:
    assert "flow_continued" in differ_rules(text)
    for loader in ("c", "pure"):
        (finding,) = read_yaml(text, loader=loader).findings
        assert (finding.code, finding.start) == ("yaml.syntax", at)
        assert finding.message == YAML_SYNTAX.template("flow_indent").format()


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("options: [\n  a, b\n]\n", {"options": ["a", "b"]}),
        ("k: [a\n b]\n", {"k": ["a b"]}),
        ("k: {a\n : b}\n", {"k": {"a": "b"}}),
        ("a:\n  b: [x,\n   y]\n", {"a": {"b": ["x", "y"]}}),
    ],
)
@pytest.mark.parametrize("loader", ["c", "pure"])
def test_a_flow_line_indented_past_its_block_is_read(text: str, value: Any, loader: str) -> None:
    if loader == "c" and not c_available():
        pytest.skip("PyYAML's C extension is not built")
    read = read_yaml(text, loader=loader)
    assert (read.findings, read.value) == ((), value)
