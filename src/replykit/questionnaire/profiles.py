"""Profiles (§6): which request names count as registered.

A block's *registered* flag, and so its validity, depends on the profile; how a
message is segmented and which ids its blocks get never does.
"""

from __future__ import annotations

import functools
import re

import attrs

from replykit.argcheck import typed
from replykit.jsonout import shown_repr
from replykit.textout import quoted

RESPONSE_SUFFIX = "-response"


@functools.cache
def _namespace() -> re.Pattern[str]:
    from replykit.questionnaire.scan.grammar import (
        family_parts,  # the grammar's; imported when used
    )

    return re.compile(family_parts().namespace)


def _check_namespace(namespace: object) -> None:
    """Raise ``ValueError`` unless ``namespace`` is a product namespace (§6)."""
    pattern = _namespace()
    if not isinstance(namespace, str) or not pattern.fullmatch(namespace):
        got = quoted(namespace) if isinstance(namespace, str) else shown_repr(namespace)
        raise ValueError(f"product namespace must match {pattern.pattern}, got {got}")


def _check_request(request: str) -> None:
    """Raise ``ValueError`` unless ``request`` is a request name of the family (§6)."""
    from replykit.questionnaire.scan.grammar import family_parts, family_pattern

    parts = family_parts()
    suffix = parts.separator + parts.base
    if request != parts.base and request.endswith(suffix):
        _check_namespace(request[: -len(suffix)])
    elif request != parts.base:
        raise ValueError(f"request name must match {family_pattern()}, got {quoted(request)}")


@typed
@attrs.frozen
class Profile:
    """A named set of registered request names; each one's response name is
    ``name + "-response"`` (§6).
    The constructor raises ``TypeError`` naming the field when a value has the wrong
    type, and ``ValueError`` for a request name no block can have, as :func:`product`
    does: ``questionnaire`` or ``NAMESPACE-questionnaire`` with ``NAMESPACE`` of
    ``[a-z0-9]+`` (``Foo``, ``a-b-questionnaire``, ``questionnaire-response`` are
    refused; a typo would otherwise leave every block ``name.unregistered``).
    """

    name: str
    requests: frozenset[str]

    def __attrs_post_init__(self) -> None:
        for request in sorted(self.requests):
            _check_request(request)

    def registers(self, block_name: str) -> bool:
        """True when ``block_name`` (a request or response name) is registered."""
        if block_name.endswith(RESPONSE_SUFFIX):
            block_name = block_name[: -len(RESPONSE_SUFFIX)]
        return block_name in self.requests


#: What Sage Desktop and Server Web render (docs/protocol.md §6).
CLIENT = Profile("client", frozenset({"questionnaire", "sage-questionnaire"}))
#: The five names the runtime's Self-check reads (docs/protocol.md §6).
SELF_CHECK = Profile(
    "self_check",
    frozenset(
        {
            "questionnaire",
            "yiii-questionnaire",
            "movo-questionnaire",
            "ling-questionnaire",
            "sage-questionnaire",
        }
    ),
)


@typed
def product(namespace: str) -> Profile:
    """The profile of a product's own client: ``questionnaire`` and
    ``<namespace>-questionnaire`` (§6). Raises ``ValueError`` when ``namespace`` is
    not ``[a-z0-9]+`` (the namespace part of the grammar's family pattern).
    Raises ``TypeError`` naming the argument when an argument has the wrong type.
    """
    _check_namespace(namespace)
    return Profile(
        f"product:{namespace}", frozenset({"questionnaire", f"{namespace}-questionnaire"})
    )


@typed
def profile_from_string(spec: str) -> Profile:
    """Parse the CLI spelling ``client``, ``self_check`` or ``product:NAME``.

    Raises ``ValueError`` for anything else.
    Raises ``TypeError`` naming the argument when an argument has the wrong type.
    """
    if spec == "client":
        return CLIENT
    if spec == "self_check":
        return SELF_CHECK
    if spec.startswith("product:"):
        return product(spec[len("product:") :])
    raise ValueError(f"unknown profile {quoted(spec)}: use client, self_check or product:NAME")


def resolve_profile(profile: Profile | str) -> Profile:
    """The :class:`Profile` every public entry point taking ``profile`` reads (§6):
    a :class:`Profile` as given, or a name as the CLI's ``--profile`` spells it
    (``client``, ``self_check``, ``product:NAME``, :func:`profile_from_string`).
    Raises ``ValueError`` for an unknown name."""
    return profile if isinstance(profile, Profile) else profile_from_string(profile)
