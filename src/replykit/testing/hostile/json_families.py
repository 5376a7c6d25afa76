"""Hostile JSON families (§1 bounded output).

Each builds the JSON text one command reads (tool arguments, an answer's actions, the
answers for ``respond``, a conversation for ``check``) and, where the command also
reads a message, that message.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from replykit.testing.hostile.messages import INTRO


@dataclass(frozen=True)
class JsonCase:
    """One input of a JSON family: ``json`` is the JSON text its command reads;
    ``message`` the message it goes with (``respond``: the message holding the form;
    ``check``: the text of the message Self-check inspects), else ``""``."""

    json: str
    message: str = ""


@dataclass(frozen=True)
class JsonFamily:
    """A hostile JSON family: ``build(n)`` gives the case for size ``n``; ``command``
    is the command it is made for (``tool``, ``actions``, ``respond``, ``check``);
    ``exempt`` as for :class:`~replykit.testing.hostile.Family`."""

    name: str
    command: str
    build: Callable[[int], JsonCase]
    n: int
    description: str
    exempt: tuple[str, ...] = ()


def compact_json(value: object) -> str:
    """``value`` as compact JSON text, non-ASCII characters kept."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _xml_form(form: object) -> str:
    return INTRO + "<questionnaire>" + compact_json(form) + "</questionnaire>\n"


def tool_integers(n: int) -> JsonCase:
    """Tool arguments whose ``questions`` are ``n`` integers (each not an object)."""
    return JsonCase(compact_json({"title": "T", "questions": list(range(n))}))


def tool_option_grid(n: int) -> JsonCase:
    """Tool arguments with k questions of k distinct short options, k*k about ``n``
    (a large valid form while k is within the limits)."""
    k = max(1, int(n**0.5))
    options = [f"o{j}" for j in range(k)]
    questions = [
        {"type": "single_choice", "text": f"Q{i}", "options": options, "default": "o0"}
        for i in range(k)
    ]
    return JsonCase(compact_json({"title": "T", "questions": questions}))


