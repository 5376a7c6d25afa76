"""Running the implementation under test: one local process speaking JSON lines.

The adapter command reads one JSON request per line on stdin and writes one JSON
response per line on stdout (docs/fuzzing.md). :class:`Adapter` starts it, sends a
request, waits at most ``timeout`` seconds for the answer, and classifies what came
back as an :class:`Outcome`. A crash, a hang, an oversized or non-JSON line ends the
process (its whole process group and what it started:
:mod:`replykit.fuzz.process`) and the next request starts a new one.

POSIX only (process groups); processes are always cleaned up by :meth:`Adapter.close`
or the context manager.
"""

from __future__ import annotations

import contextlib
import json
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, Literal

import attrs

from replykit.fuzz.process import READ_CAP, AdapterProcess
from replykit.fuzz.process import AdapterStartError as AdapterStartError
from replykit.jsonout import dumps
from replykit.questionnaire.limits import MAX_DEPTH_CEILING
from replykit.questionnaire.payload.json_strict import read_json_value

OutcomeKind = Literal[
    "ok", "crash", "timeout", "oversized", "invalid_json", "bad_response", "unsupported"
]
#: Outcome kinds that are adapter failures, reported as their own classes.
FAILURES: Final[tuple[OutcomeKind, ...]] = (
    "crash",
    "timeout",
    "oversized",
    "invalid_json",
    "bad_response",
)

#: Seconds an adapter gets to exit by itself once its input is closed, at the end.
CLOSE_GRACE: Final = 0.5


@attrs.frozen
class Outcome:
    """What one request got.

    ``kind``: ``ok`` (a response object for this request), ``unsupported`` (the adapter
    answered ``{"id", "unsupported": true}``: it does not have this op, ``unsupported``
    is ``"op"``; or ``{"id", "unsupported": "profile"}``: it does not have the request's
    profile, ``unsupported`` is ``"profile"``), or a failure: ``crash`` (the process
    exited or closed stdout), ``timeout`` (no line within the timeout), ``oversized`` (an
    answer line longer than :data:`~replykit.fuzz.process.READ_CAP` bytes, with or
    without its newline), ``invalid_json``
    (a line that is not UTF-8 or not one strict JSON value, §1: a syntax error, a
    duplicate key, ``NaN``, a number out of range or a lone surrogate; the detail gives
    the column and replykit's message), ``bad_response`` (JSON, but not a response to
    this request: another ``id``, no ``segments`` list of objects with ``kind``,
    ``start``, ``end`` (``segment``, ``stream``), no ``updates`` list (``stream``), no
    ``result`` object (the other ops), or an ``error``).
    ``response``: the decoded response for ``ok``, else ``None``. ``detail``: one line
    for failures (exit status, the offending line, stderr tail).

    It holds JSON values as exchanged with the adapter (plain ``dict`` and ``list``), so it does
    not hash.
    """

    kind: OutcomeKind
    response: Mapping[str, Any] | None = None
    detail: str = ""
    unsupported: str = ""


def _shape_problem(op: str, response: Mapping[str, Any]) -> str | None:
    if "error" in response and "segments" not in response and "result" not in response:
        return f"adapter error: {str(response.get('error'))[:200]}"
    if op in ("segment", "stream"):
        if op == "stream" and not isinstance(response.get("updates"), list):
            return "stream response without an updates list"
        segments = response.get("segments")
        if not isinstance(segments, list):
            return f"{op} response without a segments list"
        for i, seg in enumerate(segments):
            if not isinstance(seg, Mapping):
                return f"segments[{i}] is not an object"
            if not isinstance(seg.get("kind"), str):
                return f"segments[{i}] has no string kind"
            for key in ("start", "end"):
                value = seg.get(key)
                if not isinstance(value, int) or isinstance(value, bool):
                    return f"segments[{i}] has no integer {key}"
        return None
    if not isinstance(response.get("result"), Mapping):
        return f"{op} response without a result object"
    return None


