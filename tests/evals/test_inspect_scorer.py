"""The inspect_ai scorer, run in a real (small) inspect_ai evaluation against its mock
model: a protocol failure is a counted score, not an error."""

from __future__ import annotations

from pathlib import Path

import pytest
from inspect_ai import Task, eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.solver import generate

from replykit.evals.inspect_scorer import protocol_compliance

FORM = (
    'Pick:\n\n<questionnaire>{"questions":[{"type":"single_choice","text":"Which?",'
    '"options":["a","b"],"default":"a"}]}</questionnaire>\n'
)
TILDE = "Pick one:\n\n~~~questionnaire\ntitle: T\n~~~\n"
CASE = FORM.replace("<questionnaire>", "<Questionnaire>").replace("</q", "</Q")


def output(reply: str) -> ModelOutput:
    out = ModelOutput.from_content(model="mockllm/model", content=reply)
    # Usage given, so the mock model counts no tokens (its counter fetches an encoding).
    out.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
    return out


def test_scorer_in_an_evaluation(tmp_path: Path) -> None:
    replies = [FORM, TILDE, "No form.", FORM, CASE, "Hello!"]
    # None: a record without the field (FieldSpec stores None), no override of "any".
    expects = ["form", "any", "form", "none", "any", None]
    model = get_model("mockllm/model", custom_outputs=[output(r) for r in replies])
    task = Task(
        dataset=[
            Sample(input=f"prompt {i}", target="", metadata={"expect": e})
            for i, e in enumerate(expects)
        ],
        solver=generate(),
        scorer=protocol_compliance(lenient=True),
    )
    (log,) = eval(task, model=model, log_dir=str(tmp_path), display="none", max_connections=1)
    assert log.status == "success", log.error
    assert log.results is not None
    metrics = log.results.scores[0].metrics
    assert metrics["accuracy"].value == pytest.approx(2 / 6)
    assert log.samples is not None
    scores = {s.input: s.scores["protocol_compliance"] for s in log.samples}  # type: ignore[index]
    got = {k: (v.value, v.metadata["codes"] if v.metadata else None) for k, v in scores.items()}
    assert got == {
        "prompt 0": ("C", []),
        "prompt 1": ("I", ["near_miss.tilde"]),
        "prompt 2": ("I", ["expect.form_missing"]),
        "prompt 3": ("I", ["expect.block_present"]),
        "prompt 4": ("I", ["near_miss.case"]),
        "prompt 5": ("C", []),
    }
    lenient = scores["prompt 4"].metadata
    assert lenient is not None and lenient["lenient_passed"] is True
    assert scores["prompt 1"].explanation == "near_miss.tilde 3:1 " + (
        "'~~~questionnaire' uses tildes; a questionnaire fence takes backticks"
    )
