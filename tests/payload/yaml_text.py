"""Hypothesis strategy for YAML text aimed at the places where YAML readers differ.

Documents are drawn as trees (block and flow mappings and sequences, plain, quoted and
block scalars) and written out with white space drawn per place (spaces, tabs, nothing,
line breaks inside flow), comments, odd indentation, ``?``/``:``/``-``/``#`` inside and
at the start of plain scalars, lone ``-``/``?``/``:`` as flow nodes (one node in four),
comments with and without white space before ``#``; then a few edits insert tabs,
indicators and line breaks anywhere, so that invalid YAML is drawn as often as valid
YAML.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

_SAFE_WORDS = ["a", "b", "title", "Why?", "a b", "x", "yes", "0", "问卷", "Q 1", "c:d", "e-f",
               "&a: x"]  # fmt: skip
_WORDS = [
    "a", "b", "title", "Why?", "a:b", "a :b", "-x", "?x", ":x", "a#b", "x?y", "9:16", "yes",
    "1_000", "02142", "0x1F", ".inf", "~", "null", "true", "问卷", "é", "a b", "what ?now",
    "a -b", "x:", "-", "?", "a,b", "[x", "x]", "{x", "a}b", "@x", "`x", "%x", "!x", "&x",
    "*x", "'x'", '"x"', "a 'b'", "---", "...", "a\u2028b", "a\x85b",
]  # fmt: skip
_SEP = [" ", " ", " ", "\t", " \t", "\t ", "  ", ""]
_FLOW_SEP = [" ", "", "\t", "\n", "\n  ", "\n\t", " \n "]
_COMMENT = ["", "", "", " # c", "\t# c", "#c", " #", "\t", " ", " \t"]


_CALM_COMMENT = ["", "", " # c", " #", "#c"]
# '?x' in a flow node: libyaml reads an explicit key where YAML 1.2.2 reads the plain
# scalar (the gate's rule `question`); '&a:' (in _SAFE_WORDS): libyaml ends the anchor
# name at ':' (rule `odd_anchor`). Calm texts draw them so that a text only that rule
# guards is drawn.
_CALM_INDICATORS = ["-", "-", "-x", "-#", "?x"]
# One text in three is calm: plain words from the safe list, no tabs and no edits, so
# that PyYAML's C parser reads it and the differential test compares the two loaders on
# it (a wild text mostly goes to the referee under both).
_CALM = st.shared(st.integers(0, 2).map(lambda n: n == 0), key="yaml_text.calm")


def _comment(draw: st.DrawFn) -> str:
    return draw(st.sampled_from(_CALM_COMMENT if draw(_CALM) else _COMMENT))


def _plain(draw: st.DrawFn) -> str:
    wild = not draw(_CALM) and draw(st.integers(0, 2)) == 0
    vocabulary = _WORDS if wild else _SAFE_WORDS
    words = draw(st.lists(st.sampled_from(vocabulary), min_size=1, max_size=3))
    return draw(st.sampled_from(_SEP[:6])).join(words)


def _quoted(draw: st.DrawFn) -> str:
    body = draw(
        st.lists(
            st.sampled_from(
                [
                    "a",
                    " ",
                    "\t",
                    "'",
                    '"',
                    "\\",
                    "\\n",
                    "\\t",
                    "\\x41",
                    "\\u00e9",
                    "\\q",
                    "\n",
                    "\n  ",
                    "\n\t",
                    "#",
                    ": ",
                    "?",
                ]
            ),
            max_size=6,
        )
    )
    text = "".join(body)
    if draw(st.booleans()):
        return "'" + text.replace("'", "''") + "'"
    return '"' + text.replace('"', '\\"') + '"'


def _scalar(draw: st.DrawFn) -> str:
    return _quoted(draw) if draw(st.integers(0, 3)) == 0 else _plain(draw)


def _flow(draw: st.DrawFn, depth: int) -> str:
    def sep() -> str:
        return draw(st.sampled_from(_FLOW_SEP))

    n = draw(st.integers(0, 3))
    if draw(st.booleans()):
        items = [_flow_node(draw, depth + 1) for _ in range(n)]
        return "[" + sep() + ("," + sep()).join(items) + sep() + "]"
    entries = []
    for _ in range(n):
        colon = draw(st.sampled_from([": ", ":", " : ", ":\t", ": \t"]))
        entries.append(_flow_node(draw, depth + 1, key=True) + colon + _flow_node(draw, depth + 1))
    return "{" + sep() + ("," + sep()).join(entries) + sep() + "}"


# A flow node that starts with an indicator: alone (before ',', ']', '}', white space
# or the end), or before a safe character, where YAML readers differ most.
_INDICATOR_NODES = ["-", "-", "-", "?", ":", "- ", "? ", ": ", "-#", "?x", ":x", "-x", "- x",
                    "? x", ": x", "-\t", "?\n"]  # fmt: skip


def _flow_node(draw: st.DrawFn, depth: int, key: bool = False) -> str:
    choice = draw(st.integers(0, 7))
    if depth < 3 and not key and choice <= 1:
        return _flow(draw, depth)
    if choice <= 3:
        # Calm texts take the '-' ones: '?' and ':' alone already send a text to the
        # referee under both loaders.
        return draw(st.sampled_from(_CALM_INDICATORS if draw(_CALM) else _INDICATOR_NODES))
    return _scalar(draw)


def _block_scalar(draw: st.DrawFn, indent: int) -> str:
    header = draw(st.sampled_from(["|", ">", "|-", ">+", "|2", "|1-", ">-2", "|0"]))
    header += _comment(draw)
    pad = " " * (indent + draw(st.integers(1, 3)))
    lines = draw(
        st.lists(st.sampled_from(["x", "y z", "\tt", " more", "", "\t", "  ", "# no"]), max_size=4)
    )
    return header + "".join("\n" + (pad + line if line else line) for line in lines)


def _value(draw: st.DrawFn, indent: int, depth: int) -> str:
    """What follows ``key:`` or ``-``: a separator and an inline value, or a line break
    and a nested block collection."""
    choice = draw(st.integers(0, 9))
    sep = draw(st.sampled_from(_SEP))
    if choice <= 3 or depth >= 3:
        return sep + _scalar(draw) + _comment(draw)
    if choice == 4:
        return sep + _flow(draw, depth) + _comment(draw)
    if choice == 5:
        return sep + _block_scalar(draw, indent)
    if choice == 6:
        return _comment(draw)  # empty value
    step = draw(st.sampled_from([1, 2, 2, 4, 0]))
    return _comment(draw) + "\n" + _block(draw, indent + step, depth + 1)


def _block(draw: st.DrawFn, indent: int, depth: int) -> str:
    lead = draw(st.sampled_from([" " * indent] * 12 + ["\t" + " " * indent, " " * indent + "\t"]))
    n = draw(st.integers(1, 3))
    lines = []
    if draw(st.booleans()):
        for _ in range(n):
            key = _scalar(draw) if draw(st.integers(0, 5)) else "? " + _scalar(draw) + "\n" + lead
            lines.append(lead + key + draw(st.sampled_from([":", " :", "\t:"])) + _value(
                draw, indent, depth))  # fmt: skip
    else:
        for _ in range(n):
            dash = draw(st.sampled_from(["-", "-", "- ", "-\t"]))
            lines.append(lead + dash + _value(draw, indent, depth))
    blank = draw(st.sampled_from(["\n", "\n", "\n\n", "\n \n", "\n\t\n", "\n# c\n", "\n\t# c\n"]))
    return blank.join(lines)


@st.composite
def yaml_texts(draw: st.DrawFn) -> str:
    """A YAML-looking payload: a block or flow document, then up to four edits; half of
    them without a tab."""
    prefix = draw(st.sampled_from(["", "", "", "---\n", "# c\n", "%YAML 1.2\n---\n", "\ufeff"]))
    body = _flow(draw, 0) if draw(st.integers(0, 4)) == 0 else _block(draw, 0, 0)
    text = prefix + body + draw(st.sampled_from(["", "\n", "\n...\n", "\n---\nx\n", "\t\n"]))
    edits: list[Any] = draw(
        st.lists(
            st.tuples(
                st.floats(0, 1),
                st.sampled_from(
                    [
                        "\t",
                        " ",
                        "?",
                        ":",
                        "- ",
                        "\n",
                        "#",
                        ",",
                        "\t#",
                        "\r\n",
                        "[",
                        "]",
                        "{",
                        "}",
                        "'",
                        '"',
                        "|",
                        "\\",
                    ]
                ),
            ),
            max_size=draw(st.sampled_from([0, 0, 1, 4])),
        )
    )
    if draw(_CALM):
        return text.replace("\t", " ")
    for fraction, piece in edits:
        at = int(fraction * len(text))
        text = text[:at] + piece + text[at:]
    if draw(st.booleans()):
        # Half the texts hold no tab, so that PyYAML's C parser reads them too.
        text = text.replace("\t", " ")
    return text
