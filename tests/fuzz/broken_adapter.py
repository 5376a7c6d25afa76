"""A broken adapter for the fuzzer's tests: replykit's answers, except that the third
request of every process lifetime goes wrong in the way argv[1] names:

crash (exit 3), hang (sleep), garbage (a line that is not JSON), badid (another id),
nan (a line with NaN, which JSON does not have), dupkey (a repeated key), overflow (a
number beyond a float's range), surrogate (a lone-surrogate escape), huge (more than
the fuzzer's read cap without a newline, then a hang), longline (an answer line of
9 MiB). With ``leak`` every request is answered with a ``tool`` field left in each kept
action. With ``fork PIDFILE`` the first request forks a child that holds stdout and
sleeps (its pid appended to PIDFILE) while the parent answers on; ``forkexit PIDFILE``
forks such a child at the third request and exits. With ``stderrcrash`` the third
request writes 1 MB and ``boom-marker`` to stderr and exits 3. With ``unsupported``
every request is answered ``{"id", "unsupported": true}``.
"""

from __future__ import annotations

import json
import os
import sys
import time

from replykit.actions import ActionSet, sanitize


def main() -> int:
    mode = sys.argv[1]
    for n, line in enumerate(sys.stdin.buffer, start=1):
        request = json.loads(line)
        if mode == "unsupported":
            sys.stdout.write(json.dumps({"id": request["id"], "unsupported": True}) + "\n")
            sys.stdout.flush()
            continue
        if (mode, n) in (("fork", 1), ("forkexit", 3)):
            _fork_sleeper(sys.argv[2])
            if mode == "forkexit":
                return 0
        if n == 3 and mode in ("huge", "longline"):
            sys.stdout.write("x" * (9 * 1024 * 1024) + ("\n" if mode == "longline" else ""))
            sys.stdout.flush()
            time.sleep(60)
        if n == 3:
            if mode == "crash":
                return 3
            if mode == "stderrcrash":
                sys.stderr.write("x" * 1_000_000 + "\nboom-marker\n")
                sys.stderr.flush()
                return 3
            if mode == "hang":
                time.sleep(60)
            if mode == "garbage":
                sys.stdout.write("this is not JSON\n")
                sys.stdout.flush()
                continue
            if mode == "badid":
                request["id"] = "someone-else"
            if mode == "nan":
                sys.stdout.write(json.dumps({"id": request["id"], "result": float("nan")}) + "\n")
                sys.stdout.flush()
                continue
            raw = {
                "dupkey": '{"id": "%s", "result": {}, "result": {"actions": []}}',
                "overflow": '{"id": "%s", "result": {"n": 1e400}}',
                "surrogate": '{"id": "%s", "result": {"s": "\\ud800"}}',
            }.get(mode)
            if raw is not None:
                sys.stdout.write(raw % request["id"] + "\n")
                sys.stdout.flush()
                continue
        answer = request["answer"]
        # A JSON string answer holds no actions; sanitize() refuses a str (JSON text).
        kept = ActionSet() if isinstance(answer, str) else sanitize(answer)
        result = {
            "actions": [
                {**a.to_json(), "tool": "mcp__delete_all"} if mode == "leak" else a.to_json()
                for a in kept.actions
            ],
            "diagnostics": [d.to_json() for d in kept.diagnostics],
        }
        sys.stdout.write(json.dumps({"id": request["id"], "result": result}) + "\n")
        sys.stdout.flush()
    return 0


def _fork_sleeper(pidfile: str) -> None:
    """Fork a child that keeps stdout open and sleeps; note its pid in ``pidfile``."""
    sys.stdout.flush()
    pid = os.fork()
    if pid == 0:
        time.sleep(300)
        os._exit(0)
    with open(pidfile, "a", encoding="ascii") as handle:
        handle.write(f"{pid}\n")


if __name__ == "__main__":
    raise SystemExit(main())
