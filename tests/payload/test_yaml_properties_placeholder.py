"""A YAML scalar with an anchor or a tag reads as a placeholder, as an alias node does
(docs/protocol.md §4.1): one diagnostic, the property's; its value is neither built
nor judged nor compared; as a key it stands for no known key."""

from __future__ import annotations

import pytest

from replykit import segment

HEAD = "Intro\n\n```questionnaire\n"


def _codes(body: str, checked: bool = False) -> list[tuple[str, str | None]]:
    return [(d.code, d.path) for d in segment(HEAD + body + "```\n", checked=checked).diagnostics]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        # the tag would make it the string "5": no "YAML reads 5 as an integer"
        ('title: !!str 5\nquestions:\n  - type: free_text\n    text: Q\n    default: ""\n',
         [("yaml.tag", "title")]),
        ('title: &t 5\nquestions:\n  - type: free_text\n    text: Q\n    default: ""\n',
         [("yaml.alias", "title")]),
        # its value is not read: no number_too_large beside the tag
        ("title: !!str " + "9" * 4301 + '\nquestions:\n  - type: free_text\n    text: Q\n'
         '    default: ""\n', [("yaml.tag", "title")]),
        # not compared: the default is not judged against an option that is a placeholder
        ("title: T\nquestions:\n  - type: single_choice\n    text: Q\n    options: [&a x]\n"
         "    default: y\n", [("yaml.alias", "questions[1].options[1]")]),
        ("title: T\nquestions:\n  - type: multi_choice\n    text: Q\n    options: [a]\n"
         "    default: [&d a, a]\n", [("yaml.alias", "questions[1].default[1]")]),
        # as a key: no known key, the entry dropped and its mapping not judged
        ("title: T\nquestions:\n  - type: single_choice\n    text: Q\n    options: [a, b]\n"
         "    &o options: [c]\n    default: b\n", [("yaml.alias", "questions[1]")]),
        ('!!str 1: x\ntitle: T\nquestions:\n  - type: free_text\n    text: Q\n    default: ""\n',
         [("yaml.tag", None)]),
    ],
)  # fmt: skip
def test_a_scalar_with_properties_is_one_diagnostic(
    body: str, expected: list[tuple[str, str | None]]
) -> None:
    assert _codes(body) == _codes(body, checked=True) == expected


def test_a_root_scalar_with_a_tag_is_still_no_mapping() -> None:
    assert _codes("!!str hello\n") == [("yaml.tag", None), ("yaml.root_not_mapping", None)]


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        # a default is not judged against options one of which is unknown
        ("title: T\nquestions:\n  - type: single_choice\n    text: Q\n"
         "    options: [x, !!str y]\n    default: y\n", [("yaml.tag", "questions[1].options[2]")]),
        ("title: T\nquestions:\n  - type: multi_choice\n    text: Q\n"
         "    options: [x, &a y]\n    default: [y]\n", [("yaml.alias", "questions[1].options[2]")]),
        # a placeholder key drops its entry; the rest of its mapping is judged
        ('title: {!!str 5: y}\nquestions:\n  - type: free_text\n    text: Q\n    default: ""\n',
         [("form.title_invalid", "title"), ("yaml.tag", "title")]),
        ("&k foo: 1\ntitle: T\nquestions:\n  - type: free_text\n    text: Q\n    default: 5\n",
         [("yaml.alias", None), ("question.default_invalid", "questions[1].default")]),
        # two alias keys are no duplicate keys (each is a placeholder of its own)
        ('a: &a x\n*a : b\n*a : c\nquestions:\n  - type: free_text\n    text: Q\n    default: ""\n',
         # (no title_required: an alias key may have been "title")
         [("form.unknown_field", "a"), ("yaml.alias", "a"), ("yaml.alias", None),
          ("yaml.alias", None)]),
    ],
)  # fmt: skip
def test_a_placeholder_is_never_compared_and_a_key_drops_only_its_entry(
    body: str, expected: list[tuple[str, str | None]]
) -> None:
    assert _codes(body) == expected


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        # a placeholder in a dropped duplicate value: the kept value is judged, no crash
        ("title: T\nquestions:\n  - type: single_choice\n    text: Q\n    options: [x]\n"
         "    default: z\n    options: [*a]\n",
         [("question.default_not_in_options", "questions[1].default"),
          ("yaml.duplicate_key", "questions[1].options"),
          ("yaml.alias", "questions[1].options[1]")]),
        ('title: 5\ntitle: *a\nquestions:\n  - type: free_text\n    text: Q\n    default: ""\n',
         [("form.title_invalid", "title"), ("yaml.duplicate_key", "title"),
          ("yaml.alias", "title")]),
        # one level down: a placeholder anywhere under the options
        ("title: T\nquestions:\n  - type: single_choice\n    text: Q\n"
         "    options: [x, {value: &a y}]\n    default: y\n",
         [("question.option_invalid", "questions[1].options[2]"),
          ("yaml.alias", "questions[1].options[2].value")]),
        # a placeholder key may have been any key: no key is reported missing
        ('!!str title: T\nquestions:\n  - type: free_text\n    text: Q\n    default: ""\n',
         [("yaml.tag", None)]),
        ("title: T\nquestions:\n  - &q type: free_text\n    text: Q\n    default: 5\n",
         [("yaml.alias", "questions[1]"), ("question.default_invalid", "questions[1].default")]),
    ],
)  # fmt: skip
def test_a_dropped_or_unknown_key_keeps_every_other_judgement(
    body: str, expected: list[tuple[str, str | None]]
) -> None:
    assert _codes(body) == _codes(body, checked=True) == expected
