"""§12 reserved ids and unsafe characters: sanitize, lint, schema, models and state."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replykit.actions import (
    RESERVED_IDS,
    ActionContext,
    ActionSet,
    ActionStateRecord,
    AnswerAction,
    AnswerState,
    ChartComponent,
    ContextError,
    Params,
    StateError,
    Target,
    action_schema,
    lint,
    parse_context,
    sanitize,
    with_defaults,
)
from replykit.actions.diagnostic import key_path

from .strategies import answers
from .test_actions_lint_schema import validate

SCHEMA = action_schema()
UNSAFE = ["\x00", "\x08", "\x0b", "\x1b", "\x1f", "\x7f", "\x80", "\x85", "\x9f",
          "\u202a", "\u202b", "\u202c", "\u202d", "\u202e",
          "\u2066", "\u2067", "\u2068", "\u2069"]  # fmt: skip
# Neighbours of the forbidden ranges, and Cf marks §12 does not list: all allowed.
SAFE = ["\u00a0", "\u00ad", "\u200b", "\u200e", "\u200f", "\u2028", "\u2029", "\u2065",
        "\u206a", "\u2029", "~", "工", "\U0001f600"]  # fmt: skip


def codes(result: ActionSet) -> list[tuple[str, str | None]]:
    return [(d.code, d.path) for d in result.diagnostics]


def act(**fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"id": "a", "type": "view.detail", "label": "L"}
    base.update(fields)
    return base


def test_the_issue_example_no_longer_makes_a_button() -> None:
    answer = {
        "actions": [
            {
                "id": "x\u0000y",
                "type": "business.cancel",
                "label": "\u202eetelpmoC\u202c",
                "params": {"prompt": "p"},
            }
        ]
    }
    result = sanitize(answer)
    assert result.actions == ()
    assert codes(result) == [("action.text_unsafe", "actions[1].id")]
    assert result.diagnostics[0].message == (
        "id holds U+0000 at character 2, a control or bidi formatting character that "
        "could make the button read as another; the action is dropped."
    )
    # With a clean id the label is what drops it.
    answer["actions"][0]["id"] = "x"
    assert codes(sanitize(answer)) == [("action.text_unsafe", "actions[1].label")]


@pytest.mark.parametrize("reserved", RESERVED_IDS)
def test_every_reserved_id_is_dropped(reserved: str) -> None:
    result = sanitize({"actions": [act(id=reserved), act(id="ok")]})
    assert [a.id for a in result.actions] == ["ok"]
    assert codes(result) == [("action.id_reserved", "actions[1].id")]


def test_reserved_list_is_the_one_of_section_12() -> None:
    assert RESERVED_IDS == (
        "__proto__", "constructor", "prototype", "toString", "toLocaleString", "valueOf",
        "hasOwnProperty", "isPrototypeOf", "propertyIsEnumerable", "__defineGetter__",
        "__defineSetter__", "__lookupGetter__", "__lookupSetter__",
    )  # fmt: skip


def test_reserved_is_exact_and_case_sensitive() -> None:
    ids = ["Constructor", "__proto", "tostring", "constructor ", "my.constructor", "proto"]
    result = sanitize({"actions": [act(id=i) for i in ids]})
    assert [a.id for a in result.actions] == ids
    assert result.diagnostics == ()


def test_reserved_is_judged_before_duplicates_and_claims_no_id() -> None:
    result = sanitize(
        {"actions": [act(id="toString"), act(id="toString"), act(id="a"), act(id="a")]}
    )
    assert codes(result) == [
        ("action.id_reserved", "actions[1].id"),
        ("action.id_reserved", "actions[2].id"),
        ("action.id_duplicate", "actions[4].id"),
    ]


def test_id_rules_come_before_the_label_rules() -> None:
    result = sanitize({"actions": [act(id="valueOf", label=""), act(id="b\x01", label="")]})
    assert codes(result) == [
        ("action.id_reserved", "actions[1].id"),
        ("action.text_unsafe", "actions[2].id"),
    ]
    # An unsafe id claims nothing: a later clean action may use the same text.
    result = sanitize({"actions": [act(id="b\x01"), act(id="b\x01")]})
    assert codes(result) == [
        ("action.text_unsafe", "actions[1].id"),
        ("action.text_unsafe", "actions[2].id"),
    ]


def test_an_invalid_id_reports_id_invalid_first() -> None:
    assert codes(sanitize({"actions": [act(id="\x00" * 81)]})) == [
        ("action.id_invalid", "actions[1].id")
    ]
    # A label over 32 characters is label_invalid even when it also holds a control.
    assert codes(sanitize({"actions": [act(label="\x00" + "x" * 32)]})) == [
        ("action.label_invalid", "actions[1].label")
    ]


@pytest.mark.parametrize("char", UNSAFE)
@pytest.mark.parametrize("field", ["id", "label"])
def test_unsafe_character_in_a_required_text_drops_the_action(field: str, char: str) -> None:
    result = sanitize({"actions": [act(**{field: "a" + char + "b"})]})
    assert result.actions == ()
    assert codes(result) == [("action.text_unsafe", f"actions[1].{field}")]
    assert f"U+{ord(char):04X} at character 2" in result.diagnostics[0].message


@pytest.mark.parametrize("char", ["\t", "\n", "\r"])
@pytest.mark.parametrize("field", ["id", "label", "title", "description"])
def test_tab_and_line_breaks_are_unsafe_outside_prompts(field: str, char: str) -> None:
    result = sanitize({"actions": [act(**{field: "a" + char + "b"})]})
    assert codes(result) == [("action.text_unsafe", f"actions[1].{field}")]


@pytest.mark.parametrize("char", SAFE)
def test_neighbours_and_other_format_characters_are_kept(char: str) -> None:
    value = "a" + char + "b"
    action = act(id=value, label=value, title=value, description=value)
    result = sanitize({"actions": [action]})
    assert result.diagnostics == ()
    assert result.actions[0].to_json() == action


@pytest.mark.parametrize("char", UNSAFE)
@pytest.mark.parametrize("field", ["title", "description"])
def test_unsafe_optional_text_is_removed(field: str, char: str) -> None:
    result = sanitize({"actions": [act(**{field: char + "x"})]})
    assert [a.to_json() for a in result.actions] == [act()]
    assert codes(result) == [("action.text_unsafe", f"actions[1].{field}")]
    assert result.diagnostics[0].message.endswith("; the field is removed.")


def test_an_over_long_unsafe_title_is_field_removed() -> None:
    result = sanitize({"actions": [act(title="\x00" * 81)]})
    assert codes(result) == [("action.field_removed", "actions[1].title")]


@pytest.mark.parametrize("kind", ["conversation.continue", "business.execute", "business.cancel"])
def test_prompts_allow_tab_and_line_breaks_only(kind: str) -> None:
    prompt = "line 1\r\nline 2\n\tline 3\rend"
    kept = sanitize({"actions": [act(type=kind, params={"prompt": prompt})]})
    assert kept.diagnostics == ()
    assert kept.actions[0].prompt == prompt
    for char in ["\x00", "\x0b", "\x0c", "\x85", "\u202e", "\u2067"]:
        result = sanitize({"actions": [act(type=kind, params={"prompt": "a" + char})]})
        assert result.actions == ()
        assert codes(result) == [("action.text_unsafe", "actions[1].params.prompt")]


def test_prompt_required_comes_before_its_unsafe_check() -> None:
    result = sanitize({"actions": [act(type="business.execute", params={"prompt": "\x00 "})]})
    assert codes(result) == [("action.text_unsafe", "actions[1].params.prompt")]
    result = sanitize({"actions": [act(type="business.execute", params={"prompt": "\x00" * 801})]})
    assert codes(result) == [("action.prompt_required", "actions[1].params.prompt")]


def test_an_unsafe_modify_prompt_is_removed_and_the_default_applies() -> None:
    result = sanitize(
        {"actions": [act(type="conversation.modify", params={"prompt": "x\u202ey\nz"})]}
    )
    assert [a.to_json() for a in result.actions] == [act(type="conversation.modify")]
    assert codes(result) == [("action.text_unsafe", "actions[1].params.prompt")]
    kept = sanitize({"actions": [act(type="conversation.modify", params={"prompt": "x\ny"})]})
    assert kept.actions[0].prompt == "x\ny" and kept.diagnostics == ()


def test_the_models_refuse_what_sanitize_would_not_keep() -> None:
    for fields in (
        {"id": "__proto__"},
        {"id": "a\x00"},
        {"label": "\u202eL"},
        {"title": "t\x1b"},
        {"description": "d\u2066"},
        {"label": "a\tb"},
    ):
        with pytest.raises(ValueError):
            AnswerAction(**{"id": "a", "type": "view.detail", "label": "L", **fields})
    with pytest.raises(ValueError):
        Params(prompt="p\x00")
    assert Params(prompt="p\n\tq").prompt == "p\n\tq"


def test_lint_reports_reserved_ids_and_unsafe_texts() -> None:
    answer = {
        "datasets": {},
        "actions": [
            act(id="__proto__", label="\u202eL", title="t\x07"),
            act(
                id="b",
                type="conversation.modify",
                description="\x85",
                params={"prompt": "ok\n", "chartType": "bar"},
            ),
            act(id="c", type="conversation.continue", params={"prompt": "p\u2069"}),
            "not an object",
        ],
    }
    found = [(d.code, d.path) for d in lint(answer) if d.code in ("lint.id_reserved",
                                                                  "lint.text_unsafe")]  # fmt: skip
    assert found == [
        ("lint.id_reserved", "actions[1].id"),
        ("lint.text_unsafe", "actions[1].label"),
        ("lint.text_unsafe", "actions[1].title"),
        ("lint.text_unsafe", "actions[2].description"),
        ("lint.text_unsafe", "actions[3].params.prompt"),
    ]


def test_schema_refuses_reserved_ids_and_unsafe_texts() -> None:
    good = [act(), act(id="b", type="business.execute", params={"prompt": "x\r\ny\tz"})]
    assert validate(SCHEMA, good, SCHEMA)
    bad: list[dict[str, Any]] = [
        act(id="constructor"),
        act(id="a\x00"),
        act(label="\u202eL"),
        act(title="t\n"),
        act(description="d\x9f"),
        act(type="business.execute", params={"prompt": "x\x0b"}),
        act(type="conversation.modify", params={"prompt": "\u2068x"}),
    ]
    for action in bad:
        assert not validate(SCHEMA, [action], SCHEMA), action
        assert sanitize({"actions": [action]}).diagnostics != ()


def test_client_added_continue_entry_never_carries_an_unsafe_prompt() -> None:
    kept = with_defaults(sanitize({"actions": []}), ActionContext(question="Why\nnow?"))
    assert [a.id for a in kept.added] == ["auto.conversation.continue"]
    assert kept.added[0].prompt == "继续处理：Why\nnow?"
    for question in ["Why\x00?", "Wh\u202ey?", "Why\x85?"]:
        added = with_defaults(sanitize({"actions": []}), ActionContext(question=question)).added
        assert added == ()


def test_state_and_context_never_key_on_a_reserved_name() -> None:
    stamp = "2026-08-27T07:00:00.000Z"
    record = {"status": "success", "message": "m", "updatedAt": stamp}
    for bad in (
        {"actionStates": {"__proto__": record}},
        {"actionStates": {"hasOwnProperty": record}},
        {"chartPresentation": {"constructor": "bar"}},
    ):
        with pytest.raises(StateError, match="JavaScript"):
            AnswerState.from_json(bad)
    assert (
        AnswerState.from_json({"actionStates": {"Constructor": record}}).status_of("Constructor")
        == "success"
    )
    with pytest.raises(ValueError):
        AnswerState(chartPresentation={"valueOf": "bar"})
    with pytest.raises(ValueError):
        ChartComponent("toString", "temporal")
    with pytest.raises(ContextError, match="componentId"):
        parse_context({"charts": [{"componentId": "__proto__", "dataShape": "temporal"}]})


def test_no_action_keeps_a_target_no_chart_can_have() -> None:
    # docs/actions.md section 2 rule 11: a chart id with an inherited name or an unsafe
    # character is refused by ChartComponent, so a render.change naming one could only
    # fail: it is dropped; on another type the field is removed.
    answer = {
        "actions": [
            act(id="constructor", type="render.change", params={"chartType": "bar"}),
            act(id="c", type="render.change", params={"chartType": "bar"},
                target={"componentId": "constructor"}),
            act(id="d", type="render.change", params={"chartType": "bar"},
                target={"componentId": "chart\u202e"}),
            act(id="e", type="view.detail", target={"componentId": "toString", "dataset": "x"}),
            act(id="f", type="view.detail", target={"dataset": "x\u0007"}),
        ]
    }  # fmt: skip
    result = sanitize(answer)
    assert [(a.id, a.target) for a in result.actions] == [
        ("e", Target(dataset="x")),
        ("f", None),
    ]
    assert [(d.code, d.path) for d in result.diagnostics] == [
        ("action.id_reserved", "actions[1].id"),
        ("action.target_invalid", "actions[2].target.componentId"),
        ("action.text_unsafe", "actions[3].target.componentId"),
        ("action.field_removed", "actions[4].target.componentId"),
        ("action.text_unsafe", "actions[5].target.dataset"),
    ]
    assert "JavaScript objects inherit" in result.diagnostics[1].message
    assert result.diagnostics[2].message.endswith("the action is dropped.")
    assert result.diagnostics[4].message.endswith("the field is removed.")
    for bad in ("constructor", "chart\u202e"):
        with pytest.raises(ValueError, match="componentId"):
            Target(componentId=bad)
    with pytest.raises(ValueError, match="dataset"):
        Target(dataset="x\u0007")
    linted = [(d.code, d.path) for d in lint(answer) if d.code == "lint.text_unsafe"]
    assert linted == [
        ("lint.text_unsafe", "actions[3].target.componentId"),
        ("lint.text_unsafe", "actions[5].target.dataset"),
    ]


RECORD = {"status": "idle", "message": "m", "updatedAt": "2026-08-27T07:00:00.000Z"}


@pytest.mark.parametrize(
    ("key", "problem"),
    [
        ("a\u202e", "holds U+202E at character 2, which an action id refuses"),
        ("a\u0000", "holds U+0000 at character 2, which an action id refuses"),
        ("a\ud800", "holds U+D800 at character 2, which an action id refuses"),
        ("a" * 81, "must be a non-blank string of at most 80 characters"),
        (" \u3000", "must be a non-blank string of at most 80 characters"),
        ("constructor", "must not be a name JavaScript objects inherit"),
    ],
)
def test_state_refuses_an_action_id_sanitize_never_keeps(key: str, problem: str) -> None:
    # docs/actions.md section 7: a record keyed by such an id belongs to no action.
    with pytest.raises(StateError) as refused:
        AnswerState.from_json({"actionStates": {key: RECORD}})
    where = key_path("state.actionStates", key)  # the §2 path syntax
    assert str(refused.value) == f"{where}: the action id {problem}"
    with pytest.raises(ValueError, match="actionStates"):
        AnswerState(actionStates={key: ActionStateRecord("idle", "m", RECORD["updatedAt"])})
    kept = sanitize({"datasets": {}, "actions": [{"id": key, "type": "view.detail",
                     "label": "L", "target": {"dataset": "d"}}]})  # fmt: skip
    assert kept.actions == ()


@pytest.mark.parametrize(
    ("key", "problem"),
    [
        ("c\u2066", "holds U+2066 at character 2, which a componentId refuses"),
        ("c" * 121, "must be a non-blank string of at most 120 characters"),
    ],
)
def test_state_refuses_a_component_id_no_chart_has(key: str, problem: str) -> None:
    with pytest.raises(StateError) as refused:
        AnswerState.from_json({"chartPresentation": {key: "bar"}})
    where = key_path("state.chartPresentation", key)
    assert str(refused.value) == f"{where}: the componentId {problem}"


def test_state_keeps_the_longest_ids_sanitize_keeps() -> None:
    state = AnswerState.from_json(
        {"actionStates": {"a" * 80: RECORD}, "chartPresentation": {"c" * 120: "bar"}}
    )
    assert state.status_of("a" * 80) == "idle" and state.chart_type("c" * 120) == "bar"


_TARGET_TEXT = st.sampled_from(
    ["sales", "图表", "a" * 120, "a" * 121, " ", "", "__proto__", "constructor", "toString",
     "a\u202eb", "x\x07", "\ud800", "y\udfff", "c\x7f", *[f"t{c}" for c in UNSAFE], *SAFE]
)  # fmt: skip


@given(
    st.sampled_from(["view.detail", "render.change", "answer.refresh"]),
    st.dictionaries(st.sampled_from(["dataset", "componentId"]), _TARGET_TEXT, min_size=1),
)
def test_the_schema_accepts_exactly_the_targets_sanitize_keeps(
    action_type: str, target: dict[str, str]
) -> None:
    # The schema is never the more permissive (docs/actions.md section 10): an action
    # it accepts is kept whole, one it refuses gets a diagnostic.
    params = {"chartType": "bar"} if action_type == "render.change" else None
    action = act(type=action_type, target=target, **({"params": params} if params else {}))
    result = sanitize({"actions": [action]})
    if any("\ud800" <= c <= "\udfff" for text in target.values() for c in text):
        # A lone surrogate: no JSON text a schema validates holds one decoded (§1).
        assert result.diagnostics != ()
    elif validate(SCHEMA, [action], SCHEMA):
        assert result.diagnostics == () and [a.to_json() for a in result.actions] == [action]
    else:
        assert result.diagnostics != ()


@pytest.mark.parametrize("tail", ["\r\n", "\x07\x07", "\n\n", "ab"])
def test_a_text_over_its_limit_is_too_long_whatever_it_holds(tail: str) -> None:
    # Only a prompt counts a line ending as one (§1.5); a label's every code point counts,
    # so length is judged first (docs/actions.md section 4), then its characters.
    over = sanitize({"actions": [act(label="L" * 31 + tail)]})
    assert codes(over) == [("action.label_invalid", "actions[1].label")]
    within = sanitize({"actions": [act(label="L" * 30 + tail)]})
    expected = [] if tail == "ab" else [("action.text_unsafe", "actions[1].label")]
    assert codes(within) == expected


def test_a_read_only_mapping_is_read_as_the_object_it_holds() -> None:
    from types import MappingProxyType

    action = act()
    plain = {"datasets": {}, "actions": [action]}
    for answer in (
        MappingProxyType(plain),
        {"answerData": MappingProxyType(plain)},
        {"payload": MappingProxyType({"template": "t", "actions": [action]})},
    ):
        result = sanitize(answer)
        assert [a.to_json() for a in result.actions] == [action], answer
    assert lint(MappingProxyType(plain)) == lint(plain) == ()


def _read_only(answer: Any) -> Any:
    """``answer`` with the top-level object, the wrapper members, answerData's
    ``datasets`` and each dataset in read-only views (docs/actions.md section 1)."""
    from types import MappingProxyType

    if not isinstance(answer, dict):
        return answer
    outer = dict(answer)
    for key in ("answerData", "payload"):
        member = outer.get(key)
        if isinstance(member, dict):
            member = dict(member)
            datasets = member.get("datasets")
            if isinstance(datasets, dict):
                member["datasets"] = MappingProxyType(
                    {
                        k: MappingProxyType(v) if isinstance(v, dict) else v
                        for k, v in datasets.items()
                    }
                )
            outer[key] = MappingProxyType(member)
    return MappingProxyType(outer)


@settings(max_examples=300)
@given(answers, st.sampled_from(["datasets", "actions", "answerData", "payload"]))
def test_read_only_mappings_read_as_the_objects_they_hold(answer: Any, extra: str) -> None:
    # The same answer in dicts and in read-only views: the same result, the same lint,
    # also when the wrapper holds a top-level key nothing reads (actions.misplaced).
    if isinstance(answer, dict):
        answer = {**answer, extra: answer.get(extra, [])}
    view = _read_only(answer)
    assert sanitize(view) == sanitize(answer)
    assert lint(view) == lint(answer)
