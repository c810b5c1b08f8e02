"""Plain text for RIS and the CSL-JSON abstract: markup dropped, math in Unicode where faithful."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from icml2026 import markup
from icml2026.exporters.plain import math_to_unicode, plain_text, plain_text_by_segments, unicode_math


@pytest.mark.parametrize(("latex", "unicode"), [
    (r"O(|\mu - \alpha|^2)", "O(|μ − α|²)"),  # the issue's example: minus sign, superscript
    (r"\to", "→"),
    (r"\mathbb{R}^d", "ℝᵈ"),
    (r"\mathcal{O}(\log N)", "𝒪(log N)"),
    (r"x_{ij}^{2}", "xᵢⱼ²"),
    (r"\widetilde{O}(\sqrt{T})", "Õ(√T)"),  # combining tilde, composed (NFC)
    (r"\sqrt{\kappa T}", "√(κT)"),  # the space after \kappa only ends the macro name
    (r"M \ge 3", "M ≥ 3"),  # … but a relation keeps the spaces typed around it
    (r"n\log n", "n log n"),
    (r"\frac{2137}{2136}", "2137/2136"),
    (r"\text{DT}^\text{2}", "DT²"),
    (r"0.2\%\text{--}0.9\%", "0.2%–0.9%"),  # text mode: -- is an en dash
    (r"10^{−4}", "10⁻⁴"),
    (r"\not =", "≠"),
    (r"q_1, \ldots, q_{i-1}", "q₁, …, qᵢ₋₁"),
    (r"\left(\frac{a}{b}\right)", "(a/b)"),
])
def test_math_with_a_unicode_form(latex: str, unicode: str) -> None:
    assert math_to_unicode(latex) == unicode


@pytest.mark.parametrize("latex", [
    r"T^{3/4}",  # no superscript solidus
    r"D_K",  # no subscript capital K
    r"\binom{k}{2}",
    r"\sqrt[3]{x}",
    r"\widetilde{abc}",  # no combining form over three letters
    r"\unknownmacro x",
    r"a \\ b",
    r"\frac{1}",  # an argument missing
    r"{x",  # unclosed group
    r"x}",
    r"50% off",  # a TeX comment
])
def test_math_without_a_faithful_form(latex: str) -> None:
    assert math_to_unicode(latex) is None


def test_plain_text_of_the_issue_examples() -> None:
    assert plain_text(r"NC$\to$LP") == "NC→LP"
    assert plain_text("*OpenDeception* is new") == "OpenDeception is new"
    assert plain_text(r"costs $O(|\mu - \alpha|^2)$ and 5\% more") == "costs O(|μ − α|²) and 5% more"
    assert plain_text(r"keeps $\binom{k}{2}$ whole") == r"keeps $\binom{k}{2}$ whole"
    # Scripts Unicode has no characters for: the plain-text convention, never a TeX command.
    assert plain_text(r"Estimation in $\ell_\infty$") == "Estimation in ℓ_∞"
    assert plain_text(r"RLV$^{\varepsilon}$R") == "RLV^εR"
    assert plain_text(r"$x^{\alpha\beta}$ and $x_{\infty,2}$") == "x^(αβ) and x_(∞,2)"


MATH = st.text(alphabet="x^_{}\\ab2-+()|αμ \u0301%$&", max_size=12).filter(lambda v: not v.endswith("\\"))


@settings(max_examples=500, deadline=None)
@given(MATH)
def test_any_math_converts_or_is_refused(latex: str) -> None:
    """Never a crash; a result is NFC text without TeX syntax left in it."""
    result = math_to_unicode(latex)
    if result is not None:
        assert unicodedata.is_normalized("NFC", result)
        assert "\\" not in result and "^" not in result
        if not any(escape in latex for escape in ("\\{", "\\}", "\\_")):
            assert not set(result) & set("_{}")


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(
    st.builds(markup.Segment, st.just("text"), st.text(min_size=1, max_size=10), st.booleans()),
    st.builds(markup.Segment, st.just("math"), MATH.filter(lambda v: "$" not in v), st.booleans())),
    max_size=5))
def test_plain_text_keeps_every_text_segment(segments: list[markup.Segment]) -> None:
    source = markup.from_segments(segments)
    shown = plain_text(source)
    for seg in markup.parse(source):
        if seg.kind == "text":
            assert seg.value in shown
        else:
            assert unicode_math(seg.value) in shown


@settings(max_examples=1000, deadline=None)
@given(st.text(alphabet="ab \\$*%x^{}", max_size=16))
def test_one_pass_agrees_with_markup_parse(source: str) -> None:
    """The regex pass reads markup exactly as markup.parse does, malformed markup included."""
    try:
        expected = plain_text_by_segments(source)
    except markup.MarkupError:
        with pytest.raises(markup.MarkupError):
            plain_text(source)
        return
    assert plain_text(source) == expected


def test_no_plain_title_or_abstract_of_the_volume_holds_tex(volume) -> None:  # type: ignore[no-untyped-def]
    """RIS, the CSL-JSON abstract, Zotero and formatted citations show these as they are."""
    tex = re.compile(r"\\[A-Za-z]+|\$")
    shown = [(p.id, plain_text(text)) for p in volume for text in (p.title, p.abstract) if text]
    assert [(pid, text) for pid, text in shown if tex.search(text)] == []
    assert any("ℓ_∞" in text for _, text in shown)  # the scripts Unicode lacks are marked, not TeX
