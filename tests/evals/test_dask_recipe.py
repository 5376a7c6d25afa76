"""The Dask recipe of docs/evals.md, run for real: dask.bag over JSON Lines files on a
distributed.LocalCluster of worker processes, partial tallies merged; the figures are
the audit command's, a line that is not UTF-8 included (one input error, not a failed
computation)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import dask.bag as db
from distributed import Client, LocalCluster

from replykit.cli import main
from replykit.evals import Tally, audit_lines, merge_tallies, tally_results

FORM = (
    'Pick:\n\n<questionnaire>{"questions":[{"type":"single_choice","text":"Which?",'
    '"options":["a","b"],"default":"a"}]}</questionnaire>\n'
)
TILDE = "Pick one:\n\n~~~questionnaire\ntitle: T\n~~~\n"
DOC = Path(__file__).resolve().parents[2] / "docs" / "evals.md"


def recipe_read_text() -> str:
    """The recipe's ``read_text`` call, as docs/evals.md writes it."""
    section = DOC.read_text("utf-8").split("### Dask", 1)[1].split("\n### ", 1)[0]
    (call,) = re.findall(r"db\.read_text\((.*)\)\n", section)
    return call


def test_dask_bag_on_a_local_cluster(tmp_path: Path, capsys: Any) -> None:
    breaks = [b"\n", b"\r\n", b"\n"]  # not a lone CR: dask.bag.read_text splits there
    for part in range(3):
        lines = [
            json.dumps(
                {
                    "model": f"m{i % 2}",
                    "expect": "form" if i % 3 else "none",
                    "messages": [{"role": "assistant", "content": [FORM, TILDE][i % 2]}],
                }
            ).encode()
            for i in range(part * 40, part * 40 + 40)
        ]
        # Blank lines (no records), a broken record, a message without a role, a line
        # that is not UTF-8 (a byte 0xff inside a string).
        lines[5:5] = [b"", b"  \t"]
        lines[20:20] = [b'{"model": "m0", "messages": [', b'{"messages": [{"content": "x"}]}']
        lines[30:30] = [b'{"model": "m1", "messages": "\xff"}']
        bom = b"\xef\xbb\xbf" if part == 1 else b""
        data = bom + breaks[part].join(lines) + breaks[part]
        (tmp_path / f"part-{part}.jsonl").write_bytes(data)
    files = str(tmp_path / "*.jsonl")
    assert recipe_read_text() == '"runs/*.jsonl", include_path=True, errors="surrogateescape"'

    # The recipe (docs/evals.md, "Dask").
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster),
    ):
        lines = db.read_text(files, include_path=True, errors="surrogateescape")
        results = lines.map_partitions(audit_lines, group_by="model", expect_field="expect")
        tally = results.reduction(tally_results, merge_tallies).compute()

    assert isinstance(tally, Tally)
    summary = tally.summary()
    assert (summary["records"], summary["messages"], summary["input_errors"]["count"]) == (
        129,
        120,
        9,
    )
    main(
        [
            "audit",
            str(tmp_path),
            "--group-by",
            "model",
            "--expect-field",
            "expect",
            "--format",
            "json",
        ]
    )
    from_cli = json.loads(capsys.readouterr().out)
    # The same figures, the same first examples, the same input errors at the same
    # file:line (blank lines are no records; every line end counts).
    assert summary == from_cli
    assert [(e["where"], e["message"]) for e in summary["input_errors"]["first"]][1:3] == [
        (f"{tmp_path}/part-0.jsonl:22", "messages[0] has no role"),
        (f"{tmp_path}/part-0.jsonl:31", "not UTF-8 (byte 29)"),
    ]
