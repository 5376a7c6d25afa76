"""The keyword options of :func:`~replykit.evals.record.audit_record`,
:func:`~replykit.evals.record.audit_json` and :func:`~replykit.evals.record.audit_lines`,
checked once before any record is read.

Those functions never raise for a record (a bad record is a result with an ``error``),
so a caller's mistake in an option must not become one error per record: a wrong type
raises ``TypeError("NAME() argument 'OPTION' must be EXPECTED, not ACTUAL")``, the
wording of :mod:`replykit.argcheck`, and an ``expect`` outside ``any``/``form``/``none``
raises ``ValueError``, as :func:`~replykit.evals.compliance.compliance` does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from replykit.argcheck import type_name
from replykit.evals.compliance import EXPECTS
from replykit.questionnaire.profiles import Profile


def _field(value: object) -> bool:
    return value is None or isinstance(value, str)


#: Each option: what it must be (as the error says it) and the test of a value.
OPTIONS: dict[str, tuple[str, Callable[[object], bool]]] = {
    "text_field": ("str or None", _field),
    "expect": ("str", lambda v: isinstance(v, str)),
    "expect_field": ("str or None", _field),
    "group_by": ("str or None", _field),
    # bool only: "yes" or 1 for a flag is a mistake, not a truth value.
    "latest": ("bool", lambda v: isinstance(v, bool)),
    "profile": ("Profile", lambda v: isinstance(v, Profile)),
    "lenient": ("bool", lambda v: isinstance(v, bool)),
}


def check_options(where: str, options: Mapping[str, Any]) -> None:
    """Check the options of an audit function called ``where`` (``audit_record``...).

    Input: the keyword arguments as passed (``{name: value}``; a name left out takes
    its default, which needs no check). Output: ``None``. Raises ``TypeError`` for a
    name that is no option (``audit_json() got an unexpected keyword argument 'x'``,
    as Python says it) or a value of the wrong type (``audit_record() argument
    'group_by' must be str or None, not int``), and ``ValueError`` for an ``expect``
    outside ``any``/``form``/``none``.
    """
    for name, value in options.items():
        known = OPTIONS.get(name)
        if known is None:
            raise TypeError(f"{where}() got an unexpected keyword argument {name!r}")
        expected, fits = known
        if not fits(value):
            raise TypeError(
                f"{where}() argument {name!r} must be {expected}, not {type_name(value)}"
            )
    expect = options.get("expect", "any")
    if expect not in EXPECTS:
        shown = repr(expect[:60])  # the caller's own text, bounded all the same
        raise ValueError(
            f"{where}() argument 'expect' must be one of {', '.join(EXPECTS)}, not {shown}"
        )
