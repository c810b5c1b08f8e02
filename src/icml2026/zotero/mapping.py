"""Paper → Zotero ``conferencePaper`` item (schema v41), item keys and the sync fingerprint.

The sync owns a fixed set of fields (:data:`OWNED_FIELDS`) plus a block of
``extra`` lines.  Everything else on an item (other fields, other ``extra``
lines, tags, collections, notes) belongs to the user once the item exists.

To tell "the user edited this field" from "our data changed since the last
sync" without any local state, each item carries one ``extra`` line
``icml2026-sync: 1.<fingerprint>``: a short hash of every owned value as we
last wrote it.  That is the *base* of a three-way merge (see :func:`merge`).
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from typing import Any, Mapping

from ..markup import to_plain
from ..model import Paper, Person

ITEM_TYPE = "conferencePaper"
TAG = "ICML 2026"
# Zotero object keys: 8 characters, no 0, 1, O or lowercase (dataserver ID::isValidKey).
KEY_ALPHABET = "23456789ABCDEFGHIJKLMNPQRSTUVWXYZ"
KEY_LENGTH = 8

# Fields of conferencePaper in Zotero schema v41, in schema order
# (tests check this list against shared/reference/zotero-schema-v41.json).
CONFERENCE_PAPER_FIELDS = (
    "title", "abstractNote", "proceedingsTitle", "conferenceName", "publisher", "place", "date",
    "eventPlace", "volume", "issue", "numberOfVolumes", "pages", "series", "seriesNumber", "DOI",
    "ISBN", "citationKey", "url", "accessDate", "ISSN", "archive", "archiveLocation", "shortTitle",
    "language", "libraryCatalog", "callNumber", "rights", "extra",
)
CREATOR_TYPES = ("author", "contributor", "editor", "translator", "seriesEditor")

# The fields this package writes and may later update.  ``extra`` is handled as
# a block of lines (EXTRA_BLOCK), never as the whole field.
OWNED_FIELDS = (
    "title", "creators", "abstractNote", "proceedingsTitle", "conferenceName", "publisher", "place",
    "eventPlace", "date", "volume", "pages", "series", "DOI", "ISSN", "citationKey", "url", "language",
)
EXTRA_BLOCK = "extra"
MERGED_FIELDS = (*OWNED_FIELDS, EXTRA_BLOCK)

# ``extra`` lines this package writes; a line starting with one of these belongs to us.
EXTRA_PREFIXES = ("OpenReview: ", "PMLR: ", "arXiv: ", "icml2026-id: ", "icml2026-source: ")
SYNC_PREFIX = "icml2026-sync: "
FINGERPRINT_VERSION = "1"
_HASH_BYTES = 3  # per field: a user edit is mistaken for our value with p = 2**-24


def item_key(paper_id: str) -> str:
    """The Zotero key of *paper_id*'s item: 40 bits of SHA-256 in Zotero's key alphabet."""
    return key_from_text(f"icml2026:{paper_id}")


def collection_key(name: str) -> str:
    """The key a collection named *name* gets when this package creates it."""
    return key_from_text(f"icml2026-collection:{name}")


def key_from_text(text: str) -> str:
    number = int.from_bytes(hashlib.sha256(text.encode("utf-8")).digest()[:5], "big")
    chars = []
    for _ in range(KEY_LENGTH):
        number, digit = divmod(number, len(KEY_ALPHABET))
        chars.append(KEY_ALPHABET[digit])
    return "".join(chars)


# -- paper → owned values -------------------------------------------------------------

def creator(person: Person, creator_type: str) -> dict[str, str]:
    """A Zotero creator; organisations and one-part names use the single-field form."""
    if person.literal or not person.family:
        return {"creatorType": creator_type, "name": person.literal or person.given or ""}
    last = " ".join(p for p in (person.particle, person.family) if p)
    first = person.given or ""
    if person.suffix:
        first = f"{first}, {person.suffix}" if first else person.suffix
    return {"creatorType": creator_type, "firstName": first, "lastName": last}


def owned_values(paper: Paper) -> dict[str, Any]:
    """Every owned field of *paper*'s item; absent facts are ``""`` so they clear stale values."""
    proc = paper.proceedings
    creators = [creator(p, "author") for p in paper.authors]
    creators += [creator(p, "editor") for p in proc.editors]
    pages = f"{paper.pages.first}-{paper.pages.last}" if paper.pages else ""
    if paper.pages and paper.pages.first == paper.pages.last:
        pages = str(paper.pages.first)
    return {
        # Stripped: a server that trims values must not look like a user edit.
        "title": to_plain(paper.title).strip() if paper.title else "",
        "creators": creators,
        "abstractNote": to_plain(paper.abstract).strip() if paper.abstract else "",
        "proceedingsTitle": proc.booktitle or "",
        "conferenceName": proc.event_title or "",
        "publisher": proc.publisher or "",
        # PMLR's ``address`` is where the conference was held: the BibTeX address
        # (CSL publisher-place, ``place``) and, since schema v41, ``eventPlace``.
        "place": proc.address or "",
        "eventPlace": proc.address or "",
        "date": _date(paper),
        "volume": str(proc.volume) if proc.volume is not None else "",
        "pages": pages,
        "series": proc.series or "",
        "DOI": paper.identifiers.doi or "",
        "ISSN": proc.issn or "",
        "citationKey": paper.citation_key or "",
        "url": paper.links.proceedings or "",
        "language": paper.language or "",
    }


