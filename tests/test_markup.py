"""The inline markup of titles and abstracts."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from icml2026 import markup
from icml2026.markup import MarkupError, Segment


@given(st.text())
@settings(max_examples=500)
def test_escape_round_trips_any_text(text: str) -> None:
    assert markup.to_plain(markup.escape(text)) == text
    assert markup.is_plain(markup.escape(text))


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
