"""Every public entry point that takes a profile accepts the same forms (§6): a
:class:`Profile`, or a name as the CLI's ``--profile`` spells it."""

from __future__ import annotations

import pytest

from replykit import CLIENT, SELF_CHECK, StreamSegmenter, product, segment
from replykit.questionnaire.profiles import resolve_profile

_TEXT = "Hi <yiii-questionnaire>{}</yiii-questionnaire> <questionnaire>{}</questionnaire>"
_FORMS = (("client", CLIENT), ("self_check", SELF_CHECK), ("product:yiii", product("yiii")))


def _streamed(**options: object) -> object:
    seg = StreamSegmenter(**options)  # type: ignore[arg-type]
    seg.push(_TEXT)
    return seg.finish()


def _rendered(**options: object) -> str:
    from replykit.markdown_it import render_html

    return render_html(_TEXT, **options)  # type: ignore[arg-type]


@pytest.mark.parametrize(("name", "profile"), _FORMS)
def test_a_name_reads_as_its_profile(name: str, profile: object) -> None:
    assert resolve_profile(name) == profile
    by_name, by_object = segment(_TEXT, profile=name), segment(_TEXT, profile=profile)  # type: ignore[arg-type]
    assert by_name == by_object
    assert _streamed(profile=name) == by_object
    pytest.importorskip("markdown_it")
    assert _rendered(profile=name) == _rendered(profile=profile)


def test_registration_follows_the_named_profile() -> None:
    registered = [s.registered for s in segment(_TEXT, profile="product:yiii").segments[1::2]]
    assert registered == [True, True]
    registered = [s.registered for s in segment(_TEXT, profile="client").segments[1::2]]
    assert registered == [False, True]


@pytest.mark.parametrize("call", [segment, _streamed, _rendered])
def test_unknown_names_and_wrong_types_are_refused(call: object) -> None:
    if call is _rendered:
        pytest.importorskip("markdown_it")
    run = (lambda **o: call(_TEXT, **o)) if call is segment else call  # type: ignore[operator]
    with pytest.raises(ValueError, match="unknown profile 'bogus'"):
        run(profile="bogus")
    with pytest.raises(ValueError, match="product namespace"):
        run(profile="product:Bad!")
    with pytest.raises(TypeError, match="'profile'"):
        run(profile=3)
