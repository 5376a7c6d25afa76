"""Bounded output of every command on every hostile family (§1; docs/performance.md).

Each command of :data:`replykit.testing.hostile.COMMANDS` runs in process on the input
:func:`replykit.testing.hostile.command_input` builds for every family, message and JSON, at
two sizes (the family's own input about 16 KB and twice that). Output bytes are
counted, never timed. Two bounds:

- at the larger size, output <= 16 x input + 256 KiB (the §1 figure);
- the growth from the smaller to the larger size is at most 16 x the input's growth
  plus 8 KiB, plus 128 bytes for each further verdict the cap must keep (§1: the first
  error of every invalid block, every near-miss, every ``name.unregistered``), so an
  output that grows faster than the input fails at a size the 256 KiB would hide.

Memory and time are measured by ``benchmarks/amplification.py``, not here.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from replykit import segment
from replykit.cli import main
from replykit.questionnaire.profiles import CLIENT, SELF_CHECK
from replykit.testing.hostile import (
    COMMANDS,
    FAMILIES,
    JSON_FAMILIES,
    CommandInput,
    Family,
    JsonFamily,
    command_input,
)

FACTOR, SLACK, GROWTH_SLACK, PER_VERDICT = 16, 256 * 1024, 8 * 1024, 128
TARGET = 16 * 1024
# The commands a family exempts (hostile.Family.exempt, docs/performance.md): their
# output grows by at most this many bytes per unit §1 makes them print, a kept
# near-miss (a diagnostic object or line) or a failing conversation (a JSON Lines
# result with its whole repair instruction).
PER_NEAR_MISS, PER_CONVERSATION = 400, 1100

EVERY: list[Family | JsonFamily] = [*FAMILIES, *JSON_FAMILIES]


def own_size(family: Family | JsonFamily, n: int) -> int:
    built = family.build(n)
    text = built if isinstance(built, str) else built.json
    return len(text.encode("utf-8"))


def base_n(family: Family | JsonFamily) -> int:
    """The smallest power-of-two multiple of a small start whose own input reaches
    :data:`TARGET` bytes."""
    n = 8
    while own_size(family, n) < TARGET:
        n *= 2
    return n


def run(inp: CommandInput, tmp: Path, monkeypatch: pytest.MonkeyPatch) -> int:
    """Output bytes of ``replykit`` on ``inp`` (run in this process)."""
    argv = list(inp.argv)
    for key, text in inp.files.items():
        path = tmp / f"{key}.txt"
        path.write_bytes(text.encode("utf-8", "surrogatepass"))
        argv = [a.replace("{" + key + "}", str(path)) for a in argv]
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", out)
    monkeypatch.setattr(sys, "stderr", io.StringIO())
    status = main(argv)
    out.flush()
    assert status in (0, 1, 2)
    return len(raw.getvalue())


def verdicts(command: str, inp: CommandInput) -> int:
    """How many diagnostics the cap must keep in this command's output."""
    if not command.startswith(("segment", "check")):
        return 0
    profile = SELF_CHECK if command == "check" else CLIENT
    result = segment(inp.files.get("message", ""), profile=profile)
    count = sum(
        1
        for d in result.diagnostics
        if d.code.startswith("near_miss.") or d.code == "name.unregistered"
    )
    return count + sum(
        1 for s in result.segments if any(d.severity == "error" for d in s.diagnostics)
    )