def tool_bad_options(n: int) -> JsonCase:
    """Tool arguments whose questions hold ``n`` integer options in all, 900 a question."""
    questions = [
        {"type": "multi_choice", "text": f"Q{i}", "options": list(range(900))}
        for i in range(max(1, n // 900))
    ]
    return JsonCase(compact_json({"questions": questions}))


def tool_defaults_not_in_options(n: int) -> JsonCase:
    """Tool arguments with questions of 100 options each whose multi-choice default lists
    100 values that are no option, ``n`` such values in all."""
    options = [f"option {j}" for j in range(100)]
    questions = [
        {
            "type": "multi_choice",
            "text": f"Q{i}",
            "options": options,
            "default": [f"missing {j}" for j in range(100)],
        }
        for i in range(max(1, n // 100))
    ]
    return JsonCase(compact_json({"questions": questions}))


def tool_long_values(n: int) -> JsonCase:
    """Tool arguments whose single-choice default is one string of ``n`` characters that
    is no option (its value goes into the error's details once)."""
    return JsonCase(
        compact_json(
            {
                "questions": [
                    {"type": "single_choice", "text": "Q", "options": ["a"], "default": "x" * n}
                ]
            }
        )
    )


def actions_unknown_fields(n: int) -> JsonCase:
    """One action with ``n`` fields outside the protocol (each one removed)."""
    action: dict[str, object] = {"id": "a", "type": "view.detail", "label": "Open"}
    action.update({f"f{i}": 0 for i in range(n)})
    return JsonCase(compact_json({"actions": [action]}))


def actions_many_invalid(n: int) -> JsonCase:
    """``n`` actions of an unknown type (each dropped)."""
    return JsonCase(compact_json({"actions": [{"id": f"a{i}", "type": "x"} for i in range(n)]}))


def actions_many_valid(n: int) -> JsonCase:
    """``n`` valid actions (8 shown, the rest over the limit) with forbidden fields for
    the lint."""
    actions = [
        {"id": f"a{i}", "type": "view.detail", "label": "Open", "url": "u"} for i in range(n)
    ]
    return JsonCase(compact_json({"answerData": {"datasets": {}, "actions": actions}}))


def _multi_form(options: list[dict[str, str]]) -> str:
    form = {
        "title": "T",
        "questions": [{"type": "multi_choice", "text": "Pick", "options": options}],
    }
    return _xml_form(form)


def respond_repeated_value(n: int) -> JsonCase:
    """A multi-choice answer repeating one value ``n`` times against a 10 KB label."""
    message = _multi_form([{"value": "a", "label": "L" * 10_000}, {"value": "b"}])
    return JsonCase(compact_json({"q1": ["a"] * n}), message)


def respond_unknown_values(n: int) -> JsonCase:
    """``n`` distinct values that are no option, against 200 options of 50 characters."""
    options = [{"value": f"{j:050d}"} for j in range(200)]
    return JsonCase(compact_json({"q1": [f"v{i}" for i in range(n)]}), _multi_form(options))


def respond_unknown_questions(n: int) -> JsonCase:
    """Answers for ``n`` question ids the form does not have."""
    message = _xml_form({"questions": [{"type": "text", "text": "Q"}]})
    return JsonCase(compact_json({f"x{i}": "a" for i in range(n)}), message)


def respond_long_other_label(n: int) -> JsonCase:
    """Up to 1000 questions answered "other" (``n`` characters of ``other_text`` in all),
    under a form whose ``ui_text.other`` has 10 KB (longer than a ``ui_text`` value may
    be, so the locale's label is used instead of repeating it per question)."""
    count = max(1, min(n // 100, 1000))
    questions = [
        {"type": "single_choice", "text": f"Q{i}", "options": ["a"], "allow_other": True}
        for i in range(count)
    ]
    form = {"ui_text": {"other": "O" * 10_000}, "questions": questions}
    text = "t" * (n // count)
    answers = {
        f"q{i + 1}": {"value": "__questionnaire_other__", "other_text": text} for i in range(count)
    }
    return JsonCase(compact_json(answers), _xml_form(form))


def conversation_json(content: str, before: int = 0) -> str:
    """A conversation of ``before`` alternating messages, then an assistant reply
    holding ``content``, as compact JSON."""
    messages = [
        {"role": "user" if i % 2 == 0 else "assistant", "content": f"message {i}"}
        for i in range(before)
    ]
    messages.append({"role": "assistant", "content": content})
    return compact_json(messages)


def check_repeated_problem(n: int) -> JsonCase:
    """A reply with ``n`` unclosed opening tags: one problem repeated (the repair
    instruction lists it once)."""
    content = "Here:\n" + "<questionnaire> " * n
    return JsonCase(conversation_json(content), content)


def check_invalid_form(n: int) -> JsonCase:
    """A reply with a fenced form of ``n`` questions that are not mappings."""
    content = INTRO + "```questionnaire\ntitle: T\nquestions:\n" + "  - 1\n" * n + "```\n"
    return JsonCase(conversation_json(content), content)


def check_many_messages(n: int) -> JsonCase:
    """A conversation of ``n`` messages whose last reply has one near-miss."""
    content = "Here:\n\n~~~questionnaire\ntitle: T\n~~~\n"
    return JsonCase(conversation_json(content, before=n), content)


def check_failing_lines(n: int) -> JsonCase:
    """JSON Lines of ``n`` short conversations, each a reply with one near-miss: every
    line's result carries a whole repair instruction (§8)."""
    content = "Hi\n~~~questionnaire\n"
    return JsonCase((conversation_json(content) + "\n") * n, content)


def _json_family(
    build: Callable[[int], JsonCase], command: str, n: int, exempt: tuple[str, ...] = ()
) -> JsonFamily:
    doc = " ".join((build.__doc__ or "").split())
    return JsonFamily(build.__name__, command, build, n, doc, exempt)


#: The JSON families; ``n`` is a size the benchmark grows until the input reaches about
#: half a megabyte.
JSON_FAMILIES: tuple[JsonFamily, ...] = (
    _json_family(tool_integers, "tool", 10_000),
    _json_family(tool_option_grid, "tool", 10_000),
    _json_family(tool_bad_options, "tool", 10_000),
    _json_family(tool_defaults_not_in_options, "tool", 10_000),
    _json_family(tool_long_values, "tool", 10_000),
    _json_family(actions_unknown_fields, "actions", 2_000),
    _json_family(actions_many_invalid, "actions", 2_000),
    _json_family(actions_many_valid, "actions", 2_000),
    _json_family(respond_repeated_value, "respond", 1_000),
    _json_family(respond_unknown_values, "respond", 1_000),
    _json_family(respond_unknown_questions, "respond", 1_000),
    _json_family(respond_long_other_label, "respond", 1_000),
    _json_family(check_repeated_problem, "check", 1_000),
    _json_family(check_invalid_form, "check", 1_000),
    _json_family(check_many_messages, "check", 1_000),
    # A whole repair instruction per failing conversation (§8, the documented shape).
    _json_family(check_failing_lines, "check", 1_000, exempt=("check",)),
)

JSON_BY_NAME: dict[str, JsonFamily] = {f.name: f for f in JSON_FAMILIES}
