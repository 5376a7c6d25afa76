"""Codes of reading a payload: ``yaml.*`` (docs/protocol.md §4.1) and ``json.*`` (§1.3,
§5)."""

from __future__ import annotations

from typing import Final

from replykit.codes import rules
from replykit.codes._core import Code

# ---------------------------------------------------------------- YAML (§4)

YAML_EMPTY: Final = Code(
    "yaml.empty",
    "error",
    rules.YAML,
    en={
        "": "the questionnaire block is empty",
        "no_content": "the payload holds no YAML content",
    },
    meaning="blank fenced payload",
    example="fence with nothing inside",
    summary_zh="问卷内容为空。",
    zh={
        "": "问卷块为空。",
        "no_content": "负载中没有任何 YAML 内容。",
    },
)

#: ``yaml.syntax`` messages by kind of error (the variant; the default is for an error
#: of no known kind). ``{what}``: what stands at the position, in words.
_SYNTAX: Final = {
    "": "the text here is not valid YAML",
    "bad_character": "{what} cannot start a YAML value here; quote the value",
    "mapping_value": "':' is not allowed here; a plain value that holds ': ' must be quoted",
    "mapping_key": "'?' cannot start a mapping key here",
    "list_item": "'-' cannot start a list item here; a list inside a value starts on its own line",
    "key_without_colon": "this mapping key has no ':' after it on its line",
    "unclosed_quote": "this quoted string is never closed",
    "quote_document_marker": "a quoted string runs into a document marker line ('---' or '...')",
    "escape": "unknown escape in a double-quoted string; write \\\\ for a backslash, and "
    "\\x, \\u, \\U with 2, 4, 8 hexadecimal digits",
    "anchor_name": "'&' and '*' start YAML anchors and aliases; quote a value that begins "
    "with them",
    "tag": "'!' starts a YAML tag; quote a value that begins with '!'",
    "directive": "malformed or repeated directive line (%YAML, %TAG); quote a value that "
    "begins with '%'",
    "block_header": "a block scalar header (| or >) holds only an indentation digit 1-9, a "
    "chomping sign + or -, and a comment",
    "flow_sequence": "a flow list [...] needs ',' between its items and ']' at its end, "
    "found {what}",
    "flow_mapping": "a flow mapping {{...}} needs ',' between its entries and '}}' at its "
    "end, found {what}",
    "missing_value": "a value is missing before {what}",
    "block_mapping_end": "expected another key of the mapping at this indentation, or less "
    "indentation to end it; found {what}",
    "block_list_end": "expected another '- ' item of the list at this indentation, or less "
    "indentation to end it; found {what}",
    "after_document": "unexpected {what} after the end of the YAML document",
    "directive_without_document": "a directive must be followed by '---'",
    "yaml_version": "unsupported YAML version {shown}",
    "escape_range": "the escape {shown} names no character: Unicode ends at U+10FFFF",
    "key_too_long": "a mapping key without '?' is at most 1024 characters and its ':' on "
    "the same line; quote a long text as a value, not a key",
    "comment_space": "a comment needs white space before '#'; add a space, or quote a value "
    "that holds '#'",
    "tab_indent": "a tab cannot indent YAML; indent with spaces",
    "block_scalar_column": "a block scalar (| or >) that starts its own line must be indented "
    "more than its key or list item",
    "flow_indent": "a line inside a flow collection ([...] or {{...}}) must be indented more "
    "than the key or list item that holds it",
    "tab_before_block": "a tab cannot come before a list item '-', a key, or '?'/':' that "
    "starts a block collection; use spaces",
    "not_printable": "{what} is not allowed in YAML",
    "byte_order_mark": "a byte order mark (U+FEFF) may stand only at the start of the "
    "payload or inside a quoted string, not here; remove this one",
}
#: The Chinese of each ``yaml.syntax`` kind, by the same keys.
_SYNTAX_ZH: Final = {
    "": "此处的文本不是有效的 YAML。",
    "bad_character": "{what} 不能在此处开始一个 YAML 值；请给该值加引号。",
    "mapping_value": "此处不允许出现 ':'；含有 ': ' 的普通值必须加引号。",
    "mapping_key": "'?' 不能在此处开始一个映射键。",
    "list_item": "'-' 不能在此处开始一个列表项；值中的列表必须另起一行。",
    "key_without_colon": "这个映射键在同一行内后面没有 ':'。",
    "unclosed_quote": "这个带引号的字符串没有闭合。",
    "quote_document_marker": "带引号的字符串延续到了文档标记行（'---' 或 '...'）。",
    "escape": (
        "双引号字符串中有未知的转义；反斜杠请写作 \\\\，\\x、\\u、\\U 后分别跟 2、4、8 位十六进"
        "制数字。"
    ),
    "anchor_name": "'&' 和 '*' 用于开始 YAML 锚点和别名；以它们开头的值请加引号。",
    "tag": "'!' 用于开始 YAML 标签；以 '!' 开头的值请加引号。",
    "directive": "指令行（%YAML、%TAG）格式错误或重复；以 '%' 开头的值请加引号。",
    "block_header": "块标量头（| 或 >）只能包含一个 1-9 的缩进数字、一个截断符号 + 或 -，"
    "以及注释。",
    "flow_sequence": "流式列表 [...] 的各项之间需要 ','，末尾需要 ']'，当前为 {what}。",
    "flow_mapping": "流式映射 {{...}} 的各项之间需要 ','，末尾需要 '}}'，当前为 {what}。",
    "missing_value": "{what} 之前缺少一个值。",
    "block_mapping_end": "此缩进处应为映射的下一个键，或以更少的缩进结束映射；当前为 {what}。",
    "block_list_end": "此缩进处应为列表的下一个 '- ' 项，或以更少的缩进结束列表；当前为 {what}。",
    "after_document": "YAML 文档结束之后出现了意外的 {what}。",
    "directive_without_document": "指令之后必须跟 '---'。",
    "yaml_version": "不支持的 YAML 版本 {shown}。",
    "escape_range": "转义 {shown} 不表示任何字符：Unicode 止于 U+10FFFF。",
    "key_too_long": (
        "不带 '?' 的映射键最多 1024 个字符，且其 ':' 必须在同一行；较长的文字请作为加引号的值，"
        "而不是键。"
    ),
    "comment_space": "注释的 '#' 前面需要空白；请加一个空格，或给含有 '#' 的值加引号。",
    "tab_indent": "YAML 不能用制表符缩进；请用空格缩进。",
    "block_scalar_column": "另起一行的块标量（| 或 >）必须比它的键或列表项缩进更多。",
    "flow_indent": "流式集合（[...] 或 {{...}}）中的换行内容必须比包含它的键或列表项缩进更多。",
    "tab_before_block": "列表项 '-'、键或开始块集合的 '?'/':' 之前不能有制表符；请使用空格。",
    "not_printable": "YAML 中不允许出现 {what}。",
    "byte_order_mark": (
        "字节顺序标记（U+FEFF）只能位于内容开头或带引号的字符串中，不能出现在这里；请删除它。"
    ),
}
YAML_SYNTAX: Final = Code(
    "yaml.syntax",
    "error",
    rules.YAML,
    en={kind: "YAML syntax error: " + text for kind, text in _SYNTAX.items()},
    zh={kind: "YAML 语法错误：" + text for kind, text in _SYNTAX_ZH.items()},
    meaning="YAML syntax error, in replykit's words (§4.1)",
    example="`title: [`",
    summary_zh="YAML 语法错误。",
)
YAML_MULTIPLE_DOCUMENTS: Final = Code(
    "yaml.multiple_documents",
    "error",
    rules.YAML,
    en={"": "a questionnaire payload holds exactly one YAML document"},
    meaning="more than one document",
    example="`title: a⏎---⏎title: b`",
    summary_zh="问卷内容只能是一个 YAML 文档。",
    zh={
        "": "问卷负载只能包含一个 YAML 文档。",
    },
)
YAML_JSON_PAYLOAD: Final = Code(
    "yaml.json_payload",
    "error",
    rules.YAML_PAYLOAD,
    en={
        "": "the payload is a flow collection ({{...}} or [...], e.g. JSON); "
        "write it as block YAML (title: ...)"
    },
    meaning="root is a flow collection",
    example='`{"title": "T"}`',
    summary_zh="围栏内容必须是块状 YAML，不能是 JSON 或流式写法。",
    zh={
        "": "负载是流式集合（{{...}} 或 [...]，例如 JSON）；请写成块状 YAML（title: ...）。",
    },
)
YAML_ROOT_NOT_MAPPING: Final = Code(
    "yaml.root_not_mapping",
    "error",
    rules.YAML,
    en={"": "the YAML root must be a block mapping, not {actual}"},
    meaning="root is a scalar or block sequence",
    example="`- a`",
    summary_zh="YAML 顶层必须是映射。",
    zh={
        "": "YAML 顶层必须是块状映射，{actual_clause}。",
    },
)
YAML_NESTED_FENCE: Final = Code(
    "yaml.nested_fence",
    "error",
    rules.YAML_PAYLOAD,
    en={
        "": "a line inside the questionnaire opens a code fence; a questionnaire cannot "
        "contain other fenced blocks",
        "closing_text": "this line looks like a closing fence with text after it; a closing "
        "fence stands alone on its line, so the questionnaire does not end here",
        "closing_blank": "this line looks like a closing fence with the invisible character "
        "{char} after it; a closing fence allows only spaces and tabs after its backticks, "
        "so the questionnaire does not end here",
    },
    meaning="a payload line would open a fence, or looks like a closing fence with text "
    "(punctuation, symbols) or an invisible blank character (NBSP, U+3000, ZWSP, BOM) after it",
    example="a ```` ``` ```` line inside; ```` ```。 ````",
    summary_zh="问卷内部不能嵌套其他代码围栏；结束围栏必须独占一行，后面不能有其他文字。",
    zh={
        "": "问卷内部的一行开启了代码围栏；问卷中不能包含其他围栏块。",
        "closing_text": (
            "这一行看起来像结束围栏，但后面还有文字；结束围栏必须独占一行，所以问卷并未在此结束。"
        ),
        "closing_blank": (
            "这一行看起来像结束围栏，但后面有不可见字符 {char}；结束围栏的反引号之后只允许空格"
            "和制表符，所以问卷并未在此结束。"
        ),
    },
)
YAML_DUPLICATE_KEY: Final = Code(
    "yaml.duplicate_key",
    "error",
    rules.YAML,
    en={
        "": "duplicate key {key}; each key may appear once",
        "at": "duplicate key {key} at {where}; each key may appear once",
    },
    meaning="a key repeated in one mapping",
    example="`title: a⏎title: b`",
    summary_zh="YAML 中存在重复的键。",
    zh={
        "": "重复的键 {key}；每个键只能出现一次。",
        "at": "{where} 中有重复的键 {key}；每个键只能出现一次。",
    },
)
YAML_ALIAS: Final = Code(
    "yaml.alias",
    "error",
    rules.YAML,
    en={
        "": "YAML aliases are not allowed (*{anchor}); write the value out",
        "anchor": "YAML anchors are not allowed (&{anchor})",
    },
    meaning="an anchor or alias",
    example="`text: &q Why?`",
    summary_zh="不允许使用 YAML 锚点或别名。",
    zh={
        "": "不允许使用 YAML 别名（*{anchor}）；请直接写出该值。",
        "anchor": "不允许使用 YAML 锚点（&{anchor}）。",
    },
)
YAML_TAG: Final = Code(
    "yaml.tag",
    "error",
    rules.YAML,
    en={"": "explicit YAML tags are not allowed ({tag}); write the value untagged"},
    meaning="an explicit tag",
    example="`title: !!str T`",
    summary_zh="不允许使用 YAML 显式标签。",
    zh={
        "": "不允许使用显式 YAML 标签（{tag}）；请去掉标签直接写值。",
    },
)
YAML_TOO_DEEP: Final = Code(
    "yaml.too_deep",
    "error",
    rules.YAML,
    en={"": "YAML nesting deeper than {limit|level}"},
    meaning="nesting deeper than the limit",
    example="65 nested `-`",
    summary_zh="YAML 嵌套层级过深。",
    zh={
        "": "YAML 嵌套层级超过 {limit} 层。",
    },
)
YAML_KEY_NOT_STRING: Final = Code(
    "yaml.key_not_string",
    "error",
    rules.YAML,
    en={"": "mapping key {key} is {actual}, not a string; keys are field names"},
    meaning="a non-string mapping key",
    example="`1: x`",
    summary_zh="YAML 的键必须是字符串。",
    zh={
        "": "映射键 {key} 是{actual}，不是字符串；键必须是字段名。",
    },
)
YAML_NUMBER_TOO_LARGE: Final = Code(
    "yaml.number_too_large",
    "error",
    rules.YAML,
    en={"": "integer with more than {limit} digits; quote it"},
    meaning="an integer too large to convert",
    example="a 5000-digit int",
    summary_zh="数字过大。",
    zh={
        "": "整数超过 {limit} 位；请给它加引号。",
    },
)
YAML_DIRECTIVE_IGNORED: Final = Code(
    "yaml.directive_ignored",
    "warning",
    rules.YAML,
    en={
        "": "%YAML {shown}: a later YAML 1.x than 1.2; the payload is read as YAML 1.2",
        "reserved": "the reserved directive %{shown} has no meaning and is ignored; only "
        "%YAML and %TAG have one",
    },
    meaning="a `%YAML 1.x` directive with x over 2 (read as YAML 1.2) or a reserved "
    "directive (ignored), as YAML 1.2.2 spec 6.8.1 asks",
    example="`%YAML 1.3`, `%FOO bar` before `---`",
    summary_zh="YAML 指令被忽略。",
    zh={
        "": "%YAML {shown}：比 1.2 更新的 YAML 1.x；负载按 YAML 1.2 读取。",
        "reserved": "保留指令 %{shown} 没有含义，已忽略；只有 %YAML 和 %TAG 有含义。",
    },
)
YAML_LONE_SURROGATE: Final = Code(
    "yaml.lone_surrogate",
    "error",
    rules.YAML,
    en={
        "": "this string holds the escape of {shown}, a surrogate, which is not a character; "
        "write the character itself or its \\U escape"
    },
    meaning="a double-quoted scalar whose `\\u`/`\\U` escape denotes a surrogate code point, "
    "no character (§1.3; two escapes are two code points)",
    example='`text: "Why\\ud800?"`, `"\\ud83d\\ude00"`',
    summary_zh="YAML 字符串的转义表示不成对的代理项（\\udXXX），它不是字符。",
    zh={
        "": "这个字符串含有 {shown} 的转义，它是代理项而不是字符；请直接写出该字符或使用它的 \\"
        "U 转义。",
    },
)

