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
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..exporters.plain import plain_text
from ..identifiers import parse_openreview, parse_pmlr_url
from ..markup import MarkupError
from ..model import Paper, Person
from ..text import folded_words

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
# Fields of conferencePaper that no fact of ours fills, and why (tests check that every
# field of the schema is either owned or named here).
NOT_MAPPED = {
    "issue": "a proceedings volume has no issues",
    "numberOfVolumes": "PMLR 306 is one volume",
    "seriesNumber": "306 is already the volume; as both, styles print it twice",
    "ISBN": "PMLR volumes have no ISBN",
    "accessDate": "a fact of the user's visit, not of the paper",
    "archive": "not archived elsewhere by us",
    "archiveLocation": "not archived elsewhere by us",
    "shortTitle": "no short titles are recorded",
    "libraryCatalog": "Zotero's own: where an item was found",
    "callNumber": "a library's own shelf mark",
    "rights": "PMLR states no licence per paper",
    "extra": "ours in part only: a block of lines (EXTRA_BLOCK)",
}

# The fields this package writes and may later update.  ``extra`` is handled as
# a block of lines (EXTRA_BLOCK), never as the whole field.
OWNED_FIELDS = (
    "title", "creators", "abstractNote", "proceedingsTitle", "conferenceName", "publisher", "place",
    "eventPlace", "date", "volume", "pages", "series", "DOI", "ISSN", "citationKey", "url", "language",
)
EXTRA_BLOCK = "extra"
MERGED_FIELDS = (*OWNED_FIELDS, EXTRA_BLOCK)

# ``extra`` lines this package writes; a line starting with one of these belongs to us.
EXTRA_PREFIXES = ("OpenReview: ", "PMLR: ", "arXiv: ", "icml2026-id: ", "icml2026-source: ", "Citation Key: ")
# Before schema v39 (Zotero 7) conferencePaper has no citationKey field: the key goes
# into ``extra`` as Better BibTeX reads it there.  Zotero 8 ignores that line once the
# field exists, so with the field the key is written there and only there.
CITATION_KEY_LINE = "Citation Key: "
SYNC_PREFIX = "icml2026-sync: "
FINGERPRINT_VERSION = "2"
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


def owned_values(paper: Paper, fields: frozenset[str] | None = None) -> dict[str, Any]:
    """Every owned field of *paper*'s item; absent facts are ``""`` so they clear stale values.

    *fields* are the conferencePaper fields of the library's schema (None: schema v41):
    a field the schema lacks is left empty, as the server stores it.
    """
    values = _owned_values(paper)
    if fields is not None:
        values.update({name: "" for name in OWNED_FIELDS if name != "creators" and name not in fields})
    return values


