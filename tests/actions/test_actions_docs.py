"""docs/actions.md states the same codes and compatibility table as the code."""

from __future__ import annotations

import re
from pathlib import Path

from replykit.actions import COMPATIBLE_SHAPES, DATA_SHAPES

DOC = (Path(__file__).parents[2] / "docs" / "actions.md").read_text(encoding="utf-8")

CODES = [
    "actions.not_list",
    "actions.misplaced",
    "action.not_object",
    "action.type_unknown",
    "action.id_invalid",
    "action.id_reserved",
    "action.id_duplicate",
    "action.label_invalid",
    "action.prompt_required",
    "action.chart_type_invalid",
    "action.target_invalid",
    "action.over_limit",
    "action.field_removed",
    "action.text_unsafe",
]


def test_codes_table_lists_every_sanitize_code_in_order() -> None:
    rows = re.findall(r"^\| `(actions?\.[a-z_]+)` \|", DOC, flags=re.MULTILINE)
    assert rows == CODES


def test_compatibility_table_matches_the_code() -> None:
    rows = re.findall(r"^\| (\w+) \| (yes\*?|no) \| (yes\*?|no) \| (yes\*?|no) \| (yes\*?|no) \|$",
                      DOC, flags=re.MULTILINE)  # fmt: skip
    table = {row[0]: {s for s, cell in zip(DATA_SHAPES, row[1:], strict=True) if cell != "no"}
             for row in rows}  # fmt: skip
    assert table == {k: set(v) for k, v in COMPATIBLE_SHAPES.items()}
