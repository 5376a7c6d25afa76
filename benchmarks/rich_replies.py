"""Rich assistant replies for the benchmarks (docs/performance.md, "Speed targets").

Each reply is 1-4 KB of assistant prose with nested lists, a block quote, a table, a
code block and one form of 2-4 questions at the end: fenced YAML for most, XML+JSON
(``<questionnaire>{...}</questionnaire>``) for one reply in eight, in English and in
Chinese. The text is written for this file: 14 topics, each read in four layouts
(which paragraphs, the order of the parts, how many questions, how the form is
written), 56 replies in all.

:func:`replies` returns them with the form each one states (:class:`RichReply`), so a
test can check that every reply gives exactly that one valid form
(``tests/test_rich_replies.py``). Nothing here is timed.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

#: A question as the form states it: ``type``, ``text``, ``options`` (choice types),
#: ``default`` and, when given, ``allow_other``.
Question = dict[str, Any]


def single(text: str, options: list[str], default: str, other: bool | None = None) -> Question:
    q: Question = {"type": "single_choice", "text": text, "options": options, "default": default}
    if other is not None:
        q["allow_other"] = other
    return q


def multi(text: str, options: list[str], default: list[str], other: bool | None = None) -> Question:
    q: Question = {"type": "multi_choice", "text": text, "options": options, "default": default}
    if other is not None:
        q["allow_other"] = other
    return q


def free(text: str, default: str = "") -> Question:
    return {"type": "free_text", "text": text, "default": default}


@dataclass(frozen=True)
class Topic:
    """The parts of one topic's replies; ``intros`` has two paragraphs."""

    lang: str
    heading: str
    intros: tuple[str, str]
    nested_list: str
    quote: str
    table: str
    code: str
    outro: str
    title: str
    questions: tuple[Question, Question, Question, Question]
    quote_all: bool = False


@dataclass(frozen=True)
class RichReply:
    """One reply: its ``text``, the ``encoding`` of its form (``fenced_yaml`` or
    ``xml_json``) and the ``title`` and ``questions`` the form states."""

    text: str
    encoding: str
    title: str
    questions: tuple[Question, ...]


