"""Hostile input families (issue 5, item 3) for benchmarks, tests and fuzzing.

Each family builds a message from a size parameter ``n`` and ends with a valid form
(:data:`FENCED_TAIL` or :data:`XML_TAIL`) at the top level of the document, so an exact
fast path cannot skip the hostile part: the whole message has to be read to find the
form. ``Family.n`` is the smaller size the benchmark runs; it also runs ``10 * n``.

The generators are pure functions of ``n`` with no dependency on replykit, so a test
can build the same inputs at small sizes and assert the outcome and the work done.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

#: A valid fenced YAML form with its preface (§4): closes every family whose hostile
#: part must not see a ``</questionnaire>`` closer.
FENCED_TAIL = (
    "\n\nPlease tell me how to go on.\n\n"
    "```questionnaire\n"
    "title: Next step\n"
    "questions:\n"
    "  - type: single_choice\n"
    "    text: Continue the task?\n"
    "    options:\n"
    '      - "Yes"\n'
    '      - "No"\n'
    '    default: "Yes"\n'
    "```\n"
)

#: A valid XML+JSON form (§5) on a paragraph of its own.
XML_TAIL = (
    "\n\n<questionnaire>"
    '{"title":"Next step","questions":[{"type":"single_choice","text":"Continue the task?",'
    '"options":["Yes","No"],"default":"Yes"}]}'
    "</questionnaire>\n"
)

_INTRO = "Here is what I found.\n\n"


@dataclass(frozen=True)
class Family:
    """A hostile family: ``build(n)`` gives the message for size ``n``.

    ``deep`` marks block-nesting families, exempt from the markdown-it-py ratio
    because markdown-it-py stops nesting block quotes and lists at 20 levels.
    ``tail`` names the valid form the message ends with (``"fenced"`` or ``"xml"``).
    """

    name: str
    build: Callable[[int], str]
    n: int
    tail: str
    description: str
    deep: bool = False


def backtick_runs(n: int) -> str:
    """Runs of 1, 2, 3, ... backticks separated by spaces (no run closes another), at
    least ``n`` characters, in one paragraph."""
    parts: list[str] = []
    size = 0
    k = 1
    while size < n:
        parts.append("`" * k)
        size += k + 1
        k += 1
    return "Runs: " + " ".join(parts) + FENCED_TAIL


def backtick_fence_line(n: int) -> str:
    """A fence opener of ``n`` backticks, one code line, and a closer of ``n``."""
    return "`" * n + "\ncode\n" + "`" * n + "\n" + FENCED_TAIL


def tilde_fence_line(n: int) -> str:
    """A fence opener of ``n`` tildes, one code line, and a closer of ``n``."""
    return "~" * n + "\ncode\n" + "~" * n + "\n" + FENCED_TAIL


def backtick_inline_run(n: int) -> str:
    """One run of ``n`` backticks inside a paragraph line, never closed."""
    return "Odd text " + "`" * n + " here" + FENCED_TAIL


def unclosed_tags(n: int) -> str:
    """``n`` opening ``<questionnaire>`` tags with no closer anywhere, ten a line."""
    line = " ".join(["<questionnaire>"] * 10) + "\n"
    return _INTRO + line * (n // 10) + FENCED_TAIL


def unclosed_tags_with_attributes(n: int) -> str:
    """``n`` opening tags with an attribute (never openers: §3a), ten a line."""
    line = " ".join(['<questionnaire id="x">'] * 10) + "\n"
    return _INTRO + line * (n // 10) + FENCED_TAIL


def tag_prefixes(n: int) -> str:
    """``n`` copies of ``<questionnaire `` (a tag start that never ends), one line."""
    return _INTRO + "<questionnaire " * n + FENCED_TAIL


def quoted_fence_openers(n: int) -> str:
    """``n`` candidate-looking fence openers, each in its own block quote (so each is a
    code block that its container closes, with a near-miss warning)."""
    return _INTRO + "> ```questionnaire\n\n" * n + FENCED_TAIL.lstrip("\n")


def fence_openers_in_candidate(n: int) -> str:
    """A fenced candidate whose payload is ``n`` fence-opener lines, then a closer."""
    return _INTRO + "```questionnaire\n" + "```questionnaire\n" * n + "```\n" + FENCED_TAIL


def fence_openers_in_html_block(n: int) -> str:
    """``n`` fence-opener lines inside one HTML block (raw HTML, not fences)."""
    return _INTRO + "<div>\n" + "```questionnaire\n" * n + "</div>\n" + FENCED_TAIL


def nested_block_quotes(n: int) -> str:
    """One line nested ``n`` block quotes deep."""
    return _INTRO + ">" * n + " deep\n" + FENCED_TAIL


def nested_list_markers(n: int) -> str:
    """One line opening ``n`` nested list items."""
    return _INTRO + "- " * n + "item\n" + FENCED_TAIL


def newlines(n: int) -> str:
    """``n`` line feeds, then the form."""
    return _INTRO + "\n" * n + FENCED_TAIL.lstrip("\n")


def one_line(n: int) -> str:
    """One line of ``n`` characters of prose with code spans and inline HTML."""
    unit = "Some prose with `code` and <b>bold</b> words, "
    body = (unit * (n // len(unit) + 1))[:n]
    return body + FENCED_TAIL


def deep_json_arrays(n: int) -> str:
    """A tag whose payload is arrays nested ``n`` deep (``json.too_deep``)."""
    return _INTRO + "<questionnaire>" + "[" * n + "]" * n + "</questionnaire>" + XML_TAIL


def deep_json_objects(n: int) -> str:
    """A tag whose payload is objects nested ``n`` deep (``json.too_deep``)."""
    payload = '{"a":' * n + "0" + "}" * n
    return _INTRO + "<questionnaire>" + payload + "</questionnaire>" + XML_TAIL


def yaml_alias_bomb(n: int) -> str:
    """A fenced form holding ``n`` levels of ten aliases each (a billion-laughs
    document; aliases are ``yaml.alias`` errors, §4)."""
    lines = ["a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    for i in range(1, n):
        refs = ", ".join([f"*a{i - 1}"] * 10)
        lines.append(f"a{i}: &a{i} [{refs}]")
    body = "\n".join(lines)
    return _INTRO + "```questionnaire\n" + body + "\n```\n" + FENCED_TAIL


def many_questions(n: int) -> str:
    """A fenced form with ``n`` single-choice questions (valid up to the questions
    limit; 10^4 questions stay under the default payload limit)."""
    question = (
        "  - type: single_choice\n"
        '    text: "Question {i}?"\n'
        '    options: ["A", "B"]\n'
        '    default: "A"\n'
    )
    body = "".join(question.format(i=i) for i in range(1, n + 1))
    return _INTRO + "```questionnaire\ntitle: Many\nquestions:\n" + body + "```\n" + FENCED_TAIL


def fenced_payload_lines(n: int) -> str:
    """A fenced candidate whose payload is ``n`` short lines (not a mapping)."""
    return _INTRO + "```questionnaire\n" + "x\n" * n + "```\n" + FENCED_TAIL


def code_spans_then_tags(n: int) -> str:
    """``n`` code spans, each followed by an unclosed opening tag, ten a line."""
    line = " ".join(["`span` <questionnaire>"] * 10) + "\n"
    return _INTRO + line * (n // 10) + FENCED_TAIL


def tags_inside_code_spans(n: int) -> str:
    """``n`` code spans each holding an opening tag (inert), then an XML form."""
    line = " ".join(["`<questionnaire>`"] * 10) + "\n"
    return _INTRO + line * (n // 10) + XML_TAIL


def unclosed_comments_in_html_block(n: int) -> str:
    """``n`` comment openers ``<!--`` never closed, none at the start of a line, ten a
    line inside one HTML block."""
    line = "x" + " <!-- x" * 10 + "\n"
    return _INTRO + "<div>\n" + line * (n // 10) + "</div>\n" + FENCED_TAIL


def unclosed_comments(n: int) -> str:
    """``n`` comment openers ``<!--`` never closed, ten a line, in one paragraph."""
    line = "x" + " <!-- x" * 10 + "\n"
    return _INTRO + line * (n // 10) + FENCED_TAIL


def tags_on_one_line(n: int) -> str:
    """``n`` unclosed opening tags on one long line."""
    return _INTRO + "x" + " <questionnaire> x" * n + "\n" + FENCED_TAIL


def code_spans_and_tags_on_one_line(n: int) -> str:
    """``n`` code spans each followed by an unclosed tag, all on one long line."""
    return _INTRO + "x" + " `a` <questionnaire>" * n + "\n" + FENCED_TAIL


def candidates_on_one_line(n: int) -> str:
    """``n`` complete XML+JSON blocks (empty, so invalid) side by side on one line."""
    return _INTRO + "x" + "<questionnaire>{}</questionnaire>" * n + "\n" + FENCED_TAIL


def tags_in_comment_block(n: int) -> str:
    """An HTML block of type 2 (a comment) holding ``n`` lines of opening tags with
    closers after them, all inert (§3b), then the comment's end."""
    return _INTRO + "<!--\n" + "<questionnaire>\n" * n + "-->\n</questionnaire>\n" + FENCED_TAIL