def _date(paper: Paper) -> str:
    """Year and month of the conference (PMLR's ``month``), else the year."""
    start = paper.proceedings.start_date
    return start[:7] if start and start[:4] == str(paper.year) else str(paper.year)


def extra_lines(paper: Paper) -> list[str]:
    """Our identifier and provenance lines for ``extra`` (without the sync line)."""
    ids = paper.identifiers
    lines = []
    if ids.openreview:
        lines.append(f"OpenReview: {ids.openreview}")
    if ids.pmlr:
        lines.append(f"PMLR: {ids.pmlr}")
    if ids.arxiv:
        lines.append(f"arXiv: {ids.arxiv}")
    lines.append(f"icml2026-id: {paper.id}")
    source = paper.source_of("/title")
    if source is not None:
        when = f", retrieved {source.retrieved}" if source.retrieved else ""
        lines.append(f"icml2026-source: {source.name}{when}")
    return lines


# -- the extra field ------------------------------------------------------------------

@dataclass(frozen=True)
class Extra:
    """An ``extra`` field split into the user's lines, our block and our sync line."""

    user_lines: tuple[str, ...]
    block: str
    fingerprint: str | None

    @classmethod
    def parse(cls, text: str) -> Extra:
        user, ours, fingerprint = [], [], None
        for line in text.splitlines():
            if line.startswith(SYNC_PREFIX):
                fingerprint = line[len(SYNC_PREFIX):].strip()
            elif line.startswith(EXTRA_PREFIXES):
                ours.append(line)
            else:
                user.append(line)
        return cls(tuple(user), "\n".join(ours), fingerprint)

    def render(self, block: str, fingerprint: str) -> str:
        lines = [*self.user_lines, *([block] if block else []), SYNC_PREFIX + fingerprint]
        return "\n".join(lines)


# -- fingerprint: hashes of the values we last wrote ---------------------------------

def value_hash(value: Any) -> bytes:
    canonical = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).digest()[:_HASH_BYTES]


def encode_fingerprint(hashes: Mapping[str, bytes]) -> str:
    raw = b"".join(hashes[name] for name in MERGED_FIELDS)
    return f"{FINGERPRINT_VERSION}.{base64.urlsafe_b64encode(raw).decode('ascii')}"


def decode_fingerprint(text: str | None) -> dict[str, bytes] | None:
    """The per-field hashes of a sync line, or None if absent or from another format."""
    if not text or not text.startswith(FINGERPRINT_VERSION + "."):
        return None
    try:
        raw = base64.urlsafe_b64decode(text[len(FINGERPRINT_VERSION) + 1:].encode("ascii"))
    except (ValueError, UnicodeEncodeError):
        return None
    if len(raw) != _HASH_BYTES * len(MERGED_FIELDS):
        return None
    return {name: raw[i * _HASH_BYTES:(i + 1) * _HASH_BYTES] for i, name in enumerate(MERGED_FIELDS)}


