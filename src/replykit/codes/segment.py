"""Codes about where blocks are found: ``fence.*``, ``name.*``, ``near_miss.*``
(docs/protocol.md §3, §4.3, §6, §8.1)."""

from __future__ import annotations

from typing import Final

from replykit.codes import rules
from replykit.codes._core import Code

FENCE_UNCLOSED: Final = Code(
    "fence.unclosed",
    "error",
    rules.CANDIDATES,
    en={"": "the questionnaire fence is never closed; it runs to the end of the message"},
    meaning="fenced candidate never closed",
    example="```` ```questionnaire ```` then end of message",
    summary_zh="问卷围栏没有结束围栏，一直延续到消息末尾。",
    zh={
        "": "问卷围栏没有闭合，一直延续到消息末尾。",
    },
)
FENCE_NO_PREFACE: Final = Code(
    "fence.no_preface",
    "error",
    rules.PREFACE,
    en={"": "a fenced questionnaire needs visible prose before it in the message"},
    meaning="no visible prose before a fenced candidate",
    example="message starting with the fence",
    summary_zh="fenced 问卷前必须有非空的普通说明文字。",
    zh={
        "": "围栏问卷之前必须有可见的普通说明文字。",
    },
)
NAME_UNREGISTERED: Final = Code(
    "name.unregistered",
    "warning",
    rules.PROFILES,
    en={"": "'{name}' is not registered in this profile; clients show it as Markdown"},
    meaning="the block's name is not in the profile",
    example="`<yiii-questionnaire>` under `CLIENT`",
    summary_zh="该名称不是注册的问卷名称，前端会把它当作普通 Markdown 显示。",
    zh={
        "": "'{name}' 未在此配置中注册；客户端会把它显示为 Markdown。",
    },
)

