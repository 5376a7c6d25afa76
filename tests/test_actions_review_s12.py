"""Session 12 review of the answer actions (/work/notes/s12/actions.md), findings 3, 5, 6
and 7: the diagnostics cap puts verdicts first (docs/actions.md section 4), the
persisted state's messages are held to what JSON can carry (docs/actions.md section
7), the text listing quotes the columns an answer writes freely (docs/actions.md
section 11), and the nits."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replykit import Limits
from replykit.actions import (
    ActionContext,
    ActionStateRecord,
    AnswerAction,
    AnswerState,
    ChartComponent,
    ContextError,
    Params,
    StateError,
    Target,
    dispatch,
    lint,
    parse_context,
    sanitize,
)
from replykit.actions.diagnostic import key_path
from replykit.actions.state import MAX_MESSAGE
from replykit.cap import finish
from replykit.cli import actions as actions_cli
from replykit.diagnostics import LeftOut
from replykit.jsonout import key_text
from replykit.markdown_it import actions_html, render_html

NOW = datetime(2026, 8, 27, 7, 0, tzinfo=UTC)
STAMP = "2026-08-27T07:00:00.000Z"
VIEW = {"id": "k", "type": "view.detail", "label": "L"}
CONTINUE = AnswerAction(id="c", type="conversation.continue", label="C", params=Params(prompt="p"))


def _codes(diagnostics: Any) -> list[str]:
    return [d.code for d in diagnostics]


def _left_out(diagnostic: Any) -> dict[str, int]:
    return {c.code: c.count for c in diagnostic.left_out}


# ------------------------------------------------------------------ finding 3: the cap


def test_a_field_removal_first_does_not_push_verdicts_out() -> None:
    # The reviewer's case: one removal, then 200 drops, limit 200.
    answer = {"actions": [{**VIEW, "x": 1}] + [{"type": "bad"} for _ in range(200)]}
    got = sanitize(answer).diagnostics
    assert len(got) == 200
    # The summary stands where the first left-out entry (the removal) stood.
    assert got[0].code == "limit.diagnostics"
    assert _left_out(got[0]) == {"action.field_removed": 1, "action.type_unknown": 1}
    assert got[0].message == (
        "2 more diagnostics are left out (the limit is 200): "
        "action.field_removed x1, action.type_unknown x1."
    )
    assert _codes(got[1:]) == ["action.type_unknown"] * 199
    assert [d.path for d in got[1:3]] == ["actions[2].type", "actions[3].type"]


def test_several_removals_first_still_leave_the_slots_to_verdicts() -> None:
    answer = {"actions": [{**VIEW, "x": 1, "y": 2, "z": 3}] + [{"type": "bad"}] * 200}
    got = sanitize(answer).diagnostics
    assert len(got) == 200
    assert got[0].code == "limit.diagnostics"
    assert _left_out(got[0]) == {"action.field_removed": 3, "action.type_unknown": 1}
    assert _codes(got[1:]) == ["action.type_unknown"] * 199


def test_the_documented_example_is_unchanged() -> None:
    # docs/actions.md section 4: 300 unknown fields, then an action of unknown type.
    fields = {f"f{i}": 1 for i in range(300)}
    got = sanitize({"actions": [{**VIEW, **fields}, {"type": "bad"}]}).diagnostics
    assert _codes(got) == ["action.field_removed"] * 198 + [
        "limit.diagnostics",
        "action.type_unknown",
    ]
    assert _left_out(got[198]) == {"action.field_removed": 102}


def test_limit_one_keeps_the_first_verdict_and_the_summary() -> None:
    answer = {"actions": [{**VIEW, "x": 1}, {"type": "bad"}, {"type": "bad"}]}
    got = sanitize(answer, limits=Limits(max_diagnostics=1)).diagnostics
    assert _codes(got) == ["limit.diagnostics", "action.type_unknown"]
    assert got[1].path == "actions[2].type"
    assert _left_out(got[0]) == {"action.field_removed": 1, "action.type_unknown": 1}


def test_only_removals_keep_their_first_one() -> None:
    answer = {"actions": [{**VIEW, "x": 1, "y": 2, "z": 3}]}
    got = sanitize(answer, limits=Limits(max_diagnostics=2)).diagnostics
    assert _codes(got) == ["action.field_removed", "limit.diagnostics"]
    assert got[0].path == "actions[1].x"


def test_lint_is_capped_with_its_first_warning_kept() -> None:
    item = {"id": "a", "type": "view.detail", "label": "L"}
    answer = {"datasets": {}, "actions": [{**item, f"x{i}": {}} for i in range(5)]}
    whole = lint(answer)
    got = lint(answer, limits=Limits(max_diagnostics=3))
    assert len(whole) == 5
    assert got[:2] == whole[:2]
    assert got[2].code == "limit.diagnostics"
    assert _left_out(got[2]) == {"lint.forbidden_field": 3}


def test_finish_without_preferred_still_protects_the_first_entry() -> None:
    # The questionnaire side (tool errors, response findings) passes no ``preferred``:
    # its first entry stays the protected one (docs/protocol.md §2.1).
    items = ["w", "e1", "e2", "e3"]
    got = finish(
        items,
        1,
        code=lambda i: i,
        severity=lambda i: "error" if i.startswith("e") else "warning",
        summary=lambda counts: f"summary {sum(c.count for c in counts)}",
    )
    assert got == ["w", "summary 3"]
    preferred = finish(
        items,
        1,
        code=lambda i: i,
        severity=lambda _i: None,
        summary=lambda counts: "summary " + ",".join(c.code for c in counts),
        preferred=lambda i: i.startswith("e"),
    )
    assert preferred == ["summary w,e2,e3", "e1"]


def test_finish_counts_upstream_as_before() -> None:
    got = finish(
        ["a", "b"],
        2,
        code=lambda i: i,
        severity=lambda _i: None,
        summary=lambda counts: counts,
        upstream=(LeftOut("z", None, 4),),
    )
    assert got[0] == "a"
    assert got[1] == (LeftOut("b", None, 1), LeftOut("z", None, 4))


# ------------------------------------------------------- finding 5: persisted messages


def _running() -> AnswerState:
    state, _effect = dispatch(AnswerState(), CONTINUE, "click", ActionContext(), NOW)
    return state


@pytest.mark.parametrize(
    ("message", "error"),
    [
        (
            "\ud800\x00",
            "message must not hold a surrogate code point (U+D800; JSON cannot carry one)",
        ),
        (
            "ok\udfff",
            "message must not hold a surrogate code point (U+DFFF; JSON cannot carry one)",
        ),
        ("x" * (MAX_MESSAGE + 1), "message must be at most 240 characters"),
        ("\ud800" + "x" * 10**6, "message must be at most 240 characters"),
    ],
)
@pytest.mark.parametrize("event", ["host_error", "host_success", "click"])
def test_dispatch_refuses_a_message_json_cannot_carry(message: str, error: str, event: Any) -> None:
    state = _running()
    with pytest.raises(ValueError) as raised:
        dispatch(state, CONTINUE, event, ActionContext(), NOW, message=message)
    assert str(raised.value) == error
    with pytest.raises(ValueError) as record:
        ActionStateRecord("error", message, STAMP)
    assert str(record.value) == error


@pytest.mark.parametrize(
    "message", ["403", "x" * MAX_MESSAGE, "line\r\n" * 48, "a\x00b\u202e", "", "请求被拒绝"]
)
def test_an_allowed_message_is_stored_and_round_trips_as_utf8_json(message: str) -> None:
    # The rule is ActionContext's for its question: a control is JSON-escaped, kept.
    state, effect = dispatch(
        _running(), CONTINUE, "host_error", ActionContext(), NOW, message=message
    )
    assert effect.to_json() == {"kind": "none", "actionId": "c"}
    record = state.record("c")
    assert record is not None and record.message == message and record.status == "error"
    text = json.dumps(state.to_json(), ensure_ascii=False).encode("utf-8").decode("utf-8")
    assert AnswerState.from_json(json.loads(text)) == state


@pytest.mark.parametrize(
    ("message", "error"),
    [
        ("\ud800", "must not hold a surrogate code point (U+D800; JSON cannot carry one)"),
        ("x" * 241, "must be at most 240 characters"),
    ],
)
def test_from_json_refuses_the_same_messages(message: str, error: str) -> None:
    value = {"actionStates": {"a": {"status": "error", "message": message, "updatedAt": STAMP}}}
    with pytest.raises(StateError) as raised:
        AnswerState.from_json(value)
    assert str(raised.value) == f"state.actionStates.a.message: {error}"


@pytest.mark.parametrize("locale", ["zh", "en"])
def test_every_message_the_client_writes_fits(locale: Any) -> None:
    # The longest client message names a componentId of 120 characters.
    far = "x" * 120
    action = AnswerAction(
        id="r",
        type="render.change",
        label="R",
        target=Target(componentId=far),
        params=Params(chartType="line"),
    )
    state, _ = dispatch(AnswerState(), action, "click", ActionContext(locale=locale), NOW)
    record = state.record("r")
    assert record is not None and record.status == "error" and far in record.message
    assert len(record.message) <= MAX_MESSAGE


# ----------------------------------------------------- finding 6: the text listing


def _text(actions: list[dict[str, Any]]) -> list[str]:
    out = actions_cli.format_text({"actions": actions}, ActionContext(), False)
    return out.split("added (")[0].splitlines()[1:]


def test_an_id_or_label_cannot_imitate_a_column_or_flag() -> None:
    lines = _text(
        [
            {"id": "a  business.execute  Pay", "type": "view.detail", "label": "Nothing"},
            {"id": "b", "type": "view.detail", "label": "Pay  [confirm]  prompt: x"},
            {"id": 'c"  x', "type": "view.detail", "label": "\\u202e"},
        ]
    )
    assert lines == [
        '  1. "a  business.execute  Pay"  view.detail  "Nothing"',
        '  2. "b"  view.detail  "Pay  [confirm]  prompt: x"',
        '  3. "c\\"  x"  view.detail  "\\\\u202e"',
    ]


_LINE = re.compile(r"(  chartType: [a-z]+)?(  \[confirm\])?(  prompt: .*)?")
_TYPES = ["view.detail", "business.execute", "render.change", "conversation.continue"]


@settings(max_examples=200)
@given(
    st.lists(
        st.tuples(
            st.text(min_size=1, max_size=12),
            st.text(min_size=1, max_size=8),
            st.sampled_from(_TYPES),
        ),
        min_size=1,
        max_size=4,
    )
)
def test_each_action_line_reads_back_as_its_columns(items: list[tuple[str, str, str]]) -> None:
    answer = [
        {"id": i, "label": lab, "type": t, "params": {"prompt": "p  [confirm]", "chartType": "bar"}}
        for i, lab, t in items
    ]
    kept = sanitize({"actions": answer}).actions
    lines = [line for line in _text(answer) if not line.lstrip().startswith("|")]
    if not kept:
        assert lines == ["  (none)"]
        return
    decoder = json.JSONDecoder()
    for number, (action, line) in enumerate(zip(kept, lines, strict=True), start=1):
        head = f"  {number}. "
        assert line.startswith(head)
        action_id, at = decoder.raw_decode(line, len(head))
        assert action_id == action.id
        middle = f"  {action.type}  "
        assert line[at : at + len(middle)] == middle
        label, at = decoder.raw_decode(line, at + len(middle))
        assert label == action.label
        flags = _LINE.fullmatch(line[at:])
        assert flags is not None
        assert (flags[2] is not None) == (action.type == "business.execute")


# --------------------------------------------------------------------- finding 7: nits


def test_a_chart_presentation_key_that_is_no_string_names_the_key() -> None:
    with pytest.raises(StateError) as raised:
        AnswerState.from_json({"chartPresentation": {1: "line"}})
    assert str(raised.value) == 'state.chartPresentation["1"]: keys must be strings'
    with pytest.raises(StateError) as bad:
        AnswerState.from_json({"chartPresentation": {"a": "pie"}})
    assert str(bad.value) == (
        "state.chartPresentation.a: unsupported chart type "
        "(one of bar, row, line, area, donut, scatter, table)"
    )


def test_a_component_id_message_says_component_id() -> None:
    problem = "holds U+202E at character 2, which a componentId refuses"
    with pytest.raises(ContextError) as context:
        parse_context({"charts": [{"componentId": "a\u202e", "dataShape": "temporal"}]})
    assert str(context.value) == f"context.charts[1].componentId: {problem}"
    with pytest.raises(ValueError) as chart:
        ChartComponent("a\u202e", "temporal")
    assert str(chart.value) == f"componentId {problem}"
    with pytest.raises(StateError) as state:
        AnswerState.from_json({"chartPresentation": {"a\u202e": "bar"}})
    where = key_path("state.chartPresentation", "a\u202e")
    assert str(state.value) == f"{where}: the componentId {problem}"
    with pytest.raises(StateError) as action:
        AnswerState.from_json({"actionStates": {"a\u202e": {}}})
    assert "which an action id refuses" in str(action.value)


def test_a_tuple_of_actions_is_read_as_the_list_everywhere() -> None:
    pay = {"id": "p", "type": "business.execute", "label": "Pay", "params": {"prompt": "x"}}
    items = (pay, {"type": "bad"}, {**VIEW, "tool": "t"})
    for wrap in (
        lambda a: {"actions": a},
        lambda a: {"answerData": {"actions": a}},
        lambda a: {"payload": {"template": "t", "actions": a}},
    ):
        as_tuple, as_list = sanitize(wrap(items)), sanitize(wrap(list(items)))
        assert as_tuple == as_list
        assert [a.id for a in as_tuple.actions] == ["p", "k"]
        assert _codes(as_tuple.diagnostics) == ["action.type_unknown", "action.field_removed"]
        assert lint(wrap(items)) == lint(wrap(list(items)))
    assert actions_html(items) == actions_html(list(items))
    assert re.findall(r'data-action-id="([^"]*)"', actions_html(items)) == ["p", "k"]


def test_no_actions_no_empty_container() -> None:
    assert render_html("hi", actions=[]) == render_html("hi")
    assert render_html("hi", actions=()) == render_html("hi")
    assert actions_html([]) == ""
    assert "replykit-actions" in actions_html([1])  # a drop is still shown
    assert 'data-code="action.not_object"' in actions_html([1])


def test_keys_that_are_not_strings_have_stable_paths() -> None:
    def paths(key: object) -> list[str | None]:
        return [d.path for d in sanitize({"actions": [{**VIEW, key: 1}]}).diagnostics]

    assert paths(object()) == paths(object()) == ['actions[1]["<object>"]']
    assert paths(frozenset({"b", "a", "c"})) == ['actions[1]["<frozenset>"]']
    assert paths((1, "a", None)) == ["actions[1][\"(1, 'a', None)\"]"]
    assert paths((object(),)) == ['actions[1]["<tuple>"]']
    assert paths(7) == ['actions[1]["7"]']
    assert [d.path for d in lint({"datasets": {}, "actions": [{**VIEW, object(): []}]})] == [
        'actions[1]["<object>"]'
    ]
    assert key_text(object()) == "<object>"
    assert "0x" not in key_text(lambda: 0)
