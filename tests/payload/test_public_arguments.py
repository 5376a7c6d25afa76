"""The payload package's public readers check their arguments as every function of
``replykit`` does (docs: the package docstring): a wrong type is a ``TypeError`` naming
the argument, a limit below its range or a name of no family tag a ``ValueError``."""

from __future__ import annotations

from typing import Any

import pytest

from replykit.questionnaire import payload
from replykit.questionnaire.payload import (
    normalize_form,
    read_fenced_form,
    read_json,
    read_json_value,
    read_xml_request,
    read_xml_response,
    read_yaml,
    response_type,
)

WRONG_TYPES: list[tuple[Any, tuple[Any, ...], dict[str, Any], str]] = [
    (read_xml_response, ("{}", None), {}, "name"),
    (read_xml_response, (None, "questionnaire-response"), {}, "payload"),
    (read_json, (5,), {}, "payload"),
    (read_json_value, (b"{}",), {}, "text"),
    (read_xml_request, (None,), {}, "payload"),
    (response_type, (None,), {}, "name"),
    (read_yaml, ("a: [\n",), {"max_findings": "x"}, "max_findings"),
    (read_yaml, ("a: 1\n",), {"max_findings": "x"}, "max_findings"),  # no finding: still checked
    (read_fenced_form, ("title: T\n",), {"fence_length": b"x"}, "fence_length"),
    (normalize_form, ({},), {"allow_extras": True, "limits": None}, "limits"),
    (normalize_form, ({},), {"allow_extras": "no"}, "allow_extras"),
]


@pytest.mark.parametrize(("reader", "args", "kwargs", "name"), WRONG_TYPES)
def test_a_wrong_type_is_named(reader: Any, args: Any, kwargs: Any, name: str) -> None:
    with pytest.raises(TypeError, match=f"argument '{name}' must be"):
        reader(*args, **kwargs)


@pytest.mark.parametrize(
    ("reader", "args", "kwargs", "message"),
    [
        (read_yaml, ("a: 1\n",), {"max_depth": -1}, "max_depth must be at least 1, not -1"),
        (read_yaml, ("a: 1\n",), {"max_findings": 0}, "max_findings must be at least 1, not 0"),
        (read_json, ("{}",), {"max_depth": 0}, "max_depth must be at least 1, not 0"),
        (read_fenced_form, ("title: T\n",), {"fence_length": 2}, "fence_length must be at least 3"),
        (read_xml_response, ("{}", "bogus"), {}, "name 'bogus' is no tag name"),
        (response_type, ("bogus",), {}, "name 'bogus' is no tag name"),
    ],
)
def test_a_value_out_of_range_is_a_value_error(
    reader: Any, args: Any, kwargs: Any, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        reader(*args, **kwargs)


def test_right_arguments_read_as_before() -> None:
    assert response_type("sage-questionnaire") == "sage_questionnaire_response"
    assert read_yaml("a: 1\n", max_depth=1).value == {"a": 1}
    assert read_json('{"a": 1}').value == {"a": 1}
    for reader in (read_yaml, read_json, read_fenced_form, read_xml_response, response_type):
        doc = reader.__doc__ or ""
        assert "checks its\n    arguments first" in doc and len(doc.split("\n")[0]) > 20


def test_items_of_list_arguments_are_checked() -> None:
    with pytest.raises(TypeError, match="argument 'quiet' item 0 must be a pair of int offsets"):
        read_yaml("a: 1\n", quiet=[("a", "b")])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="argument 'findings' item 0 must be a Finding"):
        payload.place([1], {})  # type: ignore[list-item]
    assert read_yaml("a: 1\n", quiet=[(0, 1)]).value == {"a": 1}


def test_a_name_is_taken_in_lower_case_only() -> None:
    # segment() gives block names in lower case (§9 reads tags in any case, then lowers).
    for name in ("Questionnaire-response", "QUESTIONNAIRE", "questionnaire-RESPONSE"):
        with pytest.raises(ValueError, match="in lower case"):
            response_type(name)
