"""Hypothesis strategies: arbitrary JSON, junk, and action-like objects near the limits."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from replykit.actions import ACTION_TYPES, CHART_TYPES, RESERVED_IDS, RISK_LEVELS, STYLES

ASTRAL = st.characters(min_codepoint=0x10000, max_codepoint=0x10FFFF, categories=["So", "Lo"])
BLANKS = st.sampled_from([" ", "\t", "\n", "\u3000", "\u00a0", "\u200b", "\ufeff", "\U000e0020"])
VISIBLE = st.characters(categories=["L", "N", "P", "S"])
HUGE = st.sampled_from(["x" * 100_000, "工" * 50_000, "\U0001f600" * 20_000, " " * 10_000])
#: §12 unsafe characters (and their neighbours that are allowed) spliced into texts.
UNSAFE = st.sampled_from(["\x00", "\x1f", "\x7f", "\x85", "\x9f", "\u202a", "\u202e",
                          "\u2066", "\u2069", "\t", "\n", "\r", "\u200f", "\u2029"])  # fmt: skip


def _with_unsafe(text: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.tuples(text, UNSAFE, st.integers(0, 40)).map(
        lambda t: t[0][: t[2]] + t[1] + t[0][t[2] :]
    )


def near_limit(limit: int) -> st.SearchStrategy[str]:
    """Strings at, just under and just over ``limit`` code points (astral ones included),
    short visible strings, and blank ones; mostly valid so actions survive."""

    def pick(n: int) -> st.SearchStrategy[str]:
        if n == 0:
            return st.text(BLANKS, max_size=3)
        if n == 1:
            return st.sampled_from([limit + 1, limit + 2]).flatmap(
                lambda k: st.one_of(st.text(ASTRAL, min_size=k, max_size=k), st.just("a" * k))
            )
        if n in (2, 3):
            return st.sampled_from([limit - 1, limit]).flatmap(
                lambda k: st.one_of(st.text(ASTRAL, min_size=k, max_size=k), st.just("é" * k))
            )
        if n == 5:
            return _with_unsafe(st.text(VISIBLE, min_size=1, max_size=8))
        return st.text(VISIBLE, min_size=1, max_size=8)

    return st.integers(0, 7).flatmap(pick)


json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=10),
)
any_keys = st.one_of(st.text(max_size=6), st.integers(), st.none(), st.booleans(), st.tuples())
json_values: st.SearchStrategy[Any] = st.recursive(
    json_scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.text(max_size=6), children, max_size=4),
        st.dictionaries(any_keys, children, max_size=3),
    ),
    max_leaves=12,
)
junk = st.one_of(json_values, HUGE)


def _maybe(value: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    # Mostly valid values so that many actions survive and reach the removal rules.
    return st.integers(0, 4).flatmap(lambda n: value if n else junk)


prompts = near_limit(800)
params = st.one_of(
    st.fixed_dictionaries({"prompt": prompts}),
    st.fixed_dictionaries({"chartType": st.sampled_from(CHART_TYPES)}),
    st.fixed_dictionaries(
        {},
        optional={
            "prompt": _maybe(prompts),
            "prompt ": st.text(max_size=3),
            "chartType": _maybe(st.sampled_from(CHART_TYPES)),
            "arguments": json_values,
            "tool": st.text(max_size=8),
        },
    ),
    junk,
)
targets = st.one_of(
    st.fixed_dictionaries(
        {},
        optional={
            "dataset": _maybe(near_limit(120)),
            "componentId": _maybe(near_limit(120)),
            "url": st.text(max_size=8),
        },
    ),
    junk,
)
action_like: st.SearchStrategy[Any] = st.fixed_dictionaries(
    {
        "id": _maybe(
            st.one_of(
                st.sampled_from(["a", "b", "c", "auto.view.detail"]),
                st.sampled_from(RESERVED_IDS),
                near_limit(80),
            )
        ),
        "type": _maybe(st.sampled_from(ACTION_TYPES)),
        "label": _maybe(near_limit(32)),
    },
    optional={
        "style": _maybe(st.sampled_from(STYLES)),
        "title": _maybe(near_limit(80)),
        "description": _maybe(near_limit(240)),
        "riskLevel": _maybe(st.sampled_from(RISK_LEVELS)),
        "requiresConfirmation": st.one_of(st.booleans(), junk),
        "target": targets,
        "params": params,
        "tool": st.text(max_size=8),
        "callback": junk,
        7: junk,
    },
)


def _good(kind: str) -> st.SearchStrategy[dict[Any, Any]]:
    need: dict[str, Any] = {}
    if kind in ("conversation.continue", "business.execute", "business.cancel"):
        need["params"] = st.fixed_dictionaries({"prompt": prompts}, optional={"extra": junk})
    elif kind == "render.change":
        need["params"] = st.fixed_dictionaries(
            {"chartType": st.sampled_from(CHART_TYPES)}, optional={"prompt": junk}
        )
    return st.fixed_dictionaries(
        {
            "id": st.one_of(
                st.sampled_from(["a", "b", "c"]), st.text(VISIBLE, min_size=1, max_size=4)
            ),
            "type": st.just(kind),
            "label": st.text(VISIBLE, min_size=1, max_size=32),
            **need,
        },
        optional={
            "riskLevel": _maybe(st.sampled_from(RISK_LEVELS)),
            "requiresConfirmation": st.one_of(st.booleans(), junk),
            "target": targets,
            "toolName": st.text(max_size=8),
        },
    )


good_action: st.SearchStrategy[Any] = st.sampled_from(ACTION_TYPES).flatmap(_good)


def _element(n: int) -> st.SearchStrategy[Any]:
    if n == 0:
        return junk
    return action_like if n < 3 else good_action


actions_lists = st.lists(st.integers(0, 5).flatmap(_element), max_size=14)
answers = st.one_of(
    actions_lists.map(lambda a: {"datasets": {}, "actions": a}),
    st.tuples(actions_lists, actions_lists).map(
        lambda p: {"answerData": {"actions": p[0]}, "payload": {"actions": p[1]}}
    ),
    actions_lists.map(lambda a: {"payload": {"template": "t", "actions": a}}),
    # Mostly valid lists longer than 8, to reach action.over_limit.
    st.lists(good_action, min_size=8, max_size=14).map(lambda a: {"actions": a}),
    st.dictionaries(st.sampled_from(["actions", "answerData", "payload", "template"]), junk),
    # A str answer is JSON text left undecoded: sanitize() raises TypeError (test_argtypes).
    junk.filter(lambda value: not isinstance(value, str)),
)
