"""The inline markup of titles and abstracts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_csl import read_csl

from icml2026 import markup
from icml2026.bibtex import latex_decode, latex_encode
from icml2026.exporters.csl import rich_text
from icml2026.exporters.plain import math_to_unicode, plain_text, unicode_math
from icml2026.markup import MarkupError, Segment


@given(st.text())
@settings(max_examples=500)
def test_escape_round_trips_any_text(text: str) -> None:
    assert markup.to_plain(markup.escape(text)) == text
    assert all(s.kind == "text" and not s.emph for s in markup.parse(markup.escape(text)))


def test_seed_conventions() -> None:
    assert markup.parse(r"17\% of $2^d$ and *TrustNet*") == [
        Segment("text", "17% of "), Segment("math", "2^d"), Segment("text", " and "),
        Segment("text", "TrustNet", emph=True),
    ]


math_text = st.text(alphabet=st.characters(blacklist_characters="$\\"), min_size=1) | st.just(r"\to")
segment = st.one_of(
    st.builds(Segment, st.just("text"), st.text(min_size=1), st.booleans()),
    st.builds(Segment, st.just("math"), math_text, st.booleans()),
)


@given(st.lists(segment))
def test_parse_inverts_from_segments(segments: list[Segment]) -> None:
    assert markup.parse(markup.from_segments(segments)) == markup._merge(segments)


@pytest.mark.parametrize("bad,offset", [("a $b", 2), ("*x", 0), (r"\$ $", 3)])
def test_unclosed_markup(bad: str, offset: int) -> None:
    with pytest.raises(MarkupError) as info:
        markup.parse(bad)
    assert info.value.offset == offset


# -- one grammar: the tokens, and every renderer reading them alike ------------------

TEXT = st.text(alphabet="aZi <>&;/%$*\\_{}#~^", min_size=1, max_size=8).filter(
    lambda t: t == t.strip() and "  " not in t)  # whitespace the LaTeX writer would normalise
MATH = st.text(alphabet="x2+^ab", min_size=1, max_size=5).filter(
    lambda v: latex_encode.math_is_safe(v, ascii_only=True))  # unsafe math is written as text, on purpose
SEGMENTS = st.lists(st.one_of(st.builds(Segment, st.just("text"), TEXT, st.booleans()),
                              st.builds(Segment, st.just("math"), MATH, st.booleans())), min_size=1, max_size=6)


@given(SEGMENTS)
@settings(max_examples=300)
def test_tokens_map_back_onto_the_source(segments: list[Segment]) -> None:
    source = markup.from_segments(segments)
    found = markup.tokens(source)
    position = 0
    for token in found:
        assert set(source[position:token.start]) <= {"*"}, "only emphasis toggles lie between tokens"
        if token.kind == "math":
            assert source[token.start:token.end] == f"${token.value}$"
        else:
            assert len(token.offsets()) == len(token.value)
            for ch, offset in zip(token.value, token.offsets()):
                assert source[offset] == ch or source[offset:offset + 2] == "\\" + ch
        position = token.end
    assert set(source[position:]) <= {"*"}
    assert markup.parse(source) == markup._merge([Segment(t.kind, t.value, t.emph) for t in found])


@given(SEGMENTS)
@settings(max_examples=300, deadline=None)
def test_every_renderer_agrees_on_segment_boundaries(segments: list[Segment]) -> None:
    """LaTeX, CSL rich text (HTML-like) and plain text: each read back by a reader of its own."""
    source = markup.from_segments(segments)
    expected = markup.parse(source)
    assert markup.parse(latex_decode.decode(latex_encode.encode_markup(source))) == expected  # read by pylatexenc
    chars = [(ch, seg.emph) for seg in expected
             for ch in (unicode_math(seg.value) if seg.kind == "math" else seg.value)]
    assert [(ch, italic) for ch, italic, _ in read_csl(rich_text(source))] == chars
    assert plain_text(source) == "".join(
        (math_to_unicode(seg.value) or f"${seg.value}$") if seg.kind == "math" else seg.value for seg in expected)
    assert "".join(ch for ch, _ in chars) == plain_text(source)  # CSL text and plain text: the same characters
