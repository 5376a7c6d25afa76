"""The rules behind replykit's decisions, as tags (``§4``, ``§4 preface``).

Each :class:`~replykit.codes.Rule` is a section of docs/protocol.md and names where it
is stated in full: a subsection of that same section (``§4 preface`` in ``§4.3``), or,
for §7 and §12, the section of docs/protocol-responses.md or docs/actions.md that
§7/§12 point to. Every code of the registry points at one, and the fuzzer reports
a disagreement under the rule of replykit's answer (docs/fuzzing.md).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from replykit.codes._core import Rule

TEXT_UNITS: Final[Rule] = Rule(
    "§1", "protocol", "§1", "text units: offsets, lines, blank, strict JSON"
)
LIMITS: Final[Rule] = Rule("§1 limits", "protocol", "§1.5", "limits on payloads and lists")
SEGMENTS: Final[Rule] = Rule("§2", "protocol", "§2", "segments and their order")
CAP: Final[Rule] = Rule("§2 cap", "protocol", "§2.1", "the diagnostics cap")
CANDIDATES: Final[Rule] = Rule("§3a", "protocol", "§3a", "what is a candidate block")
CLOSER: Final[Rule] = Rule(
    "§3a closer", "protocol", "§3a", "a closing fence at least as long as the opener"
)
INERT: Final[Rule] = Rule("§3b", "protocol", "§3b", "inert regions: code stays code")
TOP_LEVEL: Final[Rule] = Rule("§3c", "protocol", "§3c", "fences at the top level only")
YAML: Final[Rule] = Rule("§4", "protocol", "§4.1", "fenced YAML read as YAML 1.2")
YAML_PAYLOAD: Final[Rule] = Rule(
    "§4 payload", "protocol", "§4.1", "one block-YAML document, no nested fence"
)
FIELDS: Final[Rule] = Rule("§4 fields", "protocol", "§4.2", "the strict field table of fenced YAML")
PREFACE: Final[Rule] = Rule("§4 preface", "protocol", "§4.3", "prose before a fenced form")
XML_JSON: Final[Rule] = Rule("§5", "protocol", "§5", "XML+JSON payloads, strict JSON")
PROFILES: Final[Rule] = Rule("§6", "protocol", "§6", "profiles, registered names and ids")
TOOL: Final[Rule] = Rule("§7", "responses", "2", "questionnaire_async and its normalizer")
TOOL_RESULT: Final[Rule] = Rule(
    "§7 tool_result", "responses", "2.1", "opening a form from a tool result"
)
RESPONSE: Final[Rule] = Rule("§7 response", "responses", "1", "the response payload")
ANSWERS: Final[Rule] = Rule("§7 answers", "responses", "1.2", "answers and their checks")
NEAR_MISS: Final[Rule] = Rule("§8", "protocol", "§8.1", "near-misses")
SELF_CHECK: Final[Rule] = Rule("§8 self_check", "responses", "3", "Self-check of the latest reply")
COMPAT: Final[Rule] = Rule("§9", "protocol", "§9", "Sage compatibility")
ACTIONS: Final[Rule] = Rule("§12", "actions", "2", "answer actions: what is kept")
ACTIONS_LIMITS: Final[Rule] = Rule("§12 limits", "actions", "4", "answer actions: limits and codes")
LINT: Final[Rule] = Rule("§12 lint", "actions", "9", "producer lint")

#: Every rule, by tag.
RULES: Final[Mapping[str, Rule]] = MappingProxyType(
    {
        r.tag: r
        for r in (
            TEXT_UNITS,
            LIMITS,
            SEGMENTS,
            CAP,
            CANDIDATES,
            CLOSER,
            INERT,
            TOP_LEVEL,
            YAML,
            YAML_PAYLOAD,
            FIELDS,
            PREFACE,
            XML_JSON,
            PROFILES,
            TOOL,
            TOOL_RESULT,
            RESPONSE,
            ANSWERS,
            NEAR_MISS,
            SELF_CHECK,
            COMPAT,
            ACTIONS,
            ACTIONS_LIMITS,
            LINT,
        )
    }
)