# ---------------------------------------------------------------- JSON (§1, §5)

JSON_SYNTAX: Final = Code(
    "json.syntax",
    "error",
    rules.XML_JSON,
    en={
        "": "JSON syntax error: {reason}",
        "undecodable": "JSON syntax error: cannot be decoded",
    },
    meaning="JSON syntax error: replykit's position and message (§5; smart quotes named)",
    example='`{“title”: 1}`, `{"a": 1,}`',
    summary_zh="JSON 语法错误。",
    zh={
        "": "JSON 语法错误：{reason}",
        "undecodable": "JSON 语法错误：无法解码。",
    },
)
JSON_DUPLICATE_KEY: Final = Code(
    "json.duplicate_key",
    "error",
    rules.XML_JSON,
    en={"": "duplicate key {key}; each key may appear once"},
    meaning="a key repeated in one object",
    example='`{"a":1,"a":2}`',
    summary_zh="JSON 中存在重复的键。",
    zh={
        "": "重复的键 {key}；每个键只能出现一次。",
    },
)
JSON_CONSTANT: Final = Code(
    "json.constant",
    "error",
    rules.XML_JSON,
    en={"": "{token} is not JSON; use a number or a string"},
    meaning="`NaN`, `Infinity`, `-Infinity`",
    example='`{"a": NaN}`',
    summary_zh="JSON 中不允许 NaN 或 Infinity。",
    zh={
        "": "{token} 不是 JSON；请使用数字或字符串。",
    },
)
JSON_TOO_DEEP: Final = Code(
    "json.too_deep",
    "error",
    rules.XML_JSON,
    en={
        "": "JSON nesting deeper than {limit|level}",
        "arguments": "the arguments nest deeper than {limit|level}",
    },
    zh={
        "": "JSON 嵌套层级超过 {limit} 层。",
        "arguments": "参数的嵌套层级超过 {limit} 层。",
    },
    meaning="nesting deeper than the limit",
    example="`[[[[...`",
    summary_zh="JSON 嵌套层级过深。",
)
JSON_NOT_OBJECT: Final = Code(
    "json.not_object",
    "error",
    rules.XML_JSON,
    en={
        "": "the payload must be a JSON object, not {actual}",
        "answers": "the answers must be a JSON object from question id to answer, not {actual}",
    },
    meaning="root not an object",
    example="`[1]`",
    summary_zh="JSON 负载必须是一个对象。",
    zh={
        "": "负载必须是 JSON 对象，{actual_clause}。",
        "answers": "answers 必须是从问题 id 到回答的 JSON 对象，{actual_clause}。",
    },
)
JSON_STRING_PAYLOAD: Final = Code(
    "json.string_payload",
    "error",
    rules.XML_JSON,
    en={
        "": "the payload is a JSON string that holds JSON; write the object itself, not a "
        "quoted copy of it"
    },
    meaning="root is a string holding JSON",
    example='`"{\\"title\\":1}"`',
    summary_zh="JSON 负载是一个包含 JSON 的字符串，必须直接写成对象。",
    zh={
        "": "负载是一个装着 JSON 的 JSON 字符串；请直接写出对象本身，而不是它加引号的副本。",
    },
)
JSON_NUMBER_TOO_LARGE: Final = Code(
    "json.number_too_large",
    "error",
    rules.XML_JSON,
    en={
        "": "a number written with more than {limit} digits; write it as a string or a "
        "smaller number",
        "range": "the number {number} is beyond a 64-bit float's range (it would read as "
        "infinity); write it as a string or a smaller number",
    },
    meaning="a number written with more than 4300 digits, or beyond a 64-bit float's range "
    "(it would read as infinity)",
    example='`{"a": 1e400}`, a 5000-digit int',
    summary_zh="数字过大：超过 4300 位，或超出 64 位浮点数的范围。",
    zh={
        "": "数字超过 {limit} 位；请写成字符串或更小的数字。",
        "range": (
            "数字 {number} 超出 64 位浮点数的范围（会被读作无穷大）；请写成字符串或更小的数字。"
        ),
    },
)
JSON_LONE_SURROGATE: Final = Code(
    "json.lone_surrogate",
    "error",
    rules.XML_JSON,
    en={
        "": "lone surrogate {shown} in a string: a surrogate must come as a pair, a high one "
        "(\\ud800-\\udbff) directly followed by a low one (\\udc00-\\udfff), or the text "
        "cannot be written as UTF-8",
        "value": "{path} holds {shown}, half of a surrogate pair and no character; JSON "
        "cannot carry it faithfully",
        "root_value": "a string holds {shown}, half of a surrogate pair and no character; "
        "JSON cannot carry it faithfully",
    },
    zh={
        "": "字符串中有不成对的代理项 {shown}：代理项必须成对出现，即高位代理（\\ud800-\\udbff）"
        "紧跟低位代理（\\udc00-\\udfff），否则文本无法写成 UTF-8。",
        "value": "{path} 含有 {shown}，这是不成对的代理项（不是字符），严格 JSON 无法如实表示。",
        "root_value": "字符串含有 {shown}，这是不成对的代理项（不是字符），"
        "严格 JSON 无法如实表示。",
    },
    meaning="a string holding half of a surrogate pair (a `\\udXXX` escape not paired, or "
    "such a character); also a string or key of a Python caller's tool arguments or answer "
    "text holding a surrogate (§1.3)",
    example='`{"a": "Why\\ud800?"}`',
    summary_zh="JSON 字符串中含有不成对的代理项（\\udXXX），无法写成 UTF-8。",
)

