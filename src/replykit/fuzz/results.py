"""What a fuzz run returns: :class:`FuzzClass` (one class of findings) and
:class:`FuzzReport` (the run), written out by :mod:`replykit.fuzz.report`
(docs/fuzzing.md, "The report")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from replykit.fuzz.classify import ClassKey
from replykit.fuzz.ops import Op


@attrs.frozen
class FuzzClass:
    """One class of findings: the first input of its key, shrunk.

    ``key``: the :class:`~replykit.fuzz.classify.ClassKey` (``rule`` and ``op`` are
    its parts); ``input``: the request body (``{"text", "message_id", "profile"}``,
    ``{"arguments"}`` or ``{"answer"}``), 1-minimal for disagreements, as found for
    adapter failures; ``inputs``: up to :data:`MAX_INPUTS` distinct minimal inputs of
    the class, ``input`` first; ``field``: JSON Pointer of the first differing field
    (``""`` for failures); ``expected``/``actual``: the values there (for failures,
    replykit's whole response and ``None``); ``expected_response``/``actual_response``:
    both whole responses for ``input``; ``count``: examples that fell in this class
    (shrinking steps not counted); ``found_after_examples``/``found_after_seconds``:
    when the class was first seen; ``detail``: the adapter failure, if any;
    ``accepted``: the key matched ``--accept`` (counted, not reported).

    It holds JSON values as exchanged with the adapter (plain ``dict`` and ``list``), so it does
    not hash.
    """

    rule: str
    op: Op
    input: Mapping[str, Any]
    field: str
    expected: Any
    actual: Any
    expected_response: Mapping[str, Any]
    actual_response: Mapping[str, Any] | None
    count: int
    found_after_examples: int
    found_after_seconds: float
    detail: str = ""
    key: ClassKey | None = None
    inputs: tuple[Mapping[str, Any], ...] = ()
    accepted: bool = False

    @property
    def is_failure(self) -> bool:
        """True for adapter failures (``adapter.*`` rules)."""
        return self.rule.startswith("adapter.")

    @property
    def key_features(self) -> tuple[str, ...]:
        """The features part of the key (those of ``input``)."""
        return self.key.features if self.key is not None else ()

    @property
    def key_text(self) -> str:
        """The class key as one line (:meth:`~replykit.fuzz.classify.ClassKey.text`)."""
        key = self.key if self.key is not None else ClassKey(self.op, self.rule)
        return key.text()


@attrs.frozen
class FuzzReport:
    """The result of :func:`fuzz`: ``classes`` in the order found (accepted ones left
    out); ``accepted``: the classes whose key ``--accept`` names, counted, not reported;
    ``examples_run`` (explicit plus generated requests answered, shrinking steps not
    counted); ``seconds`` (wall time); ``unsupported_ops``; ``unsupported_profiles``
    (profiles the adapter answered ``unsupported`` for, or left out by ``profiles``);
    ``adapter_starts``; ``stopped`` (why the run ended early, ``""`` when it ran its
    budget); ``profiles``: the profiles drawn (``()``: all)."""

    classes: tuple[FuzzClass, ...]
    examples_run: int
    seconds: float
    ops: tuple[Op, ...]
    seed: int
    command: tuple[str, ...]
    unsupported_ops: tuple[Op, ...] = ()
    adapter_starts: int = 0
    stopped: str = ""
    accepted: tuple[FuzzClass, ...] = ()
    unsupported_profiles: tuple[str, ...] = ()
    profiles: tuple[str, ...] = ()

    @property
    def rate(self) -> float:
        """Examples per second."""
        return self.examples_run / self.seconds if self.seconds > 0 else 0.0


__all__ = ["FuzzClass", "FuzzReport"]