TOPICS: tuple[Topic, ...] = (
    Topic(
        lang="en",
        heading="## Why the orders query got slow",
        intros=(
            "I looked at the plan you pasted. The query on `orders` filters by `customer_id` "
            "and sorts by `created_at DESC`, but the only index that covers `customer_id` is "
            "the old composite `(customer_id, status)`, so PostgreSQL reads every order of "
            "the customer and sorts them in memory. For your largest customers that is "
            "about **180 000 rows** per request, which matches the 900 ms you measured.",
            "Short version: the table grew past the point where a sort in memory is cheap, "
            "and the planner has no index that returns the rows already ordered. Adding one "
            "fixes the read path; the open question is how to build it without blocking "
            "writes during business hours.",
        ),
        nested_list=(
            "What I would change, in order:\n\n"
            "1. Add an index that matches the access pattern:\n"
            "   - `(customer_id, created_at DESC)` covers the filter and the sort;\n"
            "   - build it `CONCURRENTLY` so inserts keep working;\n"
            "     - it takes longer and cannot run inside a transaction;\n"
            "     - if it fails, drop the invalid index before retrying.\n"
            "2. Check the query again with `EXPLAIN (ANALYZE, BUFFERS)`:\n"
            "   - expect an *Index Scan* with a `LIMIT`, no *Sort* node;\n"
            "   - shared hits should fall from ~40 000 to a few hundred.\n"
            "3. Drop `(customer_id, status)` only after a week of `pg_stat_user_indexes` "
            "shows it unused."
        ),
        quote=(
            "> **Note:** `CREATE INDEX CONCURRENTLY` waits for every transaction that "
            "started before it. A long-running report query can hold it for hours, so "
            "check `pg_stat_activity` first."
        ),
        table=(
            "| Option | Build time (est.) | Blocks writes | Rollback |\n"
            "| --- | --- | --- | --- |\n"
            "| `CREATE INDEX` | ~4 min | yes | drop index |\n"
            "| `CREATE INDEX CONCURRENTLY` | ~11 min | no | drop index |\n"
            "| Partition by month | days of work | during migration | hard |"
        ),
        code=(
            "```sql\n"
            "CREATE INDEX CONCURRENTLY IF NOT EXISTS orders_customer_created_idx\n"
            "    ON orders (customer_id, created_at DESC);\n"
            "\n"
            "EXPLAIN (ANALYZE, BUFFERS)\n"
            "SELECT id, total, status\n"
            "FROM orders\n"
            "WHERE customer_id = $1\n"
            "ORDER BY created_at DESC\n"
            "LIMIT 50;\n"
            "```"
        ),
        outro="Before I write the migration, a few choices are yours:",
        title="Index migration for orders",
        questions=(
            single(
                "When should the index be built?",
                ["Now, concurrently", "Tonight in the maintenance window", "Not yet"],
                "Tonight in the maintenance window",
            ),
            multi(
                "Which checks should I include in the migration?",
                ["Lock timeout", "Statement timeout", "Invalid index cleanup"],
                ["Lock timeout", "Invalid index cleanup"],
            ),
            single(
                "Should I drop the old composite index in the same change?",
                ["Yes", "No, in a later change"],
                "No, in a later change",
            ),
            free("Anything about the deploy process I should know?"),
        ),
    ),
    Topic(
        lang="en",
        heading="### Moving from setup.py to pyproject.toml",
        intros=(
            "Your package still builds with `setup.py` and a `setup.cfg` that duplicates "
            "half of it. Since you already require Python 3.10, you can move everything "
            "to `pyproject.toml` and keep a single source of truth for metadata, "
            "dependencies and tool settings.",
            "I read through `setup.py`: apart from the version, which it reads from "
            "`src/tallyho/__init__.py` with a regular expression, nothing in it needs code. "
            "That makes the move mostly mechanical.",
        ),
        nested_list=(
            "The plan:\n\n"
            "- **Build backend**\n"
            "  - use `hatchling` (small, no plugins needed here);\n"
            "  - the version comes from `__init__.py` via `[tool.hatch.version]`.\n"
            "- **Metadata**\n"
            "  - name, description, license and classifiers move as they are;\n"
            "  - `install_requires` becomes `dependencies`;\n"
            "    - keep the upper bound on `click` (8.x), you pinned it for a reason;\n"
            "    - the `extras_require` groups become optional dependencies.\n"
            "- **Cleanup**\n"
            "  - delete `setup.py`, `setup.cfg` and `MANIFEST.in`;\n"
            "  - move the `flake8` settings to `ruff` or keep `.flake8`."
        ),
        quote=(
            "> Editable installs work the same (`pip install -e .`), but they need "
            "pip 21.3 or newer. Your CI image ships pip 20.2, so update it first."
        ),
        table=(
            "| setup.py / setup.cfg | pyproject.toml |\n"
            "| --- | --- |\n"
            "| `install_requires` | `[project] dependencies` |\n"
            "| `extras_require` | `[project.optional-dependencies]` |\n"
            "| `entry_points.console_scripts` | `[project.scripts]` |\n"
            "| `python_requires` | `requires-python` |"
        ),
        code=(
            "```toml\n"
            "[build-system]\n"
            'requires = ["hatchling>=1.21"]\n'
            'build-backend = "hatchling.build"\n'
            "\n"
            "[project]\n"
            'name = "tallyho"\n'
            'dynamic = ["version"]\n'
            'requires-python = ">=3.10"\n'
            'dependencies = ["click>=8,<9", "rich>=13"]\n'
            "\n"
            "[tool.hatch.version]\n"
            'path = "src/tallyho/__init__.py"\n'
            "```"
        ),
        outro="I can open the pull request once you confirm these points.",
        title="pyproject migration",
        questions=(
            single(
                "Which build backend do you prefer?",
                ["hatchling", "setuptools", "flit-core", "poetry-core"],
                "hatchling",
                other=True,
            ),
            single(
                "What should happen to the flake8 configuration?",
                ["Move it to ruff", "Keep .flake8 as it is"],
                "Move it to ruff",
            ),
            multi(
                "Which files may I delete?",
                ["setup.py", "setup.cfg", "MANIFEST.in", "requirements-dev.txt"],
                ["setup.py", "setup.cfg", "MANIFEST.in"],
            ),
            free("Is there anything that reads setup.py directly (scripts, docs builds)?"),
        ),
        quote_all=True,
    ),
    Topic(
        lang="en",
        heading="## The flaky integration job",
        intros=(
            "I went through the last 40 runs of the `integration` job. It failed 9 times, "
            "and 8 of those failures are the same test, `test_webhook_retries`, timing out "
            "after 30 seconds while waiting for the mock server. The ninth was a network "
            "error while pulling the Postgres image, which is unrelated.",
            "The webhook test starts the mock server in a background thread and sleeps "
            "for a fixed 200 ms before sending the first request. On the shared runners "
            "the server sometimes needs longer to bind, so the first request is refused "
            "and the retry logic under test backs off for the full 30 seconds.",
        ),
        nested_list=(
            "Three ways to fix it, from least to most work:\n\n"
            "- Wait for readiness instead of sleeping:\n"
            "  - poll `GET /health` every 50 ms, up to 5 s;\n"
            "  - fail with a clear message if it never answers.\n"
            "- Bind to port `0` and pass the real port to the test:\n"
            "  - removes the race *and* the port conflicts we saw in March;\n"
            "  - needs a small change in `conftest.py`:\n"
            "    - the fixture returns `(host, port)`;\n"
            "    - three tests read the port from the fixture.\n"
            "- Replace the thread with `pytest-httpserver`."
        ),
        quote=(
            "> **Tip:** whichever fix you pick, add `--timeout=60` to the job so a hang "
            "fails in one minute instead of burning the 6-hour default."
        ),
        table=(
            "| Date | Run | Result | Cause |\n"
            "| --- | --- | --- | --- |\n"
            "| May 2 | #4812 | failed | `test_webhook_retries` timeout |\n"
            "| May 3 | #4830 | failed | `test_webhook_retries` timeout |\n"
            "| May 3 | #4833 | failed | image pull error |\n"
            "| May 6 | #4871 | failed | `test_webhook_retries` timeout |"
        ),
        code=(
            "```python\n"
            "def wait_until_ready(url: str, timeout: float = 5.0) -> None:\n"
            "    deadline = time.monotonic() + timeout\n"
            "    while time.monotonic() < deadline:\n"
            "        try:\n"
            "            if requests.get(url, timeout=0.5).ok:\n"
            "                return\n"
            "        except requests.ConnectionError:\n"
            "            pass\n"
            "        time.sleep(0.05)\n"
            '    raise RuntimeError(f"mock server at {url} never became ready")\n'
            "```"
        ),
        outro="Tell me how far you want to go and I will push a branch.",
        title="Fixing the flaky webhook test",
        questions=(
            single(
                "Which fix should I implement?",
                ["Readiness polling", "Port 0 fixture", "pytest-httpserver"],
                "Port 0 fixture",
            ),
            single(
                "Add a job-level timeout of 60 seconds?",
                ["Yes", "No"],
                "Yes",
            ),
            multi(
                "Where should the fix land?",
                ["main", "release/2.4", "release/2.3"],
                ["main", "release/2.4"],
                other=False,
            ),
            free("Who should review the change?", "the platform team"),
        ),
    ),
    Topic(
        lang="en",
        heading="## Rollout plan for the memory limits",
        intros=(
            "The `api` pods were OOM-killed 14 times yesterday. Their limit is 512 MiB, and "
            "the heap profile you attached shows steady state at about 430 MiB with spikes "
            "past 600 MiB when the nightly export runs, so the limit is simply too tight "
            "for that job.",
            "Raising the limit is the quick fix, but the export should not run inside the "
            "request-serving pods at all. I would do both: a safe limit now, and move the "
            "export to a `CronJob` in the next sprint.",
        ),
        nested_list=(
            "Proposed steps:\n\n"
            "1. Today\n"
            "   - raise `limits.memory` to 1 GiB and `requests.memory` to 600 MiB;\n"
            "   - roll out with `maxUnavailable: 0` and `maxSurge: 1`.\n"
            "2. This week\n"
            "   - add a `PodDisruptionBudget` with `minAvailable: 2`;\n"
            "   - alert when memory stays above 85 % for 10 minutes.\n"
            "3. Next sprint\n"
            "   - move the export into its own `CronJob`:\n"
            "     - it gets its own limit (2 GiB);\n"
            "     - it can fail without touching user traffic."
        ),
        quote=(
            "> With 6 replicas and nodes of 8 GiB, the new requests still fit on the "
            "current node pool. No autoscaler change is needed."
        ),
        table=(
            "| Setting | Now | Proposed |\n"
            "| --- | --- | --- |\n"
            "| requests.memory | 256Mi | 600Mi |\n"
            "| limits.memory | 512Mi | 1Gi |\n"
            "| maxUnavailable | 25% | 0 |\n"
            "| maxSurge | 25% | 1 |"
        ),
        code=(
            "```bash\n"
            "kubectl -n prod set resources deployment/api \\\n"
            "  --requests=memory=600Mi --limits=memory=1Gi\n"
            "kubectl -n prod rollout status deployment/api --timeout=10m\n"
            "kubectl -n prod top pods -l app=api\n"
            "```"
        ),
        outro="A few decisions before I open the change:",
        title="api memory rollout",
        questions=(
            single(
                "When should the new limits roll out?",
                ["Right away", "After 18:00", "Tomorrow morning"],
                "After 18:00",
            ),
            multi(
                "Which parts of the plan should I prepare now?",
                ["New limits", "PodDisruptionBudget", "Memory alert", "Export CronJob"],
                ["New limits", "PodDisruptionBudget", "Memory alert"],
            ),
            single(
                "Who gets the new memory alert?",
                ["On-call pager", "Team channel only"],
                "Team channel only",
                other=True,
            ),
            free("Anything else that runs inside the api pods at night?"),
        ),
    ),
    Topic(
        lang="en",
        heading="### Refactoring the checkout state",
        intros=(
            "`CheckoutPage` keeps eleven pieces of state in separate `useState` hooks, and "
            "four effects keep them in sync. The bug you reported, where the shipping price "
            "shows the old value after changing the country, comes from two of those "
            "effects running in the wrong order.",
            "Moving the state into one reducer makes each change a single, named action, "
            "and the derived values (totals, the shipping price) can be computed during "
            "render instead of stored.",
        ),
        nested_list=(
            "How I would split it:\n\n"
            "- **State** (in the reducer)\n"
            "  - cart lines, address, shipping method, coupon;\n"
            "  - the request status of the order submission.\n"
            "- **Derived** (computed in render)\n"
            "  - subtotal, discount, shipping price, total;\n"
            "  - whether the *Pay* button is enabled.\n"
            "- **Effects** (only two remain)\n"
            "  - fetch shipping rates when the address country changes;\n"
            "    - cancel the previous request with an `AbortController`;\n"
            "  - persist the cart to `localStorage`."
        ),
        quote=(
            "> The tests in `checkout.test.tsx` click through the UI, so they keep working "
            "without changes. That is a good safety net for this refactor."
        ),
        table=(
            "| Hook today | Becomes |\n"
            "| --- | --- |\n"
            "| `useState(lines)` | reducer state |\n"
            "| `useState(total)` | derived value |\n"
            "| `useEffect(syncTotal)` | removed |\n"
            "| `useEffect(fetchRates)` | kept, with abort |"
        ),
        code=(
            "```tsx\n"
            "type Action =\n"
            '  | { type: "setCountry"; country: string }\n'
            '  | { type: "applyCoupon"; code: string }\n'
            '  | { type: "submitted"; orderId: string };\n'
            "\n"
            "function reducer(state: Checkout, action: Action): Checkout {\n"
            "  switch (action.type) {\n"
            '    case "setCountry":\n'
            "      return { ...state, address: { ...state.address, country: action.country } };\n"
            "    default:\n"
            "      return state;\n"
            "  }\n"
            "}\n"
            "```"
        ),
        outro="Let me know how you want to proceed:",
        title="Checkout refactor",
        questions=(
            single(
                "How should I land the refactor?",
                ["One pull request", "Two: reducer first, then effects"],
                "Two: reducer first, then effects",
            ),
            single(
                "Should derived values use useMemo?",
                ["Only for the totals", "Everywhere", "Nowhere"],
                "Only for the totals",
            ),
            multi(
                "Which extra tests do you want?",
                ["Reducer unit tests", "Country change race", "Coupon edge cases"],
                ["Reducer unit tests", "Country change race"],
            ),
            free("Any naming conventions for actions I should follow?"),
        ),
    ),
    Topic(
        lang="en",
        heading="## Deduplicating the customer export",
        intros=(
            "The CSV has 48 213 rows but only 41 907 distinct customers. Most duplicates "
            "differ only in letter case or surrounding spaces in the email address; about "
            "300 have the same email and different phone numbers, and those need a rule.",
            "I loaded the file with pandas and normalized the email column first. Exact "
            "duplicates after normalization are safe to drop; the rest I grouped so you "
            "can decide how to merge them.",
        ),
        nested_list=(
            "What the script does:\n\n"
            "1. Normalize:\n"
            "   - `email`: strip spaces, lower-case;\n"
            "   - `phone`: keep digits only, add the country code when missing.\n"
            "2. Drop exact duplicates on `(email, phone, name)`.\n"
            "3. For the same email with different data:\n"
            "   - keep the most recent `updated_at`;\n"
            "   - or keep the row with the most filled-in fields;\n"
            "     - ties go to the lowest `customer_id`.\n"
            "4. Write `customers_clean.csv` and `duplicates_report.csv`."
        ),
        quote=(
            "> Rows with an empty email (212 of them) are left untouched: without an "
            "email there is no safe key to merge on."
        ),
        table=(
            "| Group | Rows | Action |\n"
            "| --- | --- | --- |\n"
            "| exact duplicates | 5 994 | drop |\n"
            "| same email, other phone | 312 | merge by rule |\n"
            "| empty email | 212 | keep |\n"
            "| unique | 41 695 | keep |"
        ),
        code=(
            "```python\n"
            'df = pd.read_csv("customers.csv", dtype=str)\n'
            'df["email"] = df["email"].str.strip().str.lower()\n'
            'df["phone"] = df["phone"].str.replace(r"\\D", "", regex=True)\n'
            'df = df.drop_duplicates(subset=["email", "phone", "name"])\n'
            'df = df.sort_values("updated_at").groupby("email", dropna=False).tail(1)\n'
            'df.to_csv("customers_clean.csv", index=False)\n'
            "```"
        ),
        outro="Two or three choices decide the final numbers:",
        title="Customer deduplication",
        questions=(
            single(
                "How should rows with the same email be merged?",
                ["Most recent update wins", "Most complete row wins"],
                "Most recent update wins",
            ),
            single(
                "What about the rows without an email?",
                ["Keep them", "Drop them", "Put them in a separate file"],
                "Put them in a separate file",
            ),
            multi(
                "Which columns should the report include?",
                ["email", "phone", "name", "updated_at", "customer_id"],
                ["email", "customer_id"],
            ),
            free("Which country code should I assume for phone numbers without one?", "+44"),
        ),
    ),
    Topic(
        lang="en",
        heading="## Four days in Kyoto",
        intros=(
            "Here is a first draft for your trip from 14 to 17 November. Mid-November is "
            "peak season for autumn leaves, so the popular temples are crowded after "
            "9:00; I put them early in the morning and left the afternoons lighter.",
            "You mentioned you prefer walking and do not want more than two big sights a "
            "day. I grouped the days by area so most moves are on foot or one bus ride.",
        ),
        nested_list=(
            "Draft plan:\n\n"
            "- **Day 1: Higashiyama**\n"
            "  - Kiyomizu-dera at opening (6:00);\n"
            "  - walk down Sannenzaka and Ninenzaka;\n"
            "    - breakfast at a café near Yasaka Shrine.\n"
            "- **Day 2: Arashiyama**\n"
            "  - bamboo grove before 8:00, then Tenryu-ji;\n"
            "  - afternoon: boat on the Hozu river or the monkey park.\n"
            "- **Day 3: Northern temples**\n"
            "  - Kinkaku-ji, then Ryoan-ji by bus 59.\n"
            "- **Day 4: Fushimi Inari**, then the train to Osaka."
        ),
        quote=(
            "> Tofuku-ji is famous for its maple bridge, but on November weekends the "
            "queue can take an hour. If you want it, go on a weekday."
        ),
        table=(
            "| Day | Area | Main sights | Walking |\n"
            "| --- | --- | --- | --- |\n"
            "| 14 Nov | Higashiyama | Kiyomizu-dera, Yasaka | ~8 km |\n"
            "| 15 Nov | Arashiyama | bamboo grove, Tenryu-ji | ~10 km |\n"
            "| 16 Nov | North | Kinkaku-ji, Ryoan-ji | ~6 km |\n"
            "| 17 Nov | Fushimi | Inari shrine | ~7 km |"
        ),
        code=(
            "```text\n"
            "06:00  Kiyomizu-dera opens\n"
            "07:30  Sannenzaka / Ninenzaka\n"
            "09:00  breakfast near Yasaka Shrine\n"
            "11:00  Kennin-ji (optional)\n"
            "13:00  lunch in Gion\n"
            "15:00  back to the hotel\n"
            "```"
        ),
        outro="To finish the plan I need a few answers:",
        title="Kyoto itinerary",
        questions=(
            single(
                "Do you want Tofuku-ji in the plan?",
                ["Yes, on a weekday", "No, skip it"],
                "Yes, on a weekday",
            ),
            multi(
                "Which experiences interest you?",
                ["Tea ceremony", "Kaiseki dinner", "Onsen day trip", "Cooking class"],
                ["Kaiseki dinner"],
                other=True,
            ),
            single(
                "How do you feel about early starts?",
                ["Fine every day", "Only once or twice", "Avoid them"],
                "Only once or twice",
            ),
            free("Any dietary restrictions I should plan around?"),
        ),
    ),
    Topic(
        lang="zh",
        heading="## MySQL 迁移到 PostgreSQL 的方案",
        intros=(
            "我看了你发来的表结构和数据量：一共 63 张表，最大的 `event_log` 有约 2.1 亿行，"
            "其余表都在千万行以内。迁移的主要风险不在数据量，而在几处 MySQL 特有的用法，"
            "比如 `ENUM` 字段、`ON UPDATE CURRENT_TIMESTAMP` 和大小写不敏感的排序规则。",
            "整体思路是先用 `pgloader` 做一次全量迁移，再通过 binlog 做增量同步，"
            "最后在低峰期切换读写。这样停机时间可以控制在十分钟以内。",
        ),
        nested_list=(
            "具体步骤如下：\n\n"
            "1. 准备阶段\n"
            "   - 在测试环境跑一次全量迁移，记录耗时；\n"
            "   - 梳理需要改写的 SQL：\n"
            "     - `IFNULL` 改为 `COALESCE`；\n"
            "     - `LIMIT a, b` 改为 `LIMIT b OFFSET a`。\n"
            "2. 迁移阶段\n"
            "   - 全量导入，然后开启增量同步；\n"
            "   - 每小时对比一次行数和校验和。\n"
            "3. 切换阶段\n"
            "   - 应用只读五分钟，确认增量追平后切换连接串。"
        ),
        quote=(
            "> **注意：** MySQL 默认的 `utf8mb4_general_ci` 比较时不区分大小写，"
            "PostgreSQL 默认区分。涉及用户名、邮箱的唯一索引需要改成 `citext` 或表达式索引。"
        ),
        table=(
            "| 项目 | MySQL | PostgreSQL |\n"
            "| --- | --- | --- |\n"
            "| 枚举 | `ENUM('a','b')` | `CHECK` 约束或自定义类型 |\n"
            "| 自增 | `AUTO_INCREMENT` | `GENERATED ALWAYS AS IDENTITY` |\n"
            "| 更新时间 | `ON UPDATE CURRENT_TIMESTAMP` | 触发器 |\n"
            "| 排序规则 | 不区分大小写 | 区分大小写 |"
        ),
        code=(
            "```bash\n"
            'pgloader --with "batch rows = 50000" \\\n'
            "  mysql://app:***@10.0.3.12/shop \\\n"
            "  postgresql://app:***@10.0.5.20/shop\n"
            'psql -h 10.0.5.20 -U app -c "SELECT count(*) FROM event_log;"\n'
            "```"
        ),
        outro="开始写迁移脚本之前，请确认下面几点：",
        title="数据库迁移确认",
        questions=(
            single(
                "切换时间定在什么时候？",
                ["本周六凌晨", "下周二凌晨", "等测试报告出来再定"],
                "本周六凌晨",
            ),
            single(
                "大小写不敏感的字段怎么处理？",
                ["使用 citext", "使用 lower() 表达式索引"],
                "使用 citext",
            ),
            multi(
                "切换后保留哪些回退手段？",
                ["MySQL 只读保留一周", "反向同步", "每日全量备份"],
                ["MySQL 只读保留一周", "每日全量备份"],
            ),
            free("还有哪些服务直接连数据库？请列出来。"),
        ),
    ),
    Topic(
        lang="zh",
        heading="### 首屏加载优化",
        intros=(
            "我用 Lighthouse 跑了三次首页，LCP 平均 4.8 秒，主要卡在两个地方："
            "主包 `main.js` 有 1.3 MB（压缩后 410 KB），以及首屏大图没有设置尺寸和预加载。",
            "好消息是这两处都不需要改业务逻辑。拆包和图片优化做完后，"
            "预计 LCP 能降到 2.5 秒以内，达到“良好”的标准。",
        ),
        nested_list=(
            "建议按下面的顺序做：\n\n"
            "- 拆分主包\n"
            "  - 路由级懒加载：`/admin`、`/report` 只在访问时加载；\n"
            "  - 图表库 `echarts` 单独拆包；\n"
            "    - 只引入用到的折线图和饼图；\n"
            "    - 预计减少 600 KB。\n"
            "- 首屏图片\n"
            "  - 改为 WebP，并提供 `srcset`；\n"
            "  - 加上 `width`/`height`，避免布局偏移。\n"
            "- 字体\n"
            "  - 使用 `font-display: swap`。"
        ),
        quote=(
            "> 拆包之后请务必检查 CDN 的缓存策略：带哈希的文件名可以设置一年的缓存，"
            "`index.html` 则不能缓存。"
        ),
        table=(
            "| 指标 | 当前 | 目标 |\n"
            "| --- | --- | --- |\n"
            "| LCP | 4.8 s | < 2.5 s |\n"
            "| CLS | 0.21 | < 0.1 |\n"
            "| 主包大小 | 410 KB | < 200 KB |"
        ),
        code=(
            "```js\n"
            "const routes = [\n"
            "  { path: '/', component: () => import('./pages/Home.vue') },\n"
            "  { path: '/admin', component: () => import('./pages/Admin.vue') },\n"
            "  { path: '/report', component: () => import('./pages/Report.vue') },\n"
            "];\n"
            "```"
        ),
        outro="下面几个问题决定了改动的范围：",
        title="首屏优化范围",
        questions=(
            multi(
                "这次要做哪些优化？",
                ["路由懒加载", "图表库拆包", "图片转 WebP", "字体优化"],
                ["路由懒加载", "图表库拆包", "图片转 WebP"],
            ),
            single(
                "是否需要兼容 IE11？",
                ["需要", "不需要"],
                "不需要",
            ),
            single(
                "改动上线方式？",
                ["直接全量", "先灰度 10%"],
                "先灰度 10%",
                other=True,
            ),
            free("有没有首屏必须保留的第三方脚本？"),
        ),
        quote_all=True,
    ),
    Topic(
        lang="zh",
        heading="## 接口限流设计",
        intros=(
            "上周的故障复盘里提到，某个合作方的脚本在两分钟内发了 12 万次请求，"
            "把订单服务的连接池打满了。现在网关只有全局限流，没有按调用方区分，"
            "所以一个调用方出问题会影响所有人。",
            "我的建议是在网关层按 API Key 做令牌桶限流，超限时返回 429 和 `Retry-After`，"
            "同时把限额配置放到配置中心，方便按合作方单独调整。",
        ),
        nested_list=(
            "设计要点：\n\n"
            "1. 限流维度\n"
            "   - 按 API Key；\n"
            "   - 对写接口再按路径单独限流：\n"
            "     - `POST /orders` 每秒 20 次；\n"
            "     - `POST /refunds` 每秒 5 次。\n"
            "2. 存储\n"
            "   - 令牌桶状态放在 Redis，用 Lua 脚本保证原子性；\n"
            "   - Redis 不可用时退回本地限流。\n"
            "3. 可观测性\n"
            "   - 每个 Key 的放行数和拒绝数上报到 Prometheus。"
        ),
        quote=(
            "> 限流只是保护手段。对这个合作方，还应该沟通让他们的脚本遵守 `Retry-After`，"
            "否则他们会一直收到 429。"
        ),
        table=(
            "| 等级 | 每秒请求 | 突发 | 适用 |\n"
            "| --- | --- | --- | --- |\n"
            "| 基础 | 10 | 20 | 新接入的合作方 |\n"
            "| 标准 | 50 | 100 | 大部分合作方 |\n"
            "| 高级 | 200 | 400 | 签了 SLA 的合作方 |"
        ),
        code=(
            "```go\n"
            "func (l *Limiter) Allow(ctx context.Context, key string) (bool, error) {\n"
            '\tres, err := l.script.Run(ctx, l.rdb, []string{"rl:" + key},\n'
            "\t\tl.rate, l.burst, time.Now().UnixMilli()).Int()\n"
            "\tif err != nil {\n"
            "\t\treturn l.local.Allow(key), nil\n"
            "\t}\n"
            "\treturn res == 1, nil\n"
            "}\n"
            "```"
        ),
        outro="请确认以下设计选择：",
        title="限流方案确认",
        questions=(
            single(
                "超限时返回什么？",
                ["429 加 Retry-After", "503"],
                "429 加 Retry-After",
            ),
            single(
                "Redis 不可用时怎么办？",
                ["退回本地限流", "直接放行", "直接拒绝"],
                "退回本地限流",
            ),
            multi(
                "哪些接口需要单独限流？",
                ["POST /orders", "POST /refunds", "GET /orders", "POST /coupons"],
                ["POST /orders", "POST /refunds"],
                other=True,
            ),
            free("对这个合作方的初始等级有什么建议？", "基础"),
        ),
    ),
    Topic(
        lang="zh",
        heading="### 告警规则调整",
        intros=(
            "过去一个月值班群里共收到 1 342 条告警，其中 71% 在五分钟内自动恢复，"
            "真正需要处理的不到 60 条。告警太多，大家已经开始忽略，这比没有告警更危险。",
            "我整理了触发最多的十条规则，大部分问题是阈值太低、没有持续时间，"
            "或者同一个故障触发了多条规则。",
        ),
        nested_list=(
            "调整建议：\n\n"
            "- 加持续时间\n"
            "  - CPU、内存类规则统一加 `for: 10m`；\n"
            "  - 磁盘使用率改为按增长速度预测。\n"
            "- 合并重复告警\n"
            "  - 同一节点的多条规则按 `instance` 分组；\n"
            "  - 下游告警在上游故障时抑制：\n"
            "    - 数据库宕机时不再发应用报错；\n"
            "    - 网关故障时不再发各服务的超时。\n"
            "- 分级\n"
            "  - 只有 `critical` 打电话，其余发群消息。"
        ),
        quote=(
            "> 建议每条告警都附上处理手册的链接。值班同学半夜被叫醒时，最需要的是“下一步做什么”。"
        ),
        table=(
            "| 规则 | 月触发次数 | 建议 |\n"
            "| --- | --- | --- |\n"
            "| HighCPU | 402 | 阈值 90%，持续 10 分钟 |\n"
            "| PodRestart | 288 | 合并到 CrashLoop |\n"
            "| DiskUsage | 173 | 改为预测 4 小时内写满 |\n"
            "| SlowQuery | 96 | 降级为 warning |"
        ),
        code=(
            "```yaml\n"
            "- alert: HighCPU\n"
            '  expr: avg by (instance) (rate(node_cpu_seconds_total{mode!="idle"}[5m])) > 0.9\n'
            "  for: 10m\n"
            "  labels:\n"
            "    severity: warning\n"
            "  annotations:\n"
            "    runbook: https://wiki.example.com/runbooks/high-cpu\n"
            "```"
        ),
        outro="改规则之前，需要你拍板几件事：",
        title="告警调整",
        questions=(
            single(
                "调整后的规则先在哪里试运行？",
                ["测试集群", "生产集群只发群消息"],
                "生产集群只发群消息",
            ),
            multi(
                "哪些规则这次一起改？",
                ["HighCPU", "PodRestart", "DiskUsage", "SlowQuery"],
                ["HighCPU", "PodRestart", "DiskUsage"],
            ),
            single(
                "critical 告警的通知方式？",
                ["电话", "电话加短信", "只发短信"],
                "电话",
            ),
            free("处理手册放在哪个空间？", "运维知识库"),
        ),
    ),
    Topic(
        lang="zh",
        heading="## 模型过拟合的排查",
        intros=(
            "从你贴的曲线看，训练集准确率在第 8 个 epoch 后继续上升到 99%，"
            "验证集却从 87% 掉到了 82%，这是典型的过拟合。数据量只有 1.2 万条，"
            "而模型有 1.1 亿参数，确实容易记住训练集。",
            "我看了数据划分的代码，还发现一个问题：同一个用户的多条样本可能同时出现在"
            "训练集和验证集里，所以验证集的分数本身也偏高。",
        ),
        nested_list=(
            "可以从三个方向入手：\n\n"
            "1. 数据\n"
            "   - 按用户划分训练集和验证集，避免泄漏；\n"
            "   - 做数据增强：\n"
            "     - 同义词替换；\n"
            "     - 回译（中→英→中）。\n"
            "2. 模型\n"
            "   - 冻结前 8 层，只微调后 4 层；\n"
            "   - dropout 从 0.1 调到 0.3。\n"
            "3. 训练\n"
            "   - 早停：验证集损失连续 3 个 epoch 不降就停止；\n"
            "   - 学习率从 5e-5 降到 2e-5。"
        ),
        quote=(
            "> **提醒：** 改了数据划分之后，之前的实验结果就不能直接比较了，"
            "需要用新的划分重跑一次基线。"
        ),
        table=(
            "| 实验 | 划分方式 | 验证集准确率 | 备注 |\n"
            "| --- | --- | --- | --- |\n"
            "| 基线 | 随机 | 87.1% | 有泄漏 |\n"
            "| 基线 | 按用户 | 83.4% | 真实水平 |\n"
            "| 冻结 8 层 | 按用户 | 85.9% | |\n"
            "| 冻结 + 早停 | 按用户 | 86.7% | |"
        ),
        code=(
            "```python\n"
            "from sklearn.model_selection import GroupShuffleSplit\n"
            "\n"
            "splitter = GroupShuffleSplit(n_splits=1, test_size=0.15, random_state=42)\n"
            'train_idx, val_idx = next(splitter.split(df, groups=df["user_id"]))\n'
            "train_df, val_df = df.iloc[train_idx], df.iloc[val_idx]\n"
            "```"
        ),
        outro="接下来的实验，请帮我确定几个选项：",
        title="实验安排",
        questions=(
            single(
                "先做哪组实验？",
                ["按用户重跑基线", "直接试冻结层数", "先做数据增强"],
                "按用户重跑基线",
            ),
            multi(
                "数据增强用哪些方法？",
                ["同义词替换", "回译", "随机删词"],
                ["回译"],
            ),
            single(
                "GPU 资源怎么安排？",
                ["用两张卡并行跑", "一张卡排队跑"],
                "用两张卡并行跑",
                other=True,
            ),
            free("验证集之外，还有没有要看的业务指标？"),
        ),
    ),
    Topic(
        lang="zh",
        heading="### 第三季度项目排期",
        intros=(
            "根据上周会议的结论，我把第三季度的三个项目排了一下。"
            "人手按前端 3 人、后端 4 人、测试 2 人计算，已经扣除了 8 月的年假。",
            "关键路径在支付重构上：它依赖风控接口的改造，而风控团队要到 7 月底才能交付，"
            "所以支付重构的联调最早只能从 8 月第一周开始。",
        ),
        nested_list=(
            "排期概要：\n\n"
            "- 会员体系升级（7 月）\n"
            "  - 前端 2 人，后端 2 人；\n"
            "  - 7 月 25 日提测。\n"
            "- 支付重构（7 月至 9 月）\n"
            "  - 7 月：方案评审和接口定义；\n"
            "  - 8 月：开发与联调；\n"
            "    - 依赖风控接口，7 月 31 日交付；\n"
            "    - 如果延期，联调顺延。\n"
            "  - 9 月：灰度上线。\n"
            "- 报表中心（8 月至 9 月）"
        ),
        quote=(
            "> 测试只有 2 人，8 月会员体系回归和支付联调会撞在一起。"
            "建议提前确认是否能借调一名测试。"
        ),
        table=(
            "| 项目 | 开始 | 提测 | 上线 | 负责人 |\n"
            "| --- | --- | --- | --- | --- |\n"
            "| 会员体系升级 | 7/1 | 7/25 | 8/5 | 王磊 |\n"
            "| 支付重构 | 7/8 | 9/5 | 9/20 | 陈静 |\n"
            "| 报表中心 | 8/1 | 9/12 | 9/26 | 刘洋 |"
        ),
        code=(
            "```text\n"
            "7月   |会员████████|\n"
            "7-9月 |支付 方案██ 开发████████ 灰度███|\n"
            "8-9月 |报表        ██████████████|\n"
            "```"
        ),
        outro="有几点需要你确认后我再发给大家：",
        title="排期确认",
        questions=(
            single(
                "支付重构的上线日期可以接受吗？",
                ["可以", "需要提前", "可以再推迟"],
                "可以",
            ),
            single(
                "是否申请借调一名测试？",
                ["申请", "不申请，调整提测时间"],
                "申请",
            ),
            multi(
                "排期需要同步给哪些人？",
                ["产品", "风控团队", "运营", "财务"],
                ["产品", "风控团队"],
                other=True,
            ),
            free("还有哪些风险需要写进排期说明？"),
        ),
    ),
    Topic(
        lang="zh",
        heading="## Docker 镜像瘦身",
        intros=(
            "现在的镜像有 1.9 GB，拉取一次要两分多钟，扩容时很明显。"
            "看了 Dockerfile，主要原因是基础镜像用了完整的 `python:3.11`，"
            "编译依赖和构建缓存都留在了最终镜像里。",
            "改成多阶段构建并换用 `slim` 基础镜像后，我在本地试了一下，"
            "镜像降到了 310 MB，启动时间没有变化，单元测试全部通过。",
        ),
        nested_list=(
            "主要改动：\n\n"
            "- 多阶段构建\n"
            "  - 第一阶段安装编译依赖并构建 wheel；\n"
            "  - 第二阶段只安装 wheel。\n"
            "- 减少层\n"
            "  - 合并 `apt-get` 命令并清理缓存；\n"
            "  - 使用 `--no-cache-dir` 安装依赖。\n"
            "- 其他\n"
            "  - 加 `.dockerignore`，排除 `.git` 和测试数据；\n"
            "    - 测试数据有 400 MB；\n"
            "    - `.git` 有 180 MB。\n"
            "  - 以非 root 用户运行。"
        ),
        quote=(
            "> `slim` 镜像里没有 `gcc`，如果运行时需要编译扩展（比如某些依赖在安装时编译），"
            "必须放到第一阶段完成。"
        ),
        table=(
            "| 方案 | 镜像大小 | 构建时间 |\n"
            "| --- | --- | --- |\n"
            "| 当前 | 1.9 GB | 6 分钟 |\n"
            "| slim + 多阶段 | 310 MB | 4 分钟 |\n"
            "| distroless | 240 MB | 5 分钟 |"
        ),
        code=(
            "```dockerfile\n"
            "FROM python:3.11 AS build\n"
            "WORKDIR /src\n"
            "COPY . .\n"
            "RUN pip wheel --no-cache-dir --wheel-dir /wheels .\n"
            "\n"
            "FROM python:3.11-slim\n"
            "COPY --from=build /wheels /wheels\n"
            "RUN pip install --no-cache-dir /wheels/*.whl && rm -rf /wheels\n"
            "USER 1000\n"
            'CMD ["gunicorn", "app:create_app()"]\n'
            "```"
        ),
        outro="确认下面几个问题后我就提交合并请求：",
        title="镜像瘦身",
        questions=(
            single(
                "基础镜像用哪个？",
                ["python:3.11-slim", "distroless", "alpine"],
                "python:3.11-slim",
            ),
            single(
                "是否改为非 root 用户运行？",
                ["是", "否"],
                "是",
            ),
            multi(
                "要同时改哪些服务的镜像？",
                ["api", "worker", "scheduler"],
                ["api", "worker"],
            ),
            free("镜像仓库有没有大小或层数的限制？"),
        ),
    ),
)