JSON_KEY_NOT_STRING: Final = Code(
    "json.key_not_string",
    "error",
    rules.XML_JSON,
    en={
        "": "{path} has the key {key}, which is {actual}, not a string; JSON keys are strings",
        "root": "the arguments have the key {key}, which is {actual}, not a string; JSON "
        "keys are strings",
    },
    meaning="a mapping key of a Python caller's tool arguments that is not a string (JSON "
    "cannot carry it; a JSON text never gives one)",
    example='`questionnaire_async("T", [{"type": "text", "text": "Q", 5: "x"}])`',
    summary_zh="JSON 对象的键必须是字符串。",
    zh={
        "": "{path} 的键 {key} 是{actual}，不是字符串；JSON 的键必须是字符串。",
        "root": "问卷参数的键 {key} 是{actual}，不是字符串；JSON 的键必须是字符串。",
    },
)

CODES: Final = (
    YAML_EMPTY,
    YAML_SYNTAX,
    YAML_MULTIPLE_DOCUMENTS,
    YAML_JSON_PAYLOAD,
    YAML_ROOT_NOT_MAPPING,
    YAML_NESTED_FENCE,
    YAML_DUPLICATE_KEY,
    YAML_ALIAS,
    YAML_TAG,
    YAML_TOO_DEEP,
    YAML_KEY_NOT_STRING,
    YAML_NUMBER_TOO_LARGE,
    YAML_LONE_SURROGATE,
    YAML_DIRECTIVE_IGNORED,
    JSON_SYNTAX,
    JSON_DUPLICATE_KEY,
    JSON_CONSTANT,
    JSON_TOO_DEEP,
    JSON_NOT_OBJECT,
    JSON_STRING_PAYLOAD,
    JSON_NUMBER_TOO_LARGE,
    JSON_LONE_SURROGATE,
    JSON_KEY_NOT_STRING,
)
