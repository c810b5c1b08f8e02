"""The canonical records themselves, as JSON or JSON Lines (every record, incomplete ones too)."""

from __future__ import annotations

import json
from typing import Any, Iterator, Sequence

from ..model import Paper


def record(paper: Paper, *, include_proceedings: bool = False) -> dict[str, Any]:
    data = paper.to_dict()
    if include_proceedings:
        data["proceedings"] = paper.proceedings.to_dict()
    return data


def render_json(papers: Sequence[Paper], *, include_proceedings: bool = False, **_: Any) -> Iterator[str]:
    yield "["
    for n, paper in enumerate(papers):
        text = json.dumps(record(paper, include_proceedings=include_proceedings),
                          ensure_ascii=False, indent=2, sort_keys=True)
        yield ("," if n else "") + "\n" + "\n".join("  " + line for line in text.split("\n"))
    yield "\n]\n" if papers else "]\n"


def render_jsonl(papers: Sequence[Paper], *, include_proceedings: bool = False, **_: Any) -> Iterator[str]:
    for paper in papers:
        yield json.dumps(record(paper, include_proceedings=include_proceedings),
                         ensure_ascii=False, sort_keys=True, separators=(",", ":")) + "\n"