# Near-misses (§8): warnings on a line or tag that almost opens a block. Their messages
# are short: a hostile reply repeats them once per line or tag (§1's output bound).
NEAR_MISS_CASE: Final = Code(
    "near_miss.case",
    "warning",
    rules.NEAR_MISS,
    en={
        "": "fence name '{name}' must be lower case: '{lower}'",
        "tag": "tag name '{name}' must be lower case: '{lower}'",
    },
    meaning="a fence info word or tag name equal to a family name but for ASCII case",
    example="```` ```Questionnaire ````, `<Questionnaire>`",
    summary_zh="问卷名称必须全部小写。",
    zh={
        "": "围栏名称 '{name}' 必须全部小写：'{lower}'。",
        "tag": "标签名称 '{name}' 必须全部小写：'{lower}'。",
    },
)
NEAR_MISS_UNKNOWN_NAME: Final = Code(
    "near_miss.unknown_name",
    "warning",
    rules.NEAR_MISS,
    en={
        "": "fence name '{name}' is not a protocol name (questionnaire, NAME-questionnaire)",
        "tag": "tag name '{name}' is not a protocol name (questionnaire, NAME-questionnaire,"
        " or either with -response)",
    },
    meaning="a fence's first info word or an opening tag's name holds the family word"
    " but not the family's shape",
    example="```` ```sage-yiii-questionnaire ````, `<questionnaire-response-extra>`",
    summary_zh="名称包含 questionnaire，但不是注册协议的名称形式。",
    zh={
        "": "围栏名称 '{name}' 不是协议名称（questionnaire 或 NAME-questionnaire）。",
        "tag": "标签名称 '{name}' 不是协议名称（questionnaire、NAME-questionnaire，"
        "或其后加 -response）。",
    },
)
NEAR_MISS_EXTRA_WORDS: Final = Code(
    "near_miss.extra_words",
    "warning",
    rules.NEAR_MISS,
    en={"": "the info string must be only '{lower}', found '{info}'"},
    meaning="the info string's first word is a family name and more follows",
    example="```` ```questionnaire yaml ````",
    summary_zh="开始围栏的信息字符串只能是问卷名称，后面不能有其他文字。",
    zh={
        "": "信息字符串只能是 '{lower}'，当前为 '{info}'。",
    },
)
NEAR_MISS_TILDE: Final = Code(
    "near_miss.tilde",
    "warning",
    rules.NEAR_MISS,
    en={"": "'{fence}{name}' uses tildes; a questionnaire fence takes backticks"},
    meaning="a tilde fence with a family name",
    example="`~~~questionnaire`",
    summary_zh="问卷围栏必须使用反引号，不能使用波浪号。",
    zh={
        "": "'{fence}{name}' 使用了波浪号；问卷围栏必须使用反引号。",
    },
)
NEAR_MISS_SHORT_FENCE: Final = Code(
    "near_miss.short_fence",
    "warning",
    rules.NEAR_MISS,
    en={"": "a questionnaire fence needs three or more backticks, found two"},
    meaning="two backticks and a family name at a line start",
    example="``` ``questionnaire ```",
    summary_zh="问卷开始围栏至少需要三个反引号。",
    zh={
        "": "问卷围栏至少需要三个反引号，当前只有两个。",
    },
)
NEAR_MISS_IN_CONTAINER: Final = Code(
    "near_miss.in_container",
    "warning",
    rules.TOP_LEVEL,
    en={
        "": "a questionnaire fence inside a block quote or list item is code; "
        "move it to the top level"
    },
    meaning="a fence opener with a family name in a block quote or list item, or a line "
    "there that would be one but for another fence near-miss (two backticks, blank "
    "characters before it)",
    example="`> ```questionnaire`",
    summary_zh="问卷围栏不能放在引用块或列表项中，必须位于顶层。",
    zh={
        "": "位于引用块或列表项中的问卷围栏只是代码；请把它移到顶层。",
    },
)
NEAR_MISS_UNCLOSED_TAG: Final = Code(
    "near_miss.unclosed_tag",
    "warning",
    rules.NEAR_MISS,
    en={"": "no '</{name}>' follows this tag"},
    meaning="an opening tag with no closer of the same name after it",
    example="`<questionnaire>{...}`",
    summary_zh="问卷开始标签之后没有同名的结束标签。",
    zh={
        "": "这个标签之后没有 '</{name}>'。",
    },
)
NEAR_MISS_TAG_ATTRIBUTES: Final = Code(
    "near_miss.tag_attributes",
    "warning",
    rules.NEAR_MISS,
    en={
        "": "'<{name}>' takes no attributes",
        "spaces": "'<{name}>' takes no spaces inside the brackets",
    },
    meaning="an opening tag with attributes or spaces",
    example='`<questionnaire timeout_seconds="30">`',
    summary_zh="问卷开始标签不能带属性，尖括号内也不能有空格。",
    zh={
        "": "'<{name}>' 不接受任何属性。",
        "spaces": "'<{name}>' 的尖括号内不能有空格。",
    },
)
NEAR_MISS_FENCE_INDENT: Final = Code(
    "near_miss.fence_indent",
    "warning",
    rules.NEAR_MISS,
    en={
        "": "{characters} before '{fence}{name}' is not Markdown indentation: the line is "
        "text, not a fence, and a closing fence after it opens a code block; remove it",
        "several": "{characters} before '{fence}{name}' is not Markdown indentation: the line "
        "is text, not a fence, and a closing fence after it opens a code block; remove them",
    },
    meaning="a fence opener with a family name behind a blank that is not indentation "
    "(U+00A0, U+2000-U+200A, U+3000, Cf characters ...): the line is paragraph text, and a "
    "closing fence after it opens a code block",
    example="U+3000 then ```` ```questionnaire ````",
    summary_zh=(
        "问卷开始围栏前有全角空格、不换行空格或零宽字符等，Markdown 不把它们当作缩进："
        "这一行只是普通文字，不是围栏，请删除这些字符。"
    ),
    zh={
        "": "'{fence}{name}' 前面的 {characters} 不是 Markdown 缩进：这一行是普通文字而不是围栏，"
        "其后的结束围栏反而会开启一个代码块；请删除它。",
        "several": (
            "'{fence}{name}' 前面的 {characters} 不是 Markdown 缩进：这一行是普通文字而不是围栏，"
            "其后的结束围栏反而会开启一个代码块；请删除它们。"
        ),
    },
)

CODES: Final = (
    FENCE_UNCLOSED,
    FENCE_NO_PREFACE,
    NAME_UNREGISTERED,
    NEAR_MISS_CASE,
    NEAR_MISS_EXTRA_WORDS,
    NEAR_MISS_TILDE,
    NEAR_MISS_SHORT_FENCE,
    NEAR_MISS_IN_CONTAINER,
    NEAR_MISS_UNCLOSED_TAG,
    NEAR_MISS_TAG_ATTRIBUTES,
    NEAR_MISS_FENCE_INDENT,
    NEAR_MISS_UNKNOWN_NAME,
)

#: The near-miss codes (§8).
NEAR_MISSES: Final = frozenset(c.name for c in CODES if c.family == "near_miss")
#: The warnings the diagnostics cap never hides and Self-check fails on (§2, §8):
#: every near-miss and ``name.unregistered``.
ALWAYS_SHOWN: Final = NEAR_MISSES | {NAME_UNREGISTERED.name}
