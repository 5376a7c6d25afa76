"""The Dask recipe of docs/evals.md, run for real: dask.bag over JSON Lines files on a
distributed.LocalCluster of worker processes, partial tallies merged; the figures are
the audit command's."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import dask.bag as db
from distributed import Client, LocalCluster

from replykit.cli import main
from replykit.evals import Tally, audit_json, merge_tallies, tally_results

FORM = (
    'Pick:\n\n<questionnaire>{"questions":[{"type":"single_choice","text":"Which?",'
    '"options":["a","b"],"default":"a"}]}</questionnaire>\n'
)
TILDE = "Pick one:\n\n~~~questionnaire\ntitle: T\n~~~\n"


def _without_examples(summary: dict[str, Any]) -> dict[str, Any]:
    for group in summary["groups"]:
        for code in group["codes"]:
            code.pop("first")
    summary["input_errors"].pop("first")
    return summary


def test_dask_bag_on_a_local_cluster(tmp_path: Path, capsys: Any) -> None:
    for part in range(3):
        lines = [
            json.dumps(
                {
                    "model": f"m{i % 2}",
                    "expect": "form" if i % 3 else "none",
                    "messages": [{"role": "assistant", "content": [FORM, TILDE][i % 2]}],
                }
            )
            for i in range(part * 40, part * 40 + 40)
        ] + ['{"model": "m0", "messages": [']
        (tmp_path / f"part-{part}.jsonl").write_text("\n".join(lines) + "\n", "utf-8")
    files = str(tmp_path / "*.jsonl")

    # The recipe (docs/evals.md, "Dask").
    with (
        LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        Client(cluster),
    ):
        results = db.read_text(files).map(audit_json, group_by="model", expect_field="expect")
        tally = results.reduction(tally_results, merge_tallies).compute()

    assert isinstance(tally, Tally)
    summary = tally.summary()
    assert (summary["records"], summary["messages"], summary["input_errors"]["count"]) == (
        123,
        120,
        3,
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
    assert _without_examples(summary) == _without_examples(from_cli)