@pytest.mark.parametrize("family", EVERY, ids=lambda f: f.name)
def test_every_command_output_is_bounded(
    family: Family | JsonFamily, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    n = base_n(family)
    for command in COMMANDS:
        small = command_input(command, family, n)
        large = command_input(command, family, 2 * n)
        if command == "check":  # the check input for message families is the message
            small = _with_message(small, family, n)
            large = _with_message(large, family, 2 * n)
        out_small = run(small, tmp_path, monkeypatch)
        out_large = run(large, tmp_path, monkeypatch)
        where = (family.name, command, small.size, out_small, large.size, out_large)
        if command in family.exempt:
            _check_exempt(family, command, small, large, out_small, out_large)
            continue
        assert out_large <= FACTOR * large.size + SLACK, where
        grown = FACTOR * max(large.size - small.size, 0) + GROWTH_SLACK
        extra = PER_VERDICT * max(verdicts(command, large) - verdicts(command, small), 0)
        assert out_large - out_small <= grown + extra, where


def _units(command: str, inp: CommandInput) -> int:
    if command == "check" and inp.files["conversation"].count("\n") > 1:
        return inp.files["conversation"].count("\n")  # JSON Lines: one per conversation
    return verdicts(command, inp)


def _check_exempt(
    family: Family | JsonFamily,
    command: str,
    small: CommandInput,
    large: CommandInput,
    out_small: int,
    out_large: int,
) -> None:
    """An exempt command's output grows by a bounded amount per unit it must print, and
    the exemption is needed: it grows faster than 16x the input."""
    units = _units(command, large) - _units(command, small)
    per_unit = PER_CONVERSATION if isinstance(family, JsonFamily) else PER_NEAR_MISS
    where = (family.name, command, small.size, out_small, large.size, out_large, units)
    assert units > 0, where
    assert out_large - out_small <= per_unit * units + GROWTH_SLACK, where
    assert out_large - out_small > FACTOR * (large.size - small.size), where


def test_exemptions_are_the_documented_ones() -> None:
    exempt = {(f.name, c) for f in EVERY for c in f.exempt}
    assert exempt == {
        ("near_miss_lines", "segment-json"),
        ("near_miss_lines", "segment-text"),
        ("near_miss_lines", "check"),
        ("check_failing_lines", "check"),
    }
    doc = (Path(__file__).resolve().parents[1] / "docs" / "performance.md").read_text("utf-8")
    assert all(f"`{name}`" in doc for name, _ in exempt)


def _with_message(inp: CommandInput, family: Family | JsonFamily, n: int) -> CommandInput:
    """``inp`` with the inspected message kept beside it, for :func:`verdicts`."""
    message = command_input("segment-text", family, n).files["message"]
    return CommandInput(inp.argv, {**inp.files, "message": message}, inp.size)


def test_json_families_cover_every_command_they_are_made_for() -> None:
    assert {f.command for f in JSON_FAMILIES} == {"tool", "actions", "respond", "check"}
    for family in JSON_FAMILIES:
        inp = command_input(family.command, family, 4)
        assert inp.size == sum(len(t.encode()) for t in inp.files.values()) + (
            len("msg-01") if "msg-01" in inp.argv else 0
        )


def _near_misses_only(family: Family) -> bool:
    """Whether the family's message keeps near-misses and no invalid block."""
    result = segment(family.build(max(family.n // 10, 10)))
    return any(d.code.startswith("near_miss.") for d in result.diagnostics) and not any(
        d.severity == "error" for s in result.segments for d in s.diagnostics
    )


NEAR_MISS_FAMILIES = [f for f in FAMILIES if _near_misses_only(f)]


def test_the_near_miss_families_are_those_of_tags_and_fence_lines() -> None:
    names = {f.name for f in NEAR_MISS_FAMILIES}
    assert {"unclosed_tags_with_attributes", "fence_indent_lines", "unclosed_tags"} <= names
    assert "candidates_on_one_line" not in names  # invalid blocks: the allowance stays


@pytest.mark.parametrize("family", NEAR_MISS_FAMILIES, ids=lambda f: f.name)
def test_near_misses_need_no_allowance(
    family: Family, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A near-miss is printed once per hostile tag or line: its message is short enough
    that ``segment`` and ``check`` grow at most 16x the input's growth plus 8 KiB, with
    no allowance per kept verdict (§1)."""
    n = base_n(family)
    for command in ("segment-json", "segment-text", "check"):
        if command in family.exempt:
            continue  # four near-misses per 22 bytes: test_every_command_output_is_bounded
        small = command_input(command, family, n)
        large = command_input(command, family, 2 * n)
        out_small = run(small, tmp_path, monkeypatch)
        out_large = run(large, tmp_path, monkeypatch)
        where = (family.name, command, small.size, out_small, large.size, out_large)
        grown = FACTOR * (large.size - small.size) + GROWTH_SLACK
        assert out_large - out_small <= grown, where


def test_tag_near_miss_messages() -> None:
    text = 'x <questionnaire >{}</questionnaire> <questionnaire id="1">'
    assert [(d.code, d.message) for d in segment(text).diagnostics] == [
        ("near_miss.tag_attributes", "'<questionnaire>' takes no spaces inside the brackets"),
        ("near_miss.tag_attributes", "'<questionnaire>' takes no attributes"),
        ("near_miss.unclosed_tag", "no '</questionnaire>' follows this tag"),
    ]
