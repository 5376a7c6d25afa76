"""The invariant fuzz target (§1-§8) runs clean for a bounded number of inputs,
and its checks do catch broken results."""

from __future__ import annotations

import attrs
import pytest

from replykit import Segment, Segmentation, segment
from replykit.testing.fuzzing import InvariantError, check_segmentation, main, run


def test_bounded_run_finds_nothing() -> None:
    report = run(examples=300, seed=1)
    assert report.inputs >= 300


def test_command_line_reports_inputs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--examples", "50", "--seed", "2"]) == 0
    assert "50 inputs" in capsys.readouterr().out
    with pytest.raises(SystemExit) as stop:
        main(["--examples", "0"])
    assert stop.value.code == 2


TEXT = "Intro\n\n<questionnaire>{}</questionnaire>\ntail"


def test_a_gap_an_overlap_and_adjacent_markdown_cannot_be_built() -> None:
    """The model refuses these segmentations (a construction error naming the field),
    so no checker ever meets one."""
    good = segment(TEXT)
    check_segmentation(TEXT, good)
    first, block, last = good.segments
    with pytest.raises(ValueError, match="segments must be contiguous"):
        Segmentation((first, last), good.diagnostics)  # a gap
    with pytest.raises(ValueError, match="text must have end - start"):
        attrs.evolve(block, start=block.start - 1)  # text mismatch
    adjacent = (
        Segment("markdown", 0, 3, TEXT[:3]),
        Segment("markdown", 3, first.end, TEXT[3 : first.end]),
        block,
        last,
    )
    with pytest.raises(ValueError, match="two adjacent markdown"):
        Segmentation(adjacent, good.diagnostics)


def test_checker_rejects_a_segmentation_of_another_text() -> None:
    good = segment(TEXT)
    with pytest.raises(InvariantError):
        check_segmentation(TEXT.replace("Intro", "Other"), good)


def test_checker_rejects_a_diagnostic_outside_its_segment() -> None:
    text = "Intro <questionnaire>{NaN}</questionnaire>"
    good = segment(text)
    block = good.segments[1]
    moved = attrs.evolve(block.diagnostics[0], start=0, end=1)
    bad = attrs.evolve(block, diagnostics=(moved,))
    with pytest.raises(InvariantError, match="outside its segment"):
        check_segmentation(text, Segmentation((good.segments[0], bad), good.diagnostics))