def _owned_values(paper: Paper) -> dict[str, Any]:
    proc = paper.proceedings
    creators = [creator(p, "author") for p in paper.authors]
    creators += [creator(p, "editor") for p in proc.editors]
    pages = paper.pages.as_text("-") if paper.pages else ""
    return {
        # Stripped: a server that trims values must not look like a user edit.
        "title": plain_text(paper.title).strip() if paper.title else "",
        "creators": creators,
        "abstractNote": plain_text(paper.abstract).strip() if paper.abstract else "",
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
    """The year of publication: the package's one date rule (README, Dates)."""
    return str(paper.year)


def extra_lines(paper: Paper, fields: frozenset[str] | None = None) -> list[str]:
    """Our identifier and provenance lines for ``extra`` (without the sync line)."""
    ids = paper.identifiers
    lines = []
    if fields is not None and "citationKey" not in fields and paper.citation_key:
        lines.append(CITATION_KEY_LINE + paper.citation_key)
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
#
# Format 2 names each field (``2 title=Ab3x creators=Qw9z …``), so adding or
# removing an owned field leaves every other field's base intact.  Format 1 was
# positional in the order below; it is still read (that order is frozen here),
# and an item keeps it until something of ours on that item changes.

V1_FIELDS = (
    "title", "creators", "abstractNote", "proceedingsTitle", "conferenceName", "publisher", "place",
    "eventPlace", "date", "volume", "pages", "series", "DOI", "ISSN", "citationKey", "url", "language",
    "extra",
)
STATE_HASH_BYTES = 9   # what the local sync state keeps per field (longer: it is compared for equality)


def digest(value: Any) -> bytes:
    canonical = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(canonical.encode("utf-8")).digest()


def value_hash(value: Any) -> bytes:
    return digest(value)[:_HASH_BYTES]


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def encode_fingerprint(hashes: Mapping[str, bytes]) -> str:
    """``2 name=hash …`` in :data:`MERGED_FIELDS` order (then any other name, sorted)."""
    names = [n for n in MERGED_FIELDS if n in hashes] + sorted(set(hashes) - set(MERGED_FIELDS))
    return " ".join([FINGERPRINT_VERSION, *(f"{name}={_b64(hashes[name])}" for name in names)])


def decode_fingerprint(text: str | None) -> dict[str, bytes] | None:
    """Field name → hash of what we last wrote, from a format 2 or 1 sync line; None if unusable."""
    if not text:
        return None
    try:
        if text.startswith("2 "):
            pairs = (part.split("=", 1) for part in text[2:].split())
            found = {name: _unb64(value) for name, value in pairs}
            return found if all(len(h) == _HASH_BYTES for h in found.values()) else None
        if text.startswith("1."):
            raw = _unb64(text[2:])
            if len(raw) != _HASH_BYTES * len(V1_FIELDS):
                return None
            return {name: raw[i * _HASH_BYTES:(i + 1) * _HASH_BYTES] for i, name in enumerate(V1_FIELDS)}
    except (ValueError, UnicodeEncodeError):
        return None
    return None


# -- whole items ----------------------------------------------------------------------

def desired_state(paper: Paper, fields: frozenset[str] | None = None) -> dict[str, Any]:
    """Owned fields plus the ``extra`` block: what the merge compares (*fields*: the schema's)."""
    state = owned_values(paper, fields)
    state[EXTRA_BLOCK] = "\n".join(extra_lines(paper, fields))
    return state


def new_item(paper: Paper, collection: str | None, fields: frozenset[str] | None = None) -> dict[str, Any]:
    """The JSON to create *paper*'s item: deterministic key, ``version: 0`` (replay-safe).

    *fields*: the conferencePaper fields of the library's schema (None: schema v41).
    """
    state = desired_state(paper, fields)
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


@dataclass(frozen=True)
class Remote:
    """What the merge needs to know of an item: a hash per owned field, and ``extra`` whole.

    Built from the item's ``data`` as the server sent it, or from the local sync
    state (:meth:`to_json`), which keeps exactly this, so an item that did not
    change since the last sync can be planned without reading it again.
    """

    key: str
    version: int
    item_type: str
    deleted: bool
    hashes: Mapping[str, bytes]    # owned field → digest of its current value (STATE_HASH_BYTES)
    extra: str

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Remote:
        hashes = {name: digest(_remote_value(data, name))[:STATE_HASH_BYTES] for name in OWNED_FIELDS}
        version = data.get("version")
        return cls(str(data.get("key") or ""), version if isinstance(version, int) else 0,
                   str(data.get("itemType") or ""), bool(data.get("deleted")), hashes,
                   str(data.get("extra") or ""))

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "version": self.version, "type": self.item_type,
                "deleted": self.deleted, "extra": self.extra,
                "hashes": "".join(_b64(self.hashes[name]) for name in OWNED_FIELDS)}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Remote:
        """The inverse of :meth:`to_json`; ValueError/KeyError/TypeError when malformed."""
        width = len(_b64(bytes(STATE_HASH_BYTES)))
        text = raw["hashes"]
        if not isinstance(text, str) or len(text) != width * len(OWNED_FIELDS):
            raise ValueError("hashes of another set of fields")
        hashes = {name: _unb64(text[i * width:(i + 1) * width]) for i, name in enumerate(OWNED_FIELDS)}
        if any(len(h) != STATE_HASH_BYTES for h in hashes.values()):
            raise ValueError("malformed hashes")
        if not isinstance(raw["version"], int) or not isinstance(raw["extra"], str):
            raise TypeError("malformed sync state entry")
        return cls(str(raw["key"]), raw["version"], str(raw["type"]), bool(raw["deleted"]), hashes,
                   raw["extra"])


def _remote_value(data: Mapping[str, Any], name: str) -> Any:
    if name == "creators":
        return [_normal_creator(c) for c in data.get("creators") or [] if isinstance(c, Mapping)]
    value = data.get(name)
    return "" if value is None else value


def _normal_creator(c: Mapping[str, Any]) -> dict[str, str]:
    """Creators as we write them, so equal names compare equal whatever the key order."""
    if "name" in c:
        return {"creatorType": c.get("creatorType", ""), "name": c.get("name", "")}
    return {"creatorType": c.get("creatorType", ""), "firstName": c.get("firstName", ""),
            "lastName": c.get("lastName", "")}


_EMPTY = {digest("")[:STATE_HASH_BYTES], digest([])[:STATE_HASH_BYTES]}