# Core-schema plain scalars that are not strings, and what a plain scalar may not
# hold (an indicator first, ": " or " #" inside, blanks at either end).
_NOT_A_STRING = re.compile(
    r"(?:~|null|Null|NULL|true|True|TRUE|false|False|FALSE|[-+]?[0-9][0-9_.:eExXoO+-]*"
    r"|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))"
)
_INDICATOR_FIRST = re.compile(r"[-?:,\[\]{}#&*!|>'\"%@`]")


def _scalar(text: str, quote_all: bool) -> str:
    """``text`` as a YAML scalar: plain where that reads back as this string, else in
    double quotes (a JSON string is a YAML double-quoted scalar)."""
    plain = (
        text
        and not quote_all
        and not _NOT_A_STRING.fullmatch(text)
        and not _INDICATOR_FIRST.match(text)
        and ": " not in text
        and " #" not in text
        and not text.endswith(":")
        and text == text.strip()
    )
    return text if plain else json.dumps(text, ensure_ascii=False)


def yaml_form(title: str, questions: tuple[Question, ...], quote_all: bool, flow: bool) -> str:
    """The fenced YAML block of a form; ``flow`` writes multi-choice defaults as flow
    sequences ``[a, b]``."""

    def s(text: str) -> str:
        return _scalar(text, quote_all)

    lines = ["```questionnaire", f"title: {s(title)}", "questions:"]
    for q in questions:
        lines.append(f"  - type: {q['type']}")
        lines.append(f"    text: {s(q['text'])}")
        if "options" in q:
            lines.append("    options:")
            lines.extend(f"      - {s(o)}" for o in q["options"])
        default = q["default"]
        if isinstance(default, list):
            if flow:
                lines.append(
                    "    default: ["
                    + ", ".join(json.dumps(d, ensure_ascii=False) for d in default)
                    + "]"
                )
            else:
                lines.append("    default:")
                lines.extend(f"      - {s(d)}" for d in default)
        else:
            lines.append(f"    default: {s(default) if default else chr(34) * 2}")
        if "allow_other" in q:
            lines.append(f"    allow_other: {'true' if q['allow_other'] else 'false'}")
    lines.append("```")
    return "\n".join(lines)


