"""Write examples/audit/replies.jsonl: stored replies of two imaginary models to the same
150 prompts, with the faults models really make (docs/evals.md).

Each line is ``{"id", "model", "expect", "messages": [user, assistant]}``; ``expect`` is
``form`` where the prompt calls for a form, ``none`` where it does not. ``kestrel-7b``
is the careful model, ``wren-3b`` the sloppy one. One line is cut short, as a logger
killed mid-write leaves it. Deterministic: ``python examples/audit/make_dataset.py``
rewrites the same bytes.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path

OUT = Path(__file__).with_name("replies.jsonl")
PROMPTS = 150
# Share of form-due prompts answered with a faulty form (or none), and of the others
# answered with a form nobody asked for.
FAULT_RATE = {"kestrel-7b": 0.14, "wren-3b": 0.38}
UNASKED_RATE = {"kestrel-7b": 0.04, "wren-3b": 0.16}

TOPICS = [
    (
        "book a team offsite",
        "Which city?",
        ["Lisbon", "Kraków", "Valencia"],
        "Which sessions do you want?",
        ["Planning", "Retro", "Hackathon", "Workshops"],
    ),
    (
        "roll out api-gateway 2.4.1",
        "What should happen to the paused rollout?",
        ["Resume it", "Roll back", "Leave it paused"],
        "Which pools first?",
        ["eu-west", "us-east", "ap-south"],
    ),
    (
        "plan the sprint",
        "How long is the sprint?",
        ["One week", "Two weeks"],
        "Which epics are in scope?",
        ["Billing", "Search", "Onboarding", "Reports"],
    ),
    (
        "set up the new laptop",
        "Which OS image?",
        ["Debian 13", "Ubuntu 24.04", "Fedora 41"],
        "Which tools should I install?",
        ["git", "docker", "node", "python"],
    ),
    (
        "write the release notes",
        "Which tone?",
        ["Formal", "Friendly", "Terse"],
        "Which sections?",
        ["Features", "Fixes", "Breaking changes", "Thanks"],
    ),
    (
        "order lunch for the workshop",
        "Which caterer?",
        ["Green Bowl", "Sushi Go", "Pasta Lab"],
        "Dietary needs to cover?",
        ["Vegetarian", "Vegan", "Gluten-free", "Halal"],
    ),
]
PROSE = [
    "The migration finished; 3 tables were rewritten and the indexes rebuilt.",
    "Here is the summary you asked for:\n\n- 42 tickets closed\n- 5 reopened\n- 2 duplicates",
    "The failing test was a timezone bug in `parse_date`; I pinned the zone to UTC.",
    "Done. The report is in `reports/q3.pdf` and the raw numbers in `reports/q3.csv`.",
    "Use `git rebase -i HEAD~3` and mark the last two commits as `fixup`.",
    "An example of the form syntax, shown as code:\n\n````markdown\n```questionnaire\n"
    'title: Example\nquestions:\n  - type: free_text\n    text: Name?\n    default: ""\n'
    "```\n````\n\nIt is only an illustration.",
]


def yaml_form(topic: tuple, *, info: str = "questionnaire", fence: str = "```") -> str:
    task, q1, o1, q2, o2 = topic
    options1 = "\n".join(f"      - {o}" for o in o1)
    options2 = "\n".join(f"      - {o}" for o in o2)
    return (
        f"{fence}{info}\ntitle: {task.capitalize()}\nquestions:\n"
        f"  - type: single_choice\n    text: {q1}\n    options:\n{options1}\n"
        f"    default: {o1[0]}\n"
        f"  - type: multi_choice\n    text: {q2}\n    options:\n{options2}\n"
        f"    default:\n      - {o2[0]}\n    allow_other: true\n{fence}\n"
    )


def xml_form(topic: tuple, *, name: str = "questionnaire", attrs: str = "") -> str:
    task, q1, o1, q2, o2 = topic
    payload = {
        "title": task.capitalize(),
        "questions": [
            {"type": "single_choice", "text": q1, "options": o1, "default": o1[0]},
            {"type": "multi_choice", "text": q2, "options": o2, "default": [o2[0]]},
        ],
    }
    body = json.dumps(payload, ensure_ascii=False)
    return f"<{name}{attrs}>{body}</{name}>\n"


def intro(topic: tuple) -> str:
    return f"Before I {topic[0]}, a few choices:\n\n"


# Each fault turns a topic into a whole reply.
FAULTS: dict[str, Callable[[tuple], str]] = {
    "no_preface": lambda t: yaml_form(t),
    "unclosed_fence": lambda t: intro(t) + yaml_form(t).rsplit("```", 1)[0],
    "case_fence": lambda t: intro(t) + yaml_form(t, info="Questionnaire"),
    "case_tag": lambda t: intro(t) + xml_form(t, name="Questionnaire"),
    "tilde": lambda t: intro(t) + yaml_form(t, fence="~~~"),
    "extra_words": lambda t: intro(t) + yaml_form(t, info="questionnaire yaml"),
    "in_quote": lambda t: intro(t) + "".join("> " + x + "\n" for x in yaml_form(t).splitlines()),
    "unclosed_tag": lambda t: intro(t) + xml_form(t).replace("</questionnaire>", ""),
    "tag_attributes": lambda t: intro(t) + xml_form(t, attrs=' timeout_seconds="60"'),
    "smart_quotes": lambda t: intro(t) + xml_form(t).replace('"title"', "“title”"),
    "trailing_comma": lambda t: intro(t) + xml_form(t).replace("]}]}", "]},]}"),
    "type_alias": lambda t: intro(t) + yaml_form(t).replace("multi_choice", "multiple_choice"),
    "default_not_option": lambda t: (
        intro(t) + yaml_form(t).replace(f"default: {t[2][0]}", "default: Not sure")
    ),
    "unregistered": lambda t: intro(t) + xml_form(t, name="acme-questionnaire"),
    "prose_questions": lambda t: f"Happy to {t[0]}. {t[1]} {' or '.join(t[2])}? And {t[3].lower()}",
}
# How often each model makes each fault, relative to its others.
FAULT_WEIGHTS = {
    "kestrel-7b": {
        "case_tag": 3,
        "tag_attributes": 3,
        "extra_words": 2,
        "prose_questions": 2,
        "type_alias": 1,
        "unregistered": 1,
        "tilde": 1,
    },
    "wren-3b": {
        "no_preface": 3,
        "unclosed_fence": 2,
        "case_fence": 2,
        "tilde": 2,
        "in_quote": 2,
        "unclosed_tag": 2,
        "smart_quotes": 3,
        "trailing_comma": 3,
        "type_alias": 2,
        "default_not_option": 2,
        "prose_questions": 3,
        "tag_attributes": 1,
    },
}


def reply(model: str, expect: str, topic: tuple, rng: random.Random) -> str:
    if expect == "none":
        text = rng.choice(PROSE)
        if rng.random() < UNASKED_RATE[model]:
            text += "\n\nShall I go on?\n\n" + xml_form(topic)
        return text
    if rng.random() < FAULT_RATE[model]:
        kinds = FAULT_WEIGHTS[model]
        fault = rng.choices(list(kinds), weights=list(kinds.values()))[0]
        return FAULTS[fault](topic)
    good = yaml_form if rng.random() < 0.5 else xml_form
    return intro(topic) + good(topic)


def records() -> list[dict[str, object]]:
    rng = random.Random(14)
    plan = [
        (n, "form" if rng.random() < 0.6 else "none", rng.choice(TOPICS)) for n in range(PROMPTS)
    ]
    out: list[dict[str, object]] = []
    for model in FAULT_RATE:
        for n, expect, topic in plan:
            text = reply(model, expect, topic, rng)
            # wren-3b's logs store Anthropic content blocks, kestrel-7b's plain strings.
            content: object = [{"type": "text", "text": text}] if model == "wren-3b" else text
            user = f"Please {topic[0]}." if expect == "form" else "Status update please."
            out.append(
                {
                    "id": f"{model}-{n:03d}",
                    "model": model,
                    "expect": expect,
                    "messages": [
                        {"role": "user", "content": user},
                        {"role": "assistant", "content": content},
                    ],
                }
            )
    return out


def main() -> None:
    lines = [json.dumps(r, ensure_ascii=False) for r in records()]
    lines[217] = lines[217][: len(lines[217]) // 2]  # a write cut short
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
