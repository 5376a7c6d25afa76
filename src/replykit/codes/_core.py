"""The types of the diagnostic-code registry: :class:`Rule` and :class:`Code`.

A :class:`Code` is everything replykit says about one diagnostic code: its severity,
the rule behind it (a :class:`Rule`, a ``docs/protocol.md`` section tag), its message
templates per locale and variant, what it means and the example the docs give. A
finding records its code, the parameters and the variant it used; every locale's
message is a rendering of that record (:meth:`Code.render`).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping, MutableMapping
from types import MappingProxyType
from typing import Any, Final, Literal

import attrs

from replykit.diagnostics import Finding, Path, Severity
from replykit.frozen import FrozenDict, freeze_mapping
from replykit.jsonout import escape_lone, shown_text

Locale = Literal["zh", "en"]
Doc = Literal["protocol", "responses", "actions"]

#: The docs file of each table a code is listed in.
DOC_FILES: Final[Mapping[Doc, str]] = MappingProxyType(
    {
        "protocol": "docs/protocol.md",
        "responses": "docs/protocol-responses.md",
        "actions": "docs/actions.md",
    }
)

_NAME = re.compile(r"[a-z_]+(?:\.[a-z_]+)+")
_TAG = re.compile(r"(§\d+[a-z]?)(?: [a-z_]+)?")
_PROTOCOL_SECTION = re.compile(r"§\d+(?:[a-z]|\.\d+)?")
_OWN_SECTION = re.compile(r"\d+(?:\.\d+)?")

#: The sections of docs/protocol.md that point to another file for the full rule.
_POINTERS: Final[Mapping[Doc, frozenset[str]]] = MappingProxyType(
    {"responses": frozenset({"§7", "§8", "§11"}), "actions": frozenset({"§12"})}
)


def _check_section(rule: Rule, attribute: attrs.Attribute[Any], value: str) -> None:
    number = rule.number
    if rule.doc == "protocol":
        if not _PROTOCOL_SECTION.fullmatch(value) or not (
            value == number or value.startswith(number + ".")
        ):
            raise ValueError(f"{rule.tag}: section {value!r} is not {number} or a part of it")
    elif not _OWN_SECTION.fullmatch(value) or number not in _POINTERS[rule.doc]:
        raise ValueError(f"{rule.tag}: {DOC_FILES[rule.doc]} section {value!r} is not its rule")


@attrs.frozen
class Rule:
    """A rule of the protocols, as a tag the fuzzer reports and the docs resolve.

    ``tag``: ``§N``, section N of docs/protocol.md, optionally with its part letter and
    a sub-rule word: ``§3a``, ``§4 preface``. ``doc``/``section``: where the rule is
    stated in full, in one numbering with the tag: for ``doc="protocol"`` the tag's
    own section or a subsection of it (``"§4.3"`` for ``§4 preface``); for a rule that
    docs/protocol.md §7, §8, §11 or §12 hands on to docs/protocol-responses.md
    (``"responses"``) or docs/actions.md (``"actions"``), that file's own numbered
    heading (``"2.1"``). ``title``: what the rule is about, for the fuzzing docs.
    Raises ``ValueError`` for a malformed tag or a section outside the tag's rule.
    """

    tag: str = attrs.field(validator=attrs.validators.matches_re(_TAG))
    doc: Doc
    section: str = attrs.field(validator=_check_section)
    title: str

    @property
    def number(self) -> str:
        """The section of docs/protocol.md the tag names: ``§4`` of ``§4 preface``,
        ``§3a`` of ``§3a closer``."""
        return self.tag.split(" ", 1)[0]

    @property
    def where(self) -> str:
        """Where the rule is stated, for the docs: ``docs/protocol.md §4.3``,
        ``docs/protocol-responses.md section 2.1``."""
        if self.doc == "protocol":
            return f"{DOC_FILES[self.doc]} {self.section}"
        return f"{DOC_FILES[self.doc]} section {self.section}"


def _check_templates(code: Code, attribute: attrs.Attribute[Any], value: Mapping[str, str]) -> None:
    if attribute.name == "en" and "" not in value:
        raise ValueError(f"{code.name}: an English default template is required")


@attrs.frozen
class Code:
    """One diagnostic code (§2): the single home of everything said about it.

    ``name``: ``family.slug`` (``yaml.alias``). ``severity``: ``error``/``warning``,
    ``None`` for answer actions (§12). ``rule``: the :class:`Rule` behind it. ``en`` and
    ``zh``: message templates by variant (``""`` the default; ``"anchor"`` a named
    variant), ``str.format`` fields filled from a finding's parameters (see
    :func:`fields`); every registered code has both for each variant (a test checks),
    and a code built without a ``zh`` template for a variant renders it in English.
    ``summary_zh``: the one Chinese sentence Self-check shows for the code (§8), or
    ``None`` (the English message is shown). ``meaning``/``example``: the row of the
    docs table ``doc`` (``""`` for no example). Raises ``ValueError`` for a malformed
    name or a missing English default template.
    """

    name: str = attrs.field(validator=attrs.validators.matches_re(_NAME))
    severity: Severity | None
    rule: Rule
    en: Mapping[str, str] = attrs.field(converter=freeze_mapping, validator=_check_templates)
    meaning: str
    example: str = ""
    zh: Mapping[str, str] = attrs.field(
        factory=FrozenDict, converter=freeze_mapping, validator=_check_templates
    )
    summary_zh: str | None = None
    doc: Doc = "protocol"

    @property
    def family(self) -> str:
        """The part before the last dot: ``questionnaire.start`` of
        ``questionnaire.start.title_invalid``."""
        return self.name.rsplit(".", 1)[0]

    @property
    def variants(self) -> tuple[str, ...]:
        """The named variants (``""`` excluded) of the English templates."""
        return tuple(v for v in self.en if v)

    def template(self, variant: str | None = None, locale: Locale = "en") -> str:
        """The template of ``variant`` in ``locale``, else the English one.
        Raises ``KeyError`` for a variant the code does not have."""
        key = variant or ""
        if key not in self.en:
            raise KeyError(f"{self.name} has no variant {key!r}")
        table = self.zh if locale == "zh" else self.en
        return table.get(key) or self.en[key]

    def render(
        self, params: Mapping[str, Any], variant: str | None = None, locale: Locale = "en"
    ) -> str:
        """The message of a finding of this code with ``params`` and ``variant``, in
        ``locale`` (``zh``: the Chinese template, which every registered code has for
        every variant; parameters in English words, such as a JSON type or a shape, are
        said in Chinese). A parameter the template names but ``params`` lacks renders
        as empty text. A lone surrogate in a parameter shows as a ``\\udXXX`` escape,
        so a message always encodes as UTF-8 (§1). Raises ``KeyError`` for an unknown
        variant."""
        return escape_lone(self.template(variant, locale).format_map(fields(params, locale)))

    def finding(
        self,
        path: Path = (),
        /,
        *,
        start: int | None = None,
        end: int | None = None,
        variant: str | None = None,
        details: Mapping[str, Any] | None = None,
        params: Mapping[str, Any] | None = None,
        shared: MutableMapping[str, str] | None = None,
        **more: Any,
    ) -> Finding:
        """A :class:`~replykit.diagnostics.Finding` of this code: the English message
        rendered from ``params`` (and ``more``) and ``variant``, both recorded on the
        finding. ``details`` (default: none) are the machine-readable fields callers see.
        ``shared``: messages already made, by text; an equal message is that one string
        (a reply dense with near-misses repeats a few texts many times, and memory
        stays near the input's size, §1). Raises ``KeyError`` for a variant the code
        does not have."""
        if more:
            params = {**(params or {}), **more}
        elif params is None:
            params = {}
        message = self.render(params, variant)
        if shared is not None:
            message = shared.setdefault(message, message)
        return Finding(
            code=self.name,
            message=message,
            path=path,
            severity=self.severity or "error",
            start=start,
            end=end,
            details={} if details is None else details,
            params=params,
            variant=variant,
        )


# ---------------------------------------------------------------- field rendering

_WORDS_ZH: Final[Mapping[str, str]] = MappingProxyType(
    {
        "null": "null",
        "boolean": "布尔值",
        "number": "数字",
        "string": "字符串",
        "array": "数组",
        "object": "对象",
        "array of strings": "字符串数组",
        "string or array of strings": "字符串或字符串数组",
        "non-blank string": "非空字符串",
        "non-empty array": "非空数组",
        "empty array": "空数组",
        "non-negative number": "非负数",
        "non-blank string or {value, label} object": "非空字符串或 {value, label} 对象",
        # YAML's kinds (describe.yaml_kind)
        "integer": "整数",
        "float": "浮点数",
        "list": "列表",
        "mapping": "映射",
    }
)

#: Phrases parameters carry in English (a shape, what stands at a position, a category
#: of forbidden field), in Chinese, for the templates of ``zh``.
_PHRASES_ZH: Final[Mapping[str, str]] = MappingProxyType(
    {
        "an object": "对象",
        "a string": "字符串",
        "a non-blank string": "非空字符串",
        "a list of strings": "字符串列表",
        "a string or a list of strings": "字符串或字符串列表",
        "the end of the payload": "负载末尾",
        "a line break": "换行",
        "a tab": "制表符",
        "a space": "空格",
        "the top level": "顶层",
        "a tool name": "工具名称",
        "an MCP server name": "MCP 服务器名称",
        "a URL": "URL",
        "JavaScript or a callback": "JavaScript 或回调",
        "an RPC method name": "RPC 方法名",
        "a credential": "凭据",
        "a business argument object": "业务参数对象",
    }
)
#: The parameters whose words :data:`_PHRASES_ZH` and :data:`_WORDS_ZH` translate.
_WORDED: Final = frozenset({"shape", "what", "where", "category", "type"})


@attrs.frozen
class _Helpers:
    article: Callable[[str], str]
    brief: Callable[[Any], str]
    hints: Mapping[str, str]
    hints_zh: Mapping[str, str]


@functools.cache
def _helpers() -> _Helpers:
    # Imported at first use: the payload package and the fields codes import this module.
    from replykit.codes.fields import HINTS, HINTS_ZH
    from replykit.questionnaire.payload.describe import article, brief

    return _Helpers(article, brief, HINTS, HINTS_ZH)


def _character_zh(value: str) -> str:
    """``character U+0001`` as ``字符 U+0001``; any other text unchanged."""
    return "字符 " + value[10:] if value.startswith("character U+") else value


def _listing(items: Any, separator: str, limit: int = 10) -> str:
    brief = _helpers().brief
    if not isinstance(items, list | tuple):
        return brief(items)
    more = "…" if len(items) > limit else ""
    return separator.join([*(brief(item) for item in items[:limit]), *([more] if more else [])])


#: The most code points one template parameter adds to a message: a name copied from
#: the message (a block's, 10^5 characters long) must not make the message as long.
#: Composed clauses (a JSON syntax error's excerpt and reason) stay well below it.
PARAM_TEXT_MAX: Final = 1000


class _Fields(dict[str, str]):
    """The template fields of one rendering: parameters as text, by locale."""

    def __init__(self, params: Mapping[str, Any], locale: Locale) -> None:
        super().__init__()
        self.params = params
        self.locale = locale

    def __missing__(self, key: str) -> str:
        helpers = _helpers()
        article, brief = helpers.article, helpers.brief
        params, zh = self.params, self.locale == "zh"
        value = params.get(key)
        if "|" in key:  # "{limit|level}": the number and its noun, singular for 1
            name, noun = key.split("|", 1)
            count = params.get(name)
            text = f"{count} {noun}" if count == 1 or zh else f"{count} {noun}s"
        elif key == "path":
            text = str(value or ("问卷参数" if zh else "the arguments"))
        elif key in ("expected", "actual"):
            word = str(value if value is not None else "")
            if zh:
                text = _WORDS_ZH.get(word, word)
            else:
                text = word if word in ("", "missing") else article(word)
        elif key == "actual_clause":  # zh: 当前为… / 当前缺失
            word = str(params.get("actual") or "")
            text = "当前缺失" if word in ("", "missing") else f"当前为{_WORDS_ZH.get(word, word)}"
        elif key == "hint" and isinstance(value, Mapping):
            hints = helpers.hints_zh if zh else helpers.hints
            text = hints.get(str(value.get("as")), "").format_map(_Fields(value, self.locale))
        elif zh and key in _WORDED and isinstance(value, str):
            text = _PHRASES_ZH.get(value) or _WORDS_ZH.get(value) or _character_zh(value)
        elif key == "left_out" and isinstance(value, list | tuple):  # LeftOut counts
            severity = {"error": "错误", "warning": "警告"} if zh else {}
            text = ("、" if zh else ", ").join(
                (f"{c.code} ×{c.count}" if zh else f"{c.code} x{c.count}")
                + (
                    (f"（{severity[c.severity]}）" if zh else f" ({c.severity})")
                    if c.severity
                    else ""
                )
                for c in value or ()
            )
        elif key == "value":
            text = brief(value) if key in params else ""
        elif key in ("allowed", "invalid_items"):
            text = _listing(value, "、" if zh else ", ") if key in params else ""
        else:  # a name, word, number or clause: none grows with the input (§1)
            text = "" if value is None else shown_text(str(value), PARAM_TEXT_MAX)
        self[key] = text
        return text


def fields(params: Mapping[str, Any], locale: Locale = "en") -> Mapping[str, str]:
    """The template fields for ``params`` in ``locale``, computed when a template asks.

    Conventions: ``N|noun`` (``{limit|level}``) as the number ``N`` and its noun,
    plural unless ``N`` is 1 (``1 level``, ``64 levels``); ``path`` (``the
    arguments`` / ``问卷参数`` when empty); ``expected``
    and ``actual`` with an article in English (``a string``; ``missing`` bare), as
    Chinese words in zh; ``actual_clause`` (zh: ``当前为数字`` / ``当前缺失``); ``value``
    as short JSON; ``allowed`` and ``invalid_items`` as a list of short JSON items
    (``, `` / ``、``, at most 10 and ``…``); ``hint`` (a mapping) as the
    :data:`~replykit.codes.fields.HINTS` sentence its ``as`` names, filled from the same
    mapping; ``left_out`` (:class:`~replykit.diagnostics.LeftOut` counts) as ``code xN
    (severity)`` items; anything else as ``str`` (``None``: empty), at most
    :data:`PARAM_TEXT_MAX` code points (:func:`~replykit.jsonout.shown_text`).
    """
    return _Fields(params, locale)