def xml_form(title: str, questions: tuple[Question, ...], pretty: bool) -> str:
    """The XML+JSON block of a form, with ids ``q1``, ``q2``... as the fenced form gets."""
    payload = {
        "title": title,
        "questions": [{"id": f"q{i}", **q} for i, q in enumerate(questions, 1)],
    }
    body = json.dumps(payload, ensure_ascii=False, indent=2 if pretty else None)
    return f"<questionnaire>{body}</questionnaire>"


def _layout(topic: Topic, variant: int) -> tuple[list[str], tuple[Question, ...]]:
    """The parts of reply ``variant`` (0-3) of ``topic`` before its form, and the
    questions of its form."""
    t = topic
    q = t.questions
    if variant == 0:
        return [t.intros[0], t.nested_list, t.table, t.code, t.quote, t.outro], q[:2]
    if variant == 1:
        return [t.intros[1], t.heading, t.quote, t.nested_list, t.code, t.table, t.outro], q[:3]
    if variant == 2:
        return [t.intros[0], t.intros[1], t.nested_list, t.code, t.table, t.quote, t.outro], q
    return [t.heading, t.intros[1], t.table, t.nested_list, t.quote, t.code, t.outro], q[1:]


def replies() -> list[RichReply]:
    """Every rich reply, topic by topic, four layouts each (see the module doc)."""
    out: list[RichReply] = []
    for k, topic in enumerate(TOPICS):
        for variant in range(4):
            parts, questions = _layout(topic, variant)
            if variant == 3 and k % 2 == 0:
                form, encoding = xml_form(topic.title, questions, pretty=k % 4 == 0), "xml_json"
            else:
                flow = (k + variant) % 3 == 0
                form = yaml_form(topic.title, questions, topic.quote_all, flow)
                encoding = "fenced_yaml"
            text = "\n\n".join([*parts, form]) + "\n"
            out.append(RichReply(text, encoding, topic.title, questions))
    return out
