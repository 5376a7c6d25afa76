"""One check shared by the fast-path tests: two readings of a form agree."""

from __future__ import annotations

from replykit.questionnaire.payload.results import FormRead


def assert_same_read(fast: FormRead, full: FormRead) -> None:
    """``fast`` equals ``full`` in value, findings, overflow and spans."""
    assert fast.value == full.value
    assert fast.findings == full.findings
    assert fast.overflow == full.overflow
    assert dict(fast.spans) == dict(full.spans)
