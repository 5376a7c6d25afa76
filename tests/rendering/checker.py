"""Reads rendered HTML with ``html.parser`` and lists everything the renderer would not
have written: an unknown element or attribute, an ``on*`` attribute, a URL with a scheme
other than http(s), Markdown markup inside a card, an unknown class or input type."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import attrs

# What markdown-it's commonmark preset writes (raw HTML off) and what the cards write.
MARKDOWN_TAGS = {
    "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "blockquote", "pre",
    "code", "em", "strong", "a", "img", "br", "hr",
}  # fmt: skip
CARD_TAGS = {
    "form", "h3", "fieldset", "legend", "div", "input", "label", "textarea", "button",
    "span", "ul", "li", "dl", "dt", "dd", "pre", "code", "bdi", "p",
}  # fmt: skip
VOID = {"input", "img", "br", "hr"}
ATTRS = {
    "a": {"href", "title"},
    "img": {"src", "alt", "title"},
    "ol": {"start"},
    "code": {"class", "dir"},
    "form": {"class", "data-replykit-block", "data-replykit-name"},
    "span": {"class", "data-replykit-block", "data-replykit-name", "dir"},
    "h3": {"dir"},
    "legend": {"dir"},
    "dd": {"dir"},
    "pre": {"class", "data-replykit-block", "data-replykit-name"},
    "fieldset": {"data-question-id", "data-question-type"},
    "input": {
        "type", "name", "value", "id", "data-question-id", "checked", "aria-label", "dir",
    },
    "label": {"for", "dir"},
    "textarea": {"name", "id", "data-question-id", "dir"},
    "dt": {"data-question-id", "dir"},
    "li": {"data-code", "data-severity"},
    "ul": {"class"},
    "div": {
        "class", "data-replykit-block", "data-replykit-name", "data-questionnaire-id",
        "data-status", "data-replykit-size",
    },
    "button": {
        "type", "class", "data-action-id", "data-action-type", "data-style",
        "data-risk-level", "data-confirm", "data-confirm-description",
        "data-confirm-prompt", "data-confirm-label", "data-cancel-label", "dir",
    },
}  # fmt: skip
CLASSES = {
    "replykit-form", "replykit-option", "replykit-option replykit-other",
    "replykit-invalid", "replykit-diagnostics", "replykit-response",
    "replykit-unregistered", "replykit-actions", "replykit-action", "replykit-too-large",
}  # fmt: skip
INPUT_TYPES = {"radio", "checkbox", "text"}
BUTTON_TYPES = {"submit", "button"}
CARD_CLASSES = {
    "replykit-form", "replykit-invalid", "replykit-response", "replykit-actions",
    "replykit-too-large",
}  # fmt: skip
# Bidi controls: embeddings, overrides, isolates, marks (docs/html.md section 5).
BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
_SCHEME = re.compile(r"([a-z][a-z0-9+.\-]*):")


@attrs.define
class Reading:
    """What the page holds: problems, element counts, all text and attribute values."""

    problems: list[str] = attrs.field(factory=list)
    counts: dict[str, int] = attrs.field(factory=dict)
    texts: list[str] = attrs.field(factory=list)
    values: list[str] = attrs.field(factory=list)
    ids: list[str] = attrs.field(factory=list)
    names: list[str] = attrs.field(factory=list)
    # Text in a card holding a bidi control outside every isolate (dir="auto", <bdi>).
    unisolated: list[str] = attrs.field(factory=list)


class _Checker(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.reading = Reading()
        self.stack: list[tuple[str, bool]] = []  # (tag, inside a card)
        self.isolates: list[bool] = []  # per open element: it or an ancestor isolates

    def _in_card(self) -> bool:
        return bool(self.stack) and self.stack[-1][1]

    def handle_starttag(self, tag: str, attrs_: list[tuple[str, str | None]]) -> None:
        r = self.reading
        r.counts[tag] = r.counts.get(tag, 0) + 1
        allowed_tags = CARD_TAGS if self._in_card() else MARKDOWN_TAGS | CARD_TAGS
        if tag not in allowed_tags:
            r.problems.append(f"element <{tag}> (in a card: {self._in_card()})")
        values = dict(attrs_)
        for name, value in attrs_:
            self._attribute(tag, name, value or "")
        starts_card = values.get("class") in CARD_CLASSES
        if tag not in VOID:
            self.stack.append((tag, self._in_card() or starts_card))
            inherited = bool(self.isolates) and self.isolates[-1]
            self.isolates.append(inherited or tag == "bdi" or values.get("dir") == "auto")

    def handle_startendtag(self, tag: str, attrs_: list[tuple[str, str | None]]) -> None:
        if tag in VOID:  # markdown-it writes <img ... /> and <br />
            self.handle_starttag(tag, attrs_)
        else:
            self.reading.problems.append(f"self-closing <{tag}/>")

    def _attribute(self, tag: str, name: str, value: str) -> None:
        r = self.reading
        r.values.append(value)
        if name.startswith("on") or name not in ATTRS.get(tag, set()):
            r.problems.append(f"attribute {name}={value!r} on <{tag}>")
        if name in ("href", "src"):
            bare = re.sub(r"[\x00-\x20]", "", value).lower()
            found = _SCHEME.match(bare)
            if found is not None and found.group(1) not in ("http", "https"):
                r.problems.append(f"URL {value!r}")
        if name == "class" and tag != "code" and value not in CLASSES:
            r.problems.append(f"class {value!r}")
        if name == "class" and tag == "code" and not value.startswith("language-"):
            r.problems.append(f"code class {value!r}")
        if name == "type" and value not in (INPUT_TYPES if tag == "input" else BUTTON_TYPES):
            r.problems.append(f"type {value!r} on <{tag}>")
        if name == "dir" and value != "auto":
            r.problems.append(f"dir={value!r} on <{tag}>")
        if name == "id":
            r.ids.append(value)
        if name == "name":
            r.names.append(value)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1][0] != tag:
            self.reading.problems.append(f"end tag </{tag}> closes {self.stack[-1:]}")
            return
        self.stack.pop()
        self.isolates.pop()

    def handle_data(self, data: str) -> None:
        self.reading.texts.append(data)
        isolated = bool(self.isolates) and self.isolates[-1]
        if self._in_card() and not isolated and BIDI.search(data):
            self.reading.unisolated.append(data)

    def handle_comment(self, data: str) -> None:
        self.reading.problems.append(f"comment {data!r}")

    def handle_decl(self, decl: str) -> None:
        self.reading.problems.append(f"declaration {decl!r}")

    def handle_pi(self, data: str) -> None:
        self.reading.problems.append(f"processing instruction {data!r}")

    def unknown_decl(self, data: str) -> None:
        self.reading.problems.append(f"declaration {data!r}")


def read_html(html: str) -> Reading:
    """Parse ``html`` and return what it holds; unclosed elements are problems."""
    checker = _Checker()
    checker.feed(html)
    checker.close()
    if checker.stack:
        checker.reading.problems.append(f"unclosed {checker.stack}")
    return checker.reading
