"""What the YAML 1.2.2 referee (:mod:`.yaml_referee`) reports of its own rules: a
:class:`SyntaxProblem` (an error at an offset) or a :data:`Note` (a directive's
warning), docs/protocol.md §4.1."""

from __future__ import annotations

from typing import Any

import yaml


class SyntaxProblem(yaml.YAMLError):
    """A YAML 1.2 rule the referee enforces itself: ``kind`` names it (a key of
    :data:`replykit.questionnaire.payload.yaml_errors.KINDS`), ``index`` is a code-point offset."""

    def __init__(self, kind: str, index: int, text: str = "") -> None:
        super().__init__(kind)
        self.kind = kind
        self.index = index
        self.text = text  # what the message names (an escape, a version), or ""

    def __reduce__(self) -> tuple[Any, ...]:
        """Rebuilt from ``kind``, ``index`` and ``text``, so it pickles and copies."""
        return type(self), (self.kind, self.index, self.text), vars(self)


#: A note of the referee: ``(kind, start, end, text)``, where ``kind`` is
#: ``"minor_version"`` (``%YAML 1.3``, read as 1.2) or ``"reserved"`` (``%FOO``,
#: ignored) and ``text`` the version or the directive's name.
Note = tuple[str, int, int, str]
_VERSION_SHOWN = 16  # digits of a version a message shows at most


def shown_version(text: str) -> str:
    """A version as a message shows it: at most 16 digits, then ``...``."""
    return text if len(text) <= _VERSION_SHOWN else text[:_VERSION_SHOWN] + "..."
