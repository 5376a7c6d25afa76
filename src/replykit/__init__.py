"""replykit: the reference parser of the Inline Questionnaire and answer-actions protocols.

Main entry points (offsets everywhere are code-point indices into the input ``str``):

- :func:`segment` splits an assistant message into Markdown and questionnaire
  segments (PROTOCOL-DECISIONS §2-§6, §8, §9); :data:`CLIENT`, :data:`SELF_CHECK` and
  :func:`product` are the profiles of §6; :class:`Compat` and :class:`Limits` its options;
- :func:`code_regions` gives CommonMark's inert regions of a text (§3b);
- :func:`build_response`, :func:`initial_answers`, :func:`check_answers` build and check
  answers (§7); :func:`questionnaire_async`, :func:`questionnaire_from_tool_result` and
  :func:`tool_schema` are the tool-call variant (§7); :func:`questionnaire_async_json`
  and :func:`build_response_json` take JSON text and read it strictly (§1);
  :func:`form_schema` and :func:`response_schema` are the JSON Schemas of the XML+JSON
  payloads (§5);
- :func:`self_check` and :func:`can_submit` are §8 and §11;
- :mod:`replykit.actions` is the answer-actions protocol (seed 004, §12);
- :mod:`replykit.strategies` and :mod:`replykit.fuzz` fuzz other implementations.
"""

from replykit.compat import SAGE, Compat
from replykit.diagnostics import Diagnostic, Finding, format_path
from replykit.limits import Limits
from replykit.model import (
    Answer,
    Option,
    Question,
    Questionnaire,
    Response,
    Segment,
    Segmentation,
)
from replykit.profiles import CLIENT, SELF_CHECK, Profile, product, profile_from_string
from replykit.regions import CodeRegion, code_regions
from replykit.response import (
    BuiltResponse,
    build_response,
    build_response_json,
    check_answers,
    initial_answers,
)
from replykit.schemas import form_schema, response_schema
from replykit.segmenter import segment
from replykit.selfcheck import SelfCheckResult, can_submit, self_check
from replykit.tool import (
    questionnaire_async,
    questionnaire_async_json,
    questionnaire_from_tool_result,
    tool_schema,
)

__all__ = [
    "CLIENT",
    "SAGE",
    "SELF_CHECK",
    "Answer",
    "BuiltResponse",
    "CodeRegion",
    "Compat",
    "Diagnostic",
    "Finding",
    "Limits",
    "Option",
    "Profile",
    "Question",
    "Questionnaire",
    "Response",
    "Segment",
    "Segmentation",
    "SelfCheckResult",
    "build_response",
    "build_response_json",
    "can_submit",
    "check_answers",
    "code_regions",
    "form_schema",
    "format_path",
    "initial_answers",
    "product",
    "profile_from_string",
    "questionnaire_async",
    "questionnaire_async_json",
    "questionnaire_from_tool_result",
    "response_schema",
    "segment",
    "self_check",
    "tool_schema",
]
__version__ = "0.1.0"
