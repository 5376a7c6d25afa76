"""One strategy per fault family of :mod:`replykit.fuzz.families` (docs/fuzzing.md).

:data:`FAMILY_STRATEGIES` maps each family name to a strategy drawing the part of a
request that carries it: a message ``str`` for ``segment`` families, the
``arguments`` value for ``questionnaire_async``, the ``answer`` value for
``sanitize_actions``. :func:`family_messages`, :func:`family_arguments` and
:func:`family_answers` draw from every family of one operation, each family equally
often; :func:`~replykit.testing.strategies.segment_requests`,
:func:`~replykit.testing.strategies.tool_arguments` and
:func:`~replykit.testing.strategies.answers` draw from them half the time, so the
fuzzer reaches each family within a few hundred requests.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Any, Final

from hypothesis import strategies as st

from replykit.fuzz.families import FAMILIES
from replykit.fuzz.ops import Op
from replykit.testing.strategies import blocks, damaged, names, transport
from replykit.testing.strategies.actions import (
    duplicate_id_answers,
    url_answers,
    utf16_label_answers,
)
from replykit.testing.strategies.tool import tool_one_rule

#: Each family's strategy, by family name.
FAMILY_STRATEGIES: Final[Mapping[str, st.SearchStrategy[Any]]] = MappingProxyType(
    {
        "html-entities": transport.entity_messages(),
        "json-string-message": transport.json_string_messages(),
        "escaped-closer": transport.escaped_closer_messages(),
        "lone-cr": transport.lone_cr_messages(),
        "astral-offsets": transport.astral_messages(),
        "utf16-lengths": transport.utf16_length_messages(),
        "code-span-blank-line": blocks.code_span_blank_line_messages(),
        "escaped-backtick": blocks.escaped_backtick_messages(),
        "html-block": blocks.html_block_messages(),
        "html-comment": blocks.html_comment_messages(),
        "four-space-continuation": blocks.four_space_messages(),
        "tab-before-fence": blocks.tab_fence_messages(),
        "fence-in-container": blocks.container_fence_messages(),
        "fence-dedent": blocks.dedent_messages(),
        "short-closer": blocks.short_closer_messages(),
        "name-case": names.name_case_messages(),
        "tag-attributes": names.attribute_messages(),
        "unregistered-name": names.unregistered_messages(),
        "invisible-preface": names.invisible_preface_messages(),
        "no-preface": names.no_preface_messages(),
        "curly-quote": damaged.curly_quote_messages(),
        "json-string-payload": damaged.json_string_payload_messages(),
        "one-bad-question": damaged.one_bad_question_messages(),
        "yaml-alias": damaged.yaml_alias_messages(),
        "yaml11-scalar": damaged.yaml11_messages(),
        "tool-one-rule": tool_one_rule(),
        "action-url": url_answers(),
        "action-duplicate-id": duplicate_id_answers(),
        "action-label-utf16": utf16_label_answers(),
    }
)


def _of(op: Op) -> st.SearchStrategy[Any]:
    return st.one_of(*(FAMILY_STRATEGIES[f.name] for f in FAMILIES if f.op == op))


def family_messages() -> st.SearchStrategy[str]:
    """A message of one ``segment`` family, each family equally often."""
    return _of("segment")


def family_arguments() -> st.SearchStrategy[Any]:
    """``questionnaire_async`` arguments of one family (§7)."""
    return _of("questionnaire_async")


def family_answers() -> st.SearchStrategy[Any]:
    """A ``sanitize_actions`` answer of one family (§12), each equally often."""
    return _of("sanitize_actions")


__all__ = ["FAMILY_STRATEGIES", "family_answers", "family_arguments", "family_messages"]