class Adapter:
    """The implementation under test behind the adapter protocol.

    ``command``: the argument vector (no shell); ``timeout``: seconds to wait for each
    answer; ``startup``: seconds more for the first answer of a freshly started process
    (an interpreter and its imports may take longer than one answer, and a loaded
    machine longer still); ``cwd``: working directory. Use as a context manager, or call
    :meth:`close`. Not thread-safe. :meth:`request` raises
    :class:`AdapterStartError` when the command cannot be started at all; every other
    problem is an :class:`Outcome`.
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        timeout: float = 10.0,
        startup: float = 10.0,
        cwd: str | None = None,
    ):
        if not command:
            raise ValueError("the adapter command is empty")
        if timeout <= 0:
            raise ValueError("timeout must be positive")
        self.command = tuple(command)
        self.timeout = timeout
        self.startup = max(0.0, startup)
        self.cwd = cwd
        self.starts = 0
        self._next_id = 0
        self._proc: AdapterProcess | None = None

    def __enter__(self) -> Adapter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """End the adapter process, if any: close its input, give it
        :data:`CLOSE_GRACE` seconds to exit, then kill its process group and session
        (:meth:`~replykit.fuzz.process.AdapterProcess.kill`)."""
        proc, self._proc = self._proc, None
        if proc is None:
            return
        proc.close_input()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.popen.wait(timeout=CLOSE_GRACE)
        proc.kill()

    def _fail(self, kind: OutcomeKind, detail: str) -> Outcome:
        proc, self._proc = self._proc, None
        tail = ""
        if proc is not None:
            proc.kill()
            tail = proc.stderr_tail()
            code = proc.popen.returncode
            if kind == "crash" and code is not None:
                detail = f"{detail} (exit status {code})"
        if tail:
            detail = f"{detail}; stderr: {tail[-400:]}"
        return Outcome(kind, None, detail)

    def request(self, op: str, body: Mapping[str, Any]) -> Outcome:
        """Send ``{"id", "op", **body}`` and classify the answer (see :class:`Outcome`).

        ``id`` is a fresh string per request. A failure ends the process; the next
        call starts a new one. Raises :class:`AdapterStartError` when the command
        cannot be started.
        """
        if self._proc is None or self._proc.popen.poll() is not None:
            if self._proc is not None:
                return self._fail("crash", "the adapter exited")
            self._proc = AdapterProcess(self.command, self.cwd)
            self.starts += 1
        proc = self._proc
        wait = self.timeout + (self.startup if not proc.answered else 0.0)
        deadline = time.monotonic() + wait
        self._next_id += 1
        rid = f"r{self._next_id}"
        line = dumps({"id": rid, "op": op, **body}, ascii_only=True) + "\n"
        # The request's timeout covers the write too: an adapter that stops reading
        # must not block the fuzzer once the pipe is full.
        written = proc.write(line.encode("ascii"), deadline)
        if written == "timeout":
            return self._fail("timeout", f"the adapter read no request within {wait:g} s")
        if written == "closed":
            return self._fail("crash", "the adapter closed its input")
        raw = proc.read_line(deadline)
        if raw == "timeout":
            return self._fail("timeout", f"no answer within {wait:g} s")
        if raw == "oversized":
            return self._fail("oversized", f"an answer line longer than {READ_CAP} bytes")
        if raw == "exited":
            return self._fail("crash", "the adapter exited before answering")
        if raw == "closed":
            return self._fail("crash", "the adapter closed its output")
        proc.answered = True
        return self._answer(raw, rid, op, body)

    def _answer(self, raw: bytes, rid: str, op: str, body: Mapping[str, Any]) -> Outcome:
        """Classify the answer line to request ``rid``: strict JSON, id, ``unsupported``, shape."""
        shown = raw.decode("utf-8", "replace").strip()[:200]
        try:
            line_text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            return self._fail("invalid_json", f"not UTF-8 (byte {exc.start}): {shown!r}")
        # Read as strictly as a payload (§1): a duplicate key or NaN is a failure too.
        read = read_json_value(line_text, max_depth=MAX_DEPTH_CEILING)
        if read.findings:
            first = min(read.findings, key=lambda f: f.start or 0)
            message = first.message.removeprefix("JSON syntax error: ")
            column = (first.start or 0) + 1
            return self._fail(
                "invalid_json", f"not a strict JSON line (column {column}: {message}): {shown!r}"
            )
        response = read.value
        if not isinstance(response, dict):
            return self._fail("bad_response", "the answer is not a JSON object")
        if response.get("id") != rid:
            return self._fail("bad_response", f"answer id {response.get('id')!r}, expected {rid!r}")
        what = response.get("unsupported")
        if what is True or what == "op":
            return Outcome("unsupported", None, f"{op} is not supported", "op")
        if what == "profile" and op == "segment":
            profile = body.get("profile")
            return Outcome("unsupported", None, f"profile {profile!r} is not supported", "profile")
        problem = _shape_problem(op, response)
        if problem is not None:
            return self._fail("bad_response", problem)
        return Outcome("ok", response, "")


#: An implementation under test as a Python function (:class:`InProcessAdapter`).
Respond = Callable[[dict[str, Any]], Mapping[str, Any]]


class InProcessAdapter(Adapter):
    """The implementation under test as a Python function in this process, for a Python
    client (or a test about classes rather than transport): no process, no pipe, no
    timeout (a function that hangs hangs the run).

    ``respond`` takes each request object (``{"id", "op", **body}``, decoded from the
    JSON line an adapter process would read) and returns its response object (its
    ``id`` may be left out: it is this request's). The response is written as a JSON
    line and classified as an adapter's answer is (:class:`Outcome`: strict JSON, id,
    ``unsupported``, shape); an exception from ``respond`` is a ``crash``, a value
    JSON cannot hold ``invalid_json``, an answer that is not a mapping
    ``bad_response``. :attr:`command` is ``("python:NAME",)``.
    """

    def __init__(self, respond: Respond) -> None:
        super().__init__((f"python:{getattr(respond, '__qualname__', type(respond).__name__)}",))
        self.respond = respond

    def request(self, op: str, body: Mapping[str, Any]) -> Outcome:
        """Call ``respond`` with ``{"id", "op", **body}`` and classify its answer."""
        self.starts = 1
        self._next_id += 1
        rid = f"r{self._next_id}"
        request = json.loads(dumps({"id": rid, "op": op, **body}, ascii_only=True))
        try:
            result = self.respond(request)
        except Exception as exc:  # the client's bug, reported as an adapter crash
            return Outcome("crash", None, f"the function raised {type(exc).__name__}: {exc}"[:300])
        if not isinstance(result, Mapping):
            return Outcome("bad_response", None, "the answer is not a JSON object")
        answer = {"id": rid, **result}
        try:
            raw = json.dumps(answer, ensure_ascii=True).encode("ascii")
        except (TypeError, ValueError) as exc:
            return Outcome("invalid_json", None, f"not a JSON value: {exc}"[:300])
        return self._answer(raw, rid, op, body)


def open_adapter(
    command: Sequence[str] | Respond, *, timeout: float = 10.0, cwd: str | None = None
) -> Adapter:
    """An :class:`InProcessAdapter` for a function ``command``, else an :class:`Adapter`
    running the argument vector ``command`` (``timeout``, ``cwd`` as it takes them)."""
    if callable(command):
        return InProcessAdapter(command)
    return Adapter(command, timeout=timeout, cwd=cwd)
