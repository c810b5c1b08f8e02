"""The format table and the renderers agree: a renderer's signature says what it takes.

``check_options`` gives each renderer only the options its ``Format`` declares, so a renderer
takes exactly those as keyword-only parameters, with the table's defaults, and no catch-all
``**kwargs`` that would hide an option the table forgot (or one a renderer lost).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

import pytest

from icml2026.exporters import FORMATS, OPTION_RULES, OPTIONS, renderer


def signature_problems(render: Callable[..., object], options: tuple[str, ...]) -> list[str]:
    """What in *render*'s signature disagrees with the declared *options* (empty: nothing)."""
    parameters = list(inspect.signature(render).parameters.values())
    problems = []
    if not parameters or parameters[0].name != "papers" or parameters[0].kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD:
        problems.append("the first parameter is not papers")
    rest = parameters[1:]
    problems += [f"{p.name} is {p.kind.description}" for p in rest if p.kind is not inspect.Parameter.KEYWORD_ONLY]
    names = {p.name for p in rest if p.kind is inspect.Parameter.KEYWORD_ONLY}
    problems += [f"{name} is declared but not taken" for name in sorted(set(options) - names)]
    problems += [f"{name} is taken but not declared" for name in sorted(names - set(options))]
    problems += [f"{p.name} defaults to {p.default!r}, the table to {OPTION_RULES[p.name][0]!r}"
                 for p in rest if p.name in OPTION_RULES and p.default != OPTION_RULES[p.name][0]]
    return problems


@pytest.mark.parametrize("name", sorted(FORMATS))
def test_the_renderer_takes_exactly_the_declared_options(name: str) -> None:
    spec = FORMATS[name]
    assert signature_problems(renderer(spec), spec.options) == []


def test_every_option_is_some_format_s() -> None:
    declared = {option for spec in FORMATS.values() for option in spec.options}
    assert declared == set(OPTIONS) == set(OPTION_RULES)


def test_the_check_sees_a_catch_all_and_a_mismatch() -> None:
    def swallowing(papers: object, *, abstract: bool | None = None, **_: object) -> None:
        return None

    def other_default(papers: object, *, key_style: str = "pmlr") -> None:
        return None

    assert signature_problems(swallowing, ("abstract",)) == ["_ is variadic keyword"]
    assert signature_problems(swallowing, ("abstract", "key_style")) == [
        "_ is variadic keyword", "key_style is declared but not taken"]
    assert signature_problems(other_default, ("key_style",)) == [
        "key_style defaults to 'pmlr', the table to 'canonical'"]
    assert signature_problems(other_default, ()) == [
        "key_style is taken but not declared", "key_style defaults to 'pmlr', the table to 'canonical'"]
