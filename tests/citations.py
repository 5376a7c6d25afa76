"""What the repository's texts cite, and the headings those citations must name.

A rule is cited as ``§N`` (``§4``, ``§3a``, ``§4.3``): a heading of docs/protocol.md,
whose section N is rule §N. Another docs file is cited by its own numbered headings:
``docs/actions.md section 9``, or, inside that file, ``section 9``. The headings are
read from the files, so renumbering a document makes every stale citation fail.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROTOCOL = ROOT / "docs" / "protocol.md"

#: A citation of docs/protocol.md: ``§4``, ``§3a``, ``§4.3`` (the number only).
SECTION = re.compile(r"§(\d+[a-z]?(?:\.\d+)*)")
#: A citation of another docs file's numbered section, with the files' own numbers:
#: ``docs/actions.md section 9``, ``(`docs/protocol-responses.md`, sections 3 and 4)``.
_NUMBERS = r"(\d+(?:\.\d+)*(?:(?:,| and| or|,? to|-)\s+\d+(?:\.\d+)*)*)"
FILE_SECTION = re.compile(r"`?docs/([\w-]+\.md)`?,?\s+sections?\s+" + _NUMBERS)
#: The same, written the other way round: ``section 2 of `docs/protocol-responses.md```.
SECTION_OF_FILE = re.compile(r"sections?\s+" + _NUMBERS + r"\s+of\s+`?docs/([\w-]+\.md)")
#: A bare ``section N`` (the file it stands in, for a docs file).
BARE_SECTION = re.compile(r"(?<![\w/.`-])sections?\s+" + _NUMBERS)

_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_CLOSER = re.compile(r"^ {0,3}(`{3,}|~{3,})[ \t]*$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*$")


def headings(text: str) -> list[str]:
    """The text of every ATX heading of a Markdown document, outside fenced code."""
    found: list[str] = []
    fence: str | None = None
    for line in text.splitlines():
        opener = _FENCE.match(line)
        if fence is not None:
            closer = _CLOSER.match(line)
            if closer and closer.group(1)[0] == fence[0] and len(closer.group(1)) >= len(fence):
                fence = None
            continue
        if opener:
            fence = opener.group(1)
            continue
        heading = _HEADING.match(line)
        if heading:
            found.append(heading.group(2))
    return found


def protocol_sections(text: str) -> set[str]:
    """The rule numbers docs/protocol.md's headings carry: ``## §4 ...`` -> ``"4"``,
    ``### §4.3 ...`` -> ``"4.3"``, ``### §3a ...`` -> ``"3a"``."""
    numbers = set()
    for heading in headings(text):
        m = re.match(r"§(\d+[a-z]?(?:\.\d+)*)(?=\s)", heading)
        if m:
            numbers.add(m.group(1))
    return numbers


def numbered_sections(text: str) -> set[str]:
    """The section numbers of a docs file that numbers its headings ``## 2. Title`` or
    ``### 2.1 Title``: ``{"2", "2.1"}``."""
    numbers = set()
    for heading in headings(text):
        m = re.match(r"(\d+(?:\.\d+)*)\.?\s", heading)
        if m:
            numbers.add(m.group(1))
    return numbers


def split_numbers(numbers: str) -> list[str]:
    """``"3 and 4"``, ``"1-4"``, ``"2, 2.1"`` -> each number."""
    return re.findall(r"\d+(?:\.\d+)*", numbers)


def line_of(text: str, offset: int) -> int:
    """The 1-based line of ``offset`` in ``text``."""
    return text.count("\n", 0, offset) + 1


def files(
    *parts: str, suffixes: tuple[str, ...] = (".py", ".md", ".lark", ".toml")
) -> Iterator[Path]:
    """Every file under each of ``parts`` (relative to the repository; a file or a
    folder) whose name ends with one of ``suffixes``, caches and virtualenvs left out."""
    for part in parts:
        path = ROOT / part
        candidates = [path] if path.is_file() else sorted(path.rglob("*"))
        for candidate in candidates:
            if not candidate.is_file() or candidate.suffix not in suffixes:
                continue
            if any(
                p.startswith(".") or p == "__pycache__" for p in candidate.relative_to(ROOT).parts
            ):
                continue
            yield candidate
