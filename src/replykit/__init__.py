"""replykit: the reference parser of the Inline Questionnaire and answer-actions protocols.

Main entry points (offsets everywhere are code-point indices into the input ``str``):

- :func:`segment` splits an assistant message into Markdown and questionnaire
  segments (PROTOCOL-DECISIONS §2-§6, §8);
- :data:`CLIENT`, :data:`SELF_CHECK`, :func:`product` are the profiles of §6;
- :mod:`replykit.actions` is the answer-actions protocol (seed 004, §12).
"""

from replykit.diagnostics import Diagnostic, Finding, format_path
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
from replykit.segmenter import segment

__all__ = [
    "CLIENT",
    "SELF_CHECK",
    "Answer",
    "Diagnostic",
    "Finding",
    "Option",
    "Profile",
    "Question",
    "Questionnaire",
    "Response",
    "Segment",
    "Segmentation",
    "format_path",
    "product",
    "profile_from_string",
    "segment",
]
__version__ = "0.1.0"