# -- whole items ----------------------------------------------------------------------

def desired_state(paper: Paper) -> dict[str, Any]:
    """Owned fields plus the ``extra`` block: what the merge compares."""
    state = owned_values(paper)
    state[EXTRA_BLOCK] = "\n".join(extra_lines(paper))
    return state


def new_item(paper: Paper, collection: str | None) -> dict[str, Any]:
    """The JSON to create *paper*'s item: deterministic key, ``version: 0`` (replay-safe)."""
    state = desired_state(paper)
    fingerprint = encode_fingerprint({name: value_hash(state[name]) for name in MERGED_FIELDS})
    item: dict[str, Any] = {"key": item_key(paper.id), "version": 0, "itemType": ITEM_TYPE}
    item.update({name: state[name] for name in OWNED_FIELDS if state[name] != ""})
    item["extra"] = Extra((), "", None).render(state[EXTRA_BLOCK], fingerprint)
    item["tags"] = [{"tag": TAG}]
    item["collections"] = [collection] if collection else []
    return item


@dataclass(frozen=True)
class Merge:
    """The outcome of comparing one paper with its item in Zotero."""

    patch: dict[str, Any]          # owned fields to send (empty: nothing to do)
    kept: tuple[str, ...]          # fields the user edited, left as they are


def remote_state(data: Mapping[str, Any]) -> tuple[dict[str, Any], Extra]:
    extra = Extra.parse(str(data.get("extra") or ""))
    state = {name: _remote_value(data, name) for name in OWNED_FIELDS}
    state[EXTRA_BLOCK] = extra.block
    return state, extra


def _remote_value(data: Mapping[str, Any], name: str) -> Any:
    if name == "creators":
        return [_normal_creator(c) for c in data.get("creators") or []]
    value = data.get(name)
    return "" if value is None else value


def _normal_creator(c: Mapping[str, Any]) -> dict[str, str]:
    """Creators as we write them, so equal names compare equal whatever the key order."""
    if "name" in c:
        return {"creatorType": c.get("creatorType", ""), "name": c.get("name", "")}
    return {"creatorType": c.get("creatorType", ""), "firstName": c.get("firstName", ""),
            "lastName": c.get("lastName", "")}


def merge(paper: Paper, data: Mapping[str, Any]) -> Merge:
    """Three-way merge of our data, the item's *data* and the base in its sync line.

    Per field: equal → nothing; the item still holds what we last wrote (its
    hash equals the base) → take ours; the user changed it → keep theirs.  With
    no usable base (the sync line was removed) only empty fields are filled.
    """
    desired = desired_state(paper)
    current, extra = remote_state(data)
    base = decode_fingerprint(extra.fingerprint)
    patch: dict[str, Any] = {}
    kept: list[str] = []
    new_base: dict[str, bytes] = {}
    for name in MERGED_FIELDS:
        ours, theirs = desired[name], current[name]
        ours_hash = value_hash(ours)
        if theirs == ours:
            new_base[name] = ours_hash
        elif _untouched(theirs, base, name):
            patch[name] = ours
            new_base[name] = ours_hash
        else:
            kept.append(name)
            # Remember what we last wrote: the field stays the user's until they revert it.
            new_base[name] = base[name] if base else ours_hash
    fingerprint = encode_fingerprint(new_base)
    block = patch.pop(EXTRA_BLOCK, current[EXTRA_BLOCK])
    # Rewrite ``extra`` only when our part of it changed: the user's lines stay as they are.
    if block != current[EXTRA_BLOCK] or fingerprint != extra.fingerprint:
        patch["extra"] = extra.render(block, fingerprint)
    return Merge(patch, tuple(kept))


def _untouched(theirs: Any, base: Mapping[str, bytes] | None, name: str) -> bool:
    if base is None:
        return theirs in ("", [])
    return value_hash(theirs) == base[name]