def candidates_hiding_block_ends(n: int) -> str:
    """``n`` XML+JSON blocks on one line of a ``<pre>`` HTML block, each payload holding
    the block's end condition ``</pre>`` (hidden: the block goes on, §3b), each followed
    by a comment opener."""
    unit = '<questionnaire>{"x":"</pre>"}</questionnaire> <!-- '
    return _INTRO + "<pre>\n" + unit * n + "\n-->\n</pre>\n" + FENCED_TAIL


def fence_indent_lines(n: int) -> str:
    """``n`` paragraphs, each a fence opener behind U+3000 (paragraph text, each a
    ``near_miss.fence_indent``)."""
    return _INTRO + "\u3000```questionnaire\n\n" * n + FENCED_TAIL.lstrip("\n")


def _family(build: Callable[[int], str], n: int, tail: str, *, deep: bool = False) -> Family:
    doc = " ".join((build.__doc__ or "").split())
    return Family(build.__name__, build, n, tail, doc, deep)


#: Sizes: ``n`` here, ``10 * n`` is the size issue 5 names (10^4 tags, 5000 levels,
#: 1 MB of newlines, 10^5-deep JSON ...).
FAMILIES: tuple[Family, ...] = (
    _family(backtick_runs, 20_000, "fenced"),
    _family(backtick_fence_line, 10_000, "fenced"),
    _family(tilde_fence_line, 10_000, "fenced"),
    _family(backtick_inline_run, 10_000, "fenced"),
    _family(unclosed_tags, 1_000, "fenced"),
    _family(unclosed_tags_with_attributes, 1_000, "fenced"),
    _family(tag_prefixes, 7_000, "fenced"),
    _family(quoted_fence_openers, 1_000, "fenced"),
    _family(fence_openers_in_candidate, 1_000, "fenced"),
    _family(fence_openers_in_html_block, 1_000, "fenced"),
    _family(nested_block_quotes, 500, "fenced", deep=True),
    _family(nested_list_markers, 500, "fenced", deep=True),
    _family(newlines, 100_000, "fenced"),
    _family(one_line, 100_000, "fenced"),
    _family(deep_json_arrays, 10_000, "xml"),
    _family(deep_json_objects, 10_000, "xml"),
    _family(yaml_alias_bomb, 500, "fenced"),
    _family(many_questions, 1_000, "fenced"),
    _family(fenced_payload_lines, 50_000, "fenced"),
    _family(code_spans_then_tags, 1_000, "fenced"),
    _family(tags_inside_code_spans, 1_000, "xml"),
    _family(unclosed_comments, 10_000, "fenced"),
    _family(unclosed_comments_in_html_block, 10_000, "fenced"),
    _family(tags_on_one_line, 1_000, "fenced"),
    _family(code_spans_and_tags_on_one_line, 1_000, "fenced"),
    _family(candidates_on_one_line, 1_000, "fenced"),
    _family(tags_in_comment_block, 1_000, "fenced"),
    _family(candidates_hiding_block_ends, 1_000, "fenced"),
    _family(fence_indent_lines, 1_000, "fenced"),
)

