"""Hypothesis strategies for the Inline Questionnaire and answer-actions protocols.

Public and documented so that other test suites (and ``replykit fuzz``) can draw the
same inputs replykit tests itself with. Needs Hypothesis: install the
``replykit[fuzz]`` extra. Every strategy draws plain Python values that map one to one
onto JSON: ``str`` messages, ``dict``/``list`` tool arguments and answers. Offsets never
appear here; where a value is text it is a ``str`` of code points. Rules are the
sections of docs/protocol.md.

Messages (§1-§8, seed 000):

- :func:`prose` / :func:`markdown`: Markdown without protocol blocks (prose, headings,
  lists, block quotes, code spans, fenced and indented code, HTML blocks and comments,
  some mentioning the family name ``questionnaire`` as an example);
- :func:`form_dicts`: valid forms in the strict fenced shape (seed "fenced YAML 字段");
  :func:`form_yaml` writes one as YAML, :func:`yaml_quote` quotes one scalar;
- :func:`fenced_blocks`: fenced YAML blocks, valid and near-miss (tilde, two backticks,
  case, extra words, short or missing closer, indentation, YAML 1.1 traps, JSON
  payloads, duplicate keys, aliases, tags);
- :func:`xml_blocks`: XML+JSON requests and responses, valid and near-miss (attributes,
  mismatched or missing closer, unregistered names, NaN, duplicate keys, smart quotes);
- :func:`hostile_payloads`: deep nesting, long runs of backticks, many tags, alias
  bombs, huge numbers (bounded in size so that one example stays well under 10 KB);
- :func:`inert_messages`: lines probing where inert regions end (§3b): HTML comments,
  the seven HTML block types and unclosed tags holding tag-like and fence-like text
  across lines, in containers, with short candidates among them;
- :func:`messages`: whole messages mixing all of the above, in containers and inert
  regions too, with ``\\n``, ``\\r\\n`` or lone ``\\r`` line endings and an optional BOM;
- :func:`segment_requests`: ``{"text", "message_id", "profile"}`` (profile strings as
  the CLI spells them, :data:`PROFILES`).

Tool and actions inputs:

- :func:`tool_arguments`: ``questionnaire_async`` arguments (§7), valid (aliases,
  ``{value, label}`` options, generated ids) and invalid;
- :func:`action_lists` / :func:`answers`: answer-actions inputs (seed 004, §12) near
  every limit, with astral characters (one code point, two UTF-16 units), duplicates,
  unknown fields and junk.

Fault families (docs/fuzzing.md, "Fault families"): clean valid inputs with exactly
one construct a client is known to get wrong, one strategy per family of
:data:`replykit.fuzz.families.FAMILIES`, in :mod:`replykit.testing.strategies.families`:

- ``FAMILY_STRATEGIES``: each family's strategy by name (modules ``transport``:
  entities, JSON-string messages, ``<\\/name>``, lone CR, astral characters;
  ``blocks``: code spans, escaped backticks, HTML blocks and comments, 4-space lines,
  tabs, containers, dedent, short closers; ``names``: case, attributes, unregistered
  names, the preface; ``damaged``: one field of a valid form changed; ``tool``: one
  §7 rule; ``actions``: url, duplicate id, UTF-16 lengths);
- ``family_messages``, ``family_arguments``, ``family_answers``: every
  family of one operation, equally often; :func:`segment_requests`,
  :func:`tool_arguments` and :func:`answers` draw from them half the time.

The fuzzer's requests and hand-written examples are in :mod:`replykit.fuzz`
(:func:`replykit.fuzz.generate.requests`, :func:`replykit.fuzz.examples.explicit_examples`).
"""

from __future__ import annotations

from replykit.testing.strategies._common import PROFILES
from replykit.testing.strategies.actions import action_lists, actions, answers
from replykit.testing.strategies.forms import fenced_blocks, form_dicts, form_yaml, yaml_quote
from replykit.testing.strategies.markdown import inert_messages, markdown, prose
from replykit.testing.strategies.messages import hostile_payloads, messages, segment_requests
from replykit.testing.strategies.tool import tool_arguments
from replykit.testing.strategies.xml import xml_blocks

__all__ = [
    "PROFILES",
    "action_lists",
    "actions",
    "answers",
    "fenced_blocks",
    "form_dicts",
    "form_yaml",
    "hostile_payloads",
    "inert_messages",
    "markdown",
    "messages",
    "prose",
    "segment_requests",
    "tool_arguments",
    "xml_blocks",
    "yaml_quote",
]
