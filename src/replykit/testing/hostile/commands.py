"""Every command's input for every hostile family, and the library call behind each.

:func:`command_input` turns any family, message or JSON, into the files and arguments
of every command, so each command meets each family; :func:`run_case` runs the library
function behind a JSON family's command.
"""

from __future__ import annotations

from dataclasses import dataclass

from replykit.testing.hostile.json_families import (
    JsonCase,
    JsonFamily,
    compact_json,
    conversation_json,
)
from replykit.testing.hostile.messages import INTRO, Family

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
        message = INTRO + "<questionnaire>" + case.json + "</questionnaire>\n"
    elif not message:
        message = case.json
    files: dict[str, str] = {"message": message}
    files["conversation"] = case.json if kind == "check" else conversation_json(message)
    files["answers"] = case.json if kind == "respond" else "{}"
    files["arguments"] = (
        case.json
        if kind in ("tool", "respond")
        else compact_json({"questions": [{"type": "text", "text": message}]})
    )
    prompt = {"id": "a", "type": "conversation.continue", "label": "Go", "params": {}}
    prompt["params"] = {"prompt": message}
    files["answer"] = (
        case.json if kind in ("actions", "check") else compact_json({"actions": [prompt]})
    )
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
    result); ``self_check`` on each conversation of the text (JSON Lines too). Imports
    replykit lazily, so the generators above stay free of it."""
    import json

    from replykit.actions import lint, sanitize
    from replykit.questionnaire.conversation.responses import AnswersError, build_response
    from replykit.questionnaire.conversation.selfcheck import self_check
    from replykit.questionnaire.conversation.stored import read_conversations
    from replykit.questionnaire.conversation.tool import call_questionnaire_async
    from replykit.questionnaire.segmentation.segmenter import segment

    if family.command == "check":
        return [self_check(stored.value) for stored in read_conversations(case.json)]
    data = json.loads(case.json)
    if family.command == "tool":
        return call_questionnaire_async(data)
    if family.command == "actions":
        return sanitize(data), lint(data)
    forms = [s for s in segment(case.message, message_id=MESSAGE_ID).segments if s.valid]
    form = forms[0]
    assert form.questionnaire is not None and form.id is not None
    try:
        return build_response(form.questionnaire, data, questionnaire_id=form.id)
    except AnswersError as exc:
        return exc.findings