BY_NAME: dict[str, Family] = {f.name: f for f in FAMILIES}


# --- Families that take JSON input (§1 bounded output) ------------------------------
#
# Each builds the JSON text one command reads (tool arguments, an answer's actions, the
# answers for ``respond``, a conversation for ``check``) and, where the command also
# reads a message, that message. :func:`command_input` turns any family, message or
# JSON, into the files and arguments of every command, so each command meets each
# family.


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
    is the command it is made for (``tool``, ``actions``, ``respond``, ``check``)."""

    name: str
    command: str
    build: Callable[[int], JsonCase]
    n: int
    description: str


def _dumps(value: object) -> str:
    import json

    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _xml_form(form: object) -> str:
    return _INTRO + "<questionnaire>" + _dumps(form) + "</questionnaire>\n"


def tool_integers(n: int) -> JsonCase:
    """Tool arguments whose ``questions`` are ``n`` integers (each not an object)."""
    return JsonCase(_dumps({"title": "T", "questions": list(range(n))}))


def tool_option_grid(n: int) -> JsonCase:
    """Tool arguments with k questions of k distinct short options, k*k about ``n``
    (a large valid form while k is within the limits)."""
    k = max(1, int(n**0.5))
    options = [f"o{j}" for j in range(k)]
    questions = [
        {"type": "single_choice", "text": f"Q{i}", "options": options, "default": "o0"}
        for i in range(k)
    ]
    return JsonCase(_dumps({"title": "T", "questions": questions}))


def tool_bad_options(n: int) -> JsonCase:
    """Tool arguments whose questions hold ``n`` integer options in all, 900 a question."""
    questions = [
        {"type": "multi_choice", "text": f"Q{i}", "options": list(range(900))}
        for i in range(max(1, n // 900))
    ]
    return JsonCase(_dumps({"questions": questions}))


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
    return JsonCase(_dumps({"questions": questions}))


def tool_long_values(n: int) -> JsonCase:
    """Tool arguments whose single-choice default is one string of ``n`` characters that
    is no option (its value goes into the error's details once)."""
    return JsonCase(
        _dumps(
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
    return JsonCase(_dumps({"actions": [action]}))


def actions_many_invalid(n: int) -> JsonCase:
    """``n`` actions of an unknown type (each dropped)."""
    return JsonCase(_dumps({"actions": [{"id": f"a{i}", "type": "x"} for i in range(n)]}))


def actions_many_valid(n: int) -> JsonCase:
    """``n`` valid actions (8 shown, the rest over the limit) with forbidden fields for
    the lint."""
    actions = [
        {"id": f"a{i}", "type": "view.detail", "label": "Open", "url": "u"} for i in range(n)
    ]
    return JsonCase(_dumps({"answerData": {"datasets": {}, "actions": actions}}))


def _multi_form(options: list[dict[str, str]]) -> str:
    form = {
        "title": "T",
        "questions": [{"type": "multi_choice", "text": "Pick", "options": options}],
    }
    return _xml_form(form)


def respond_repeated_value(n: int) -> JsonCase:
    """A multi-choice answer repeating one value ``n`` times against a 10 KB label."""
    message = _multi_form([{"value": "a", "label": "L" * 10_000}, {"value": "b"}])
    return JsonCase(_dumps({"q1": ["a"] * n}), message)


def respond_unknown_values(n: int) -> JsonCase:
    """``n`` distinct values that are no option, against 200 options of 50 characters."""
    options = [{"value": f"{j:050d}"} for j in range(200)]
    return JsonCase(_dumps({"q1": [f"v{i}" for i in range(n)]}), _multi_form(options))


def respond_unknown_questions(n: int) -> JsonCase:
    """Answers for ``n`` question ids the form does not have."""
    message = _xml_form({"questions": [{"type": "text", "text": "Q"}]})
    return JsonCase(_dumps({f"x{i}": "a" for i in range(n)}), message)


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
    return JsonCase(_dumps(answers), _xml_form(form))


def _conversation(content: str, before: int = 0) -> str:
    messages = [
        {"role": "user" if i % 2 == 0 else "assistant", "content": f"message {i}"}
        for i in range(before)
    ]
    messages.append({"role": "assistant", "content": content})
    return _dumps(messages)


def check_repeated_problem(n: int) -> JsonCase:
    """A reply with ``n`` unclosed opening tags: one problem repeated (the repair
    instruction lists it once)."""
    content = "Here:\n" + "<questionnaire> " * n
    return JsonCase(_conversation(content), content)


def check_invalid_form(n: int) -> JsonCase:
    """A reply with a fenced form of ``n`` questions that are not mappings."""
    content = _INTRO + "```questionnaire\ntitle: T\nquestions:\n" + "  - 1\n" * n + "```\n"
    return JsonCase(_conversation(content), content)


def check_many_messages(n: int) -> JsonCase:
    """A conversation of ``n`` messages whose last reply has one near-miss."""
    content = "Here:\n\n~~~questionnaire\ntitle: T\n~~~\n"
    return JsonCase(_conversation(content, before=n), content)


def _json_family(build: Callable[[int], JsonCase], command: str, n: int) -> JsonFamily:
    doc = " ".join((build.__doc__ or "").split())
    return JsonFamily(build.__name__, command, build, n, doc)


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
)

JSON_BY_NAME: dict[str, JsonFamily] = {f.name: f for f in JSON_FAMILIES}

#: The commands :func:`command_input` builds inputs for: the ``replykit`` arguments,
#: ``{key}`` standing for the file of that key (``{message_id}`` for the message id).
COMMANDS: dict[str, tuple[str, ...]] = {
    "segment-json": ("segment", "{message}", "--message-id", "{message_id}"),
    "segment-text": ("segment", "{message}", "--format", "text"),
    "check": ("check", "{conversation}"),
    "respond": (
        "respond",
        "--message",
        "{message}",
        "--message-id",
        "{message_id}",
        "--answers",
        "{answers}",
    ),
    "tool": ("tool", "questionnaire_async", "{arguments}"),
    "actions": ("actions", "{answer}", "--lint"),
}

#: The message id the commands that take one are given (it counts as input, §1).
MESSAGE_ID = "msg-01"


@dataclass(frozen=True)
class CommandInput:
    """What one command reads for one family: ``argv`` (after ``replykit``; a
    ``{key}`` stands for the path of the file ``files[key]``), ``files`` (name -> text)
    and ``size``: the input's UTF-8 bytes, the files it reads plus the message id."""

    argv: tuple[str, ...]
    files: dict[str, str]
    size: int


def _as_case(family: Family | JsonFamily, n: int) -> tuple[str, JsonCase]:
    if isinstance(family, Family):
        text = family.build(n)
        return "message", JsonCase("", text)
    return family.command, family.build(n)


def command_input(command: str, family: Family | JsonFamily, n: int) -> CommandInput:
    """The input of ``command`` (a key of :data:`COMMANDS`) for ``family`` at size ``n``.

    A family's own command reads its case as made. Any other command reads the case
    carried the way a product would carry it: a message goes into a one-message
    conversation for ``check``, a free-text question for ``tool`` and a prompt for
    ``actions``; tool arguments become an XML+JSON block for the message commands;
    every other JSON text is read as the JSON input of the command (or as the message).
    """
    kind, case = _as_case(family, n)
    message = case.message
    if kind == "tool":
        message = _INTRO + "<questionnaire>" + case.json + "</questionnaire>\n"
    elif not message:
        message = case.json
    files: dict[str, str] = {"message": message}
    files["conversation"] = case.json if kind == "check" else _conversation(message)
    files["answers"] = case.json if kind == "respond" else "{}"
    files["arguments"] = (
        case.json
        if kind in ("tool", "respond")
        else _dumps({"questions": [{"type": "text", "text": message}]})
    )
    prompt = {"id": "a", "type": "conversation.continue", "label": "Go", "params": {}}
    prompt["params"] = {"prompt": message}
    files["answer"] = case.json if kind in ("actions", "check") else _dumps({"actions": [prompt]})
    argv = tuple(a.replace("{message_id}", MESSAGE_ID) for a in COMMANDS[command])
    used = {key: files[key] for key in files if "{" + key + "}" in argv}
    size = sum(len(text.encode("utf-8")) for text in used.values())
    if MESSAGE_ID in argv:
        size += len(MESSAGE_ID.encode("utf-8"))
    return CommandInput(argv, used, size)


def run_case(family: JsonFamily, case: JsonCase) -> object:
    """Run the library function behind ``family.command`` on ``case`` (what the
    benchmark times and the tests count): ``call_questionnaire_async`` on the decoded
    arguments; ``sanitize`` and ``lint`` on the decoded answer; ``segment`` of the
    message and ``build_response`` on its first valid form (an ``AnswersError`` is the
    result); ``self_check`` on the decoded conversation. Imports replykit lazily, so the
    generators above stay free of it."""
    import json

    from replykit.actions import lint, sanitize
    from replykit.response import AnswersError, build_response
    from replykit.segmenter import segment
    from replykit.selfcheck import self_check
    from replykit.tool import call_questionnaire_async

    data = json.loads(case.json)
    if family.command == "tool":
        return call_questionnaire_async(data)
    if family.command == "actions":
        return sanitize(data), lint(data)
    if family.command == "check":
        return self_check(data)
    forms = [s for s in segment(case.message, message_id=MESSAGE_ID).segments if s.valid]
    form = forms[0]
    assert form.questionnaire is not None and form.id is not None
    try:
        return build_response(form.questionnaire, data, questionnaire_id=form.id)
    except AnswersError as exc:
        return exc.findings