def merge(paper: Paper, item: Mapping[str, Any] | Remote, fields: frozenset[str] | None = None) -> Merge:
    """Three-way merge of our data, the item (its ``data``, or a :class:`Remote`) and the base.

    Per field: equal → nothing; the item still holds what we last wrote (its
    hash equals the base in the sync line) → take ours; the user changed it →
    keep theirs.  A field the base does not name (the sync line was removed, or
    the field became ours after the item was written) is only filled if empty.
    """
    remote = item if isinstance(item, Remote) else Remote.from_data(item)
    extra = Extra.parse(remote.extra)
    current = dict(remote.hashes)
    current[EXTRA_BLOCK] = digest(extra.block)[:STATE_HASH_BYTES]
    base = decode_fingerprint(extra.fingerprint) or {}
    desired = desired_state(paper, fields)
    patch: dict[str, Any] = {}
    kept: list[str] = []
    new_base: dict[str, bytes] = {}
    for name in MERGED_FIELDS:
        ours = desired[name]
        ours_digest, theirs = digest(ours), current[name]
        if theirs == ours_digest[:STATE_HASH_BYTES]:
            new_base[name] = ours_digest[:_HASH_BYTES]
        elif (theirs[:_HASH_BYTES] == base[name]) if name in base else (theirs in _EMPTY):
            patch[name] = ours
            new_base[name] = ours_digest[:_HASH_BYTES]
        else:
            kept.append(name)
            # Remember what we last wrote: the field stays the user's until they revert it.
            new_base[name] = base.get(name, ours_digest[:_HASH_BYTES])
    block = patch.pop(EXTRA_BLOCK, extra.block)
    # Rewrite ``extra`` only when our part of it changed: the user's lines stay as they are,
    # and a format-1 sync line stays until there is something else to write.
    if block != extra.block or new_base != base:
        patch["extra"] = extra.render(block, encode_fingerprint(new_base))
    return Merge(patch, tuple(kept))


# -- finding an item the user added by hand ------------------------------------------------

# Zotero's rich text in titles (what its editor writes for italics and the like).
_ZOTERO_TAG = re.compile(r"</?(?:i|b|sub|sup|sc|span)\b[^<>]*>", re.IGNORECASE)


def normal_title(plain: str) -> str:
    """Case, accents, punctuation and spacing removed: how two copies of a title are compared."""
    return " ".join(folded_words(plain))


def item_title(data: Mapping[str, Any]) -> str:
    """An item's title as plain text: Zotero's tags dropped; ``$`` and ``*`` are just characters."""
    return _ZOTERO_TAG.sub("", str(data.get("title") or ""))


def _math_as_unicode(title: str) -> str:
    """A hand-typed title's ``$…$`` math as we write it (``DT$^2$`` → ``DT²``), if it reads as math."""
    if "$" not in title:
        return title
    try:
        return plain_text(title)
    except MarkupError:  # a lone "$": a price, not math
        return title


def paper_identity(paper: Paper) -> dict[str, str]:
    """How an item in a library can be recognised as *paper*'s, strongest first."""
    found = {"id": paper.id}
    if paper.identifiers.openreview:
        found["openreview"] = paper.identifiers.openreview
    if paper.identifiers.pmlr and paper.proceedings.volume is not None:
        found["pmlr"] = f"v{paper.proceedings.volume}/{paper.identifiers.pmlr}"
    if paper.title and (title := normal_title(plain_text(paper.title))):
        found["title"] = title
    return found


def item_identity(data: Mapping[str, Any]) -> set[tuple[str, str]]:
    """The (kind, value) pairs of :func:`paper_identity` that an item's data shows."""
    found: set[tuple[str, str]] = set()
    for line in str(data.get("extra") or "").splitlines():
        if line.startswith("icml2026-id: "):
            found.add(("id", line[len("icml2026-id: "):].strip()))
    for name in ("url", "DOI"):
        url = str(data.get(name) or "").strip()
        if "/" not in url:  # a link, not a bare id (an OpenReview id alone is no URL)
            continue
        if openreview := parse_openreview(url):
            found.add(("openreview", openreview))
        if pmlr := parse_pmlr_url(url):
            found.add(("pmlr", f"v{pmlr.volume}/{pmlr.id}"))
    title = normal_title(_math_as_unicode(item_title(data)))
    if title:
        found.add(("title", title))
    return found


def adoption_patch(data: Mapping[str, Any], collection: str | None) -> dict[str, Any]:
    """The tag and collection an adopted item gains (its own ones are kept)."""
    patch: dict[str, Any] = {}
    tags = [t for t in data.get("tags") or [] if isinstance(t, dict)]
    if not any(t.get("tag") == TAG for t in tags):
        patch["tags"] = [*tags, {"tag": TAG}]
    collections = [c for c in data.get("collections") or [] if isinstance(c, str)]
    if collection and collection not in collections:
        patch["collections"] = [*collections, collection]
    return patch
