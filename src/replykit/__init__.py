"""replykit: the reference parser of the Inline Questionnaire and answer-actions protocols.

Main entry points (offsets everywhere are code-point indices into the input ``str``):

- :func:`segment` splits an assistant message into Markdown and questionnaire
  segments (docs/protocol.md §2-§6, §8, §9); :data:`CLIENT`, :data:`SELF_CHECK` and
  :func:`product` are the profiles of §6; :class:`Compat` and :class:`Limits` its options;
  with ``checked=True`` it also parses the message with the whole grammar and raises
  :class:`ReplykitBug` if the two readings differ;
- :class:`StreamSegmenter` segments a message as it arrives in chunks (§10): each
  ``push`` returns a :class:`StreamUpdate` (committed :class:`MarkdownCommit` ranges
  and blocks, pending :class:`PendingMarkdown` / :class:`PendingBlock` items);
  ``finish()`` equals :func:`segment` of the whole text;
- :func:`code_regions` gives CommonMark's inert regions of a text (§3b);
- :func:`build_response`, :func:`initial_answers`, :func:`check_answers` build and check
  answers (§7; :class:`AnswersError` lists the answers that do not fit,
  :data:`OTHER_VALUE` is the value of the "other" choice); :func:`questionnaire_async`
  (:func:`call_questionnaire_async` for a whole decoded arguments value),
  :func:`questionnaire_from_tool_result` and :func:`tool_schema` are the tool-call
  variant (§7; a result opens a :class:`ToolForm` or gives :class:`ToolError` entries);
  :func:`questionnaire_async_json` and :func:`build_response_json` take JSON text and
  read it strictly (§1); :func:`form_schema` and :func:`response_schema` are the JSON
  Schemas of the XML+JSON payloads (§5);
- :func:`self_check` and :func:`can_submit` are §8 and §11;
- :mod:`replykit.actions` is the answer-actions protocol (seed 004, §12);
- :func:`build_info` tells the pure-Python build from the compiled one (§1.2);
- :class:`Diagnostic` and :class:`Finding` report problems; :class:`LeftOut` counts
  what the diagnostics cap left out (§1);
- :mod:`replykit.fuzz` fuzzes other implementations (``replykit[fuzz]`` extra);
  :mod:`replykit.testing` holds the strategies, hostile inputs and invariant fuzzer.

Importing ``replykit`` loads neither the answer-actions package, the command line, the
fuzzer nor Hypothesis.
"""

from replykit.build import BuildInfo, build_info
from replykit.diagnostics import Diagnostic, Finding, LeftOut, format_path
from replykit.questionnaire.compat import SAGE, Compat
from replykit.questionnaire.conversation.responses import (
    OTHER_VALUE,
    AnswersError,
    BuiltResponse,
    build_response,
    build_response_json,
    check_answers,
    initial_answers,
)
from replykit.questionnaire.conversation.schemas import form_schema, response_schema
from replykit.questionnaire.conversation.selfcheck import SelfCheckResult, can_submit, self_check
from replykit.questionnaire.conversation.tool import (
    ToolError,
    ToolForm,
    call_questionnaire_async,
    questionnaire_async,
    questionnaire_from_tool_result,
    tool_schema,
)
from replykit.questionnaire.conversation.tool_text import questionnaire_async_json
from replykit.questionnaire.limits import Limits
from replykit.questionnaire.model import (
    Answer,
    Option,
    Question,
    Questionnaire,
    Response,
    Segment,
    Segmentation,
)
from replykit.questionnaire.profiles import (
    CLIENT,
    SELF_CHECK,
    Profile,
    product,
    profile_from_string,
)
from replykit.questionnaire.scan.emit import ReplykitBug
from replykit.questionnaire.segmentation.regions import CodeRegion, code_regions
from replykit.questionnaire.segmentation.segmenter import segment
from replykit.questionnaire.segmentation.stream import StreamSegmenter
from replykit.questionnaire.segmentation.stream_shapes import (
    MarkdownCommit,
    PendingBlock,
    PendingMarkdown,
    StreamUpdate,
)

__all__ = [
    "CLIENT",
    "OTHER_VALUE",
    "SAGE",
    "SELF_CHECK",
    "Answer",
    "AnswersError",
    "BuildInfo",
    "BuiltResponse",
    "CodeRegion",
    "Compat",
    "Diagnostic",
    "Finding",
    "LeftOut",
    "Limits",
    "MarkdownCommit",
    "Option",
    "PendingBlock",
    "PendingMarkdown",
    "Profile",
    "Question",
    "Questionnaire",
    "ReplykitBug",
    "Response",
    "Segment",
    "Segmentation",
    "SelfCheckResult",
    "StreamSegmenter",
    "StreamUpdate",
    "ToolError",
    "ToolForm",
    "build_info",
    "build_response",
    "build_response_json",
    "call_questionnaire_async",
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
