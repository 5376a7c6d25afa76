"""The bound on rendered output (docs/html.md section 8; the §1.5 figure).

The HTML of a message is at most 16 times its input plus 256 KiB, the input counted
as the UTF-8 bytes of the message, the message id, the profile and compat names and
the answer actions' JSON. A card can cost far more than its block (every option
repeats the block id), so when the cards together would pass the bound, the largest
are shown as their summary instead: the block's raw text, escaped, in
``<div class="replykit-too-large">``, nothing of it lost. Should the page still pass
the bound (markdown-it's own output can outgrow its input: one long link reference
used many times), :func:`whole_summary` shows the message's raw text instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from types import MappingProxyType

from markdown_it.token import Token

from replykit.markdown_it.markup import AUTO, attr, esc
from replykit.questionnaire.conversation.texts import Locale
from replykit.questionnaire.model import Segment

FACTOR = 16
SLACK = 256 * 1024
Measure = Callable[[str], int]


def utf8_size(value: str) -> int:
    """The UTF-8 bytes of ``value`` (a lone surrogate counts as the 3 bytes of U+FFFD)."""
    return len(value.encode("utf-8", "replace"))


def output_limit(*inputs: str) -> int:
    """16 x the UTF-8 bytes of ``inputs`` plus 256 KiB."""
    return FACTOR * sum(utf8_size(part) for part in inputs) + SLACK


def summary_card(segment: Segment, size: int, locale: Locale = "zh") -> str:
    """A block shown as its summary: its raw text escaped in ``<pre><code>``, and
    ``data-replykit-size``, the bytes its card would have taken; the note in
    ``locale``, as the cards' own labels."""
    return (
        f'<div class="replykit-too-large"{attr("data-replykit-block", segment.id or "")}'
        f"{attr('data-replykit-name', segment.name or '')}{attr('data-replykit-size', str(size))}>"
        f"<p>{esc(TOO_LARGE[locale])}</p><pre><code{AUTO}>{esc(segment.text)}</code></pre></div>"
    )


#: The summary's note, by locale (as the cards' own labels).
TOO_LARGE: Mapping[Locale, str] = MappingProxyType(
    {
        "zh": "此块的表单超出页面的输出上限，只显示原文",
        "en": "This block's form is over the page's output limit: its raw text is shown",
    }
)


def summarized(
    cards: Sequence[tuple[Segment, str]], budget: int, measure: Measure, locale: Locale = "zh"
) -> dict[int, str]:
    """Which cards to show as their summary so that all cards together measure at most
    ``budget``: the ones that save most first; index -> the summary's HTML (its note in
    ``locale``)."""
    sizes = [measure(html) for _, html in cards]
    total = sum(sizes)
    out: dict[int, str] = {}
    if total <= budget:
        return out
    summaries = [
        summary_card(seg, size, locale) for (seg, _), size in zip(cards, sizes, strict=True)
    ]
    saving = sorted(range(len(cards)), key=lambda i: sizes[i] - measure(summaries[i]), reverse=True)
    for index in saving:
        if total <= budget:
            break
        smaller = measure(summaries[index])
        if smaller < sizes[index]:
            out[index] = summaries[index]
            total -= sizes[index] - smaller
    return out


def whole_summary(text: str, locale: Locale = "zh") -> str:
    """The page of a message whose HTML would pass the bound even with its cards
    summarized: its raw text, escaped, in ``<pre class="replykit-too-large">`` (the
    note in ``locale``)."""
    return (
        f'<div class="replykit-too-large"><p>{esc(TOO_LARGE_PAGE[locale])}</p>'
        f"<pre><code{AUTO}>{esc(text)}</code></pre></div>\n"
    )


#: The whole-page summary's note, by locale.
TOO_LARGE_PAGE: Mapping[Locale, str] = MappingProxyType(
    {
        "zh": "此消息的页面超出输出上限，只显示原文",
        "en": "This message's page is over the output limit: its raw text is shown",
    }
)


def least_size(tokens: Iterable[Token]) -> int:
    """Code points the tokens' HTML holds at least: every leaf's content and every
    attribute value is written once or more (escaping only lengthens them). Read
    before rendering, so a page markdown-it would make far larger than its input
    (one long link reference used many times) is never built."""
    total = 0
    for token in tokens:
        if token.children:
            total += least_size(token.children)
        elif token.type != "inline":
            total += len(token.content)
        total += sum(len(str(value)) for value in token.attrs.values())
    return total
