"""Every action message is one lower-case sentence and every limit names its unit
(docs/actions.md section 4)."""

from __future__ import annotations

import re

from replykit.actions import lint, sanitize
from replykit.codes import CODES


def test_messages_of_the_removal_rules_name_the_unit() -> None:
    result = sanitize({"actions": [{"id": "a", "type": "view.detail", "label": "L",
                                    "title": "t" * 81, "description": "d" * 241}, 5]})  # fmt: skip
    assert [d.message for d in result.diagnostics] == [
        "title must be a non-blank string of at most 80 characters; the field is removed.",
        "description must be a non-blank string of at most 240 characters; the field is removed.",
        "an action must be an object, not number; the action is dropped.",
    ]


def test_every_action_template_is_lower_case_and_every_limit_has_a_unit() -> None:
    for name, code in CODES.items():
        if not name.startswith(("action.", "actions.", "lint.")):
            continue
        for template in code.en.values():
            assert template[:1] == template[:1].lower() or template.startswith("{"), name
            # "{limit}" alone is a bare number: "{limit|character}" says what it counts.
            assert re.search(r"at most \{limit\}", template) is None, name
    assert lint(5)[0].message[:1].islower()
