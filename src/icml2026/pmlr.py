"""PMLR's published paper ids (``abas26a``, ``n-guessan26a``) and the URLs built from them.

PMLR does not publish a paper under the key of the volume's source BibTeX
(``abas26``, ``nguessan26``).  Its site builder (``mlresearch/papersite``) walks
the entries in file order and gives each the first id not yet taken of::

    parameterize(downcase(first author's family name) + YY + suffix)

with ``YY`` the two-digit year of the volume's publication date and suffix
``a``, ``b``, … ``z``, ``aa``, ``ab``, …  (``tools/sources/corpora/README.md``
says how this was checked against the volume's published ids.)

:func:`parameterize` is written from Rails' documentation of
``ActiveSupport::Inflector``, not from its source: ``transliterate`` "replaces
non-ASCII characters with an ASCII approximation, or if none exists, a
replacement character which defaults to "?"", with default approximations for
Western/Latin characters (``transliterate("Ærøskøbing")`` → ``"AEroskobing"``);
``parameterize`` "replaces special characters in a string so that it may be used
as part of a 'pretty' URL", lower-cased, with separator ``-``, and keeps dashes
and underscores (documented examples: ``"Donald E. Knuth"`` → ``donald-e-knuth``,
``"^très|Jolie-- "`` → ``tres-jolie``, ``"^très|Jolie__ "`` → ``tres-jolie__``;
https://api.rubyonrails.org/classes/ActiveSupport/Inflector.html).  The
approximations are the Latin letters of I18n's default transliterator, each
checked against the ids PMLR published for this volume (``Işık`` → ``isik26a``,
``Kozłowski`` → ``kozlowski26a``, ``Snæbjarnarson`` → ``snaebjarnarson26a``).
The same approximations make the citation keys (:func:`icml2026.keys.ascii_token`),
so a key spells a name as PMLR's id does.  The family name is the one BibTeX
reads (the ``von`` part is not in it), LaTeX-decoded.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

# The Latin letters I18n's default transliterator approximates, as "character approximation" pairs.
_APPROXIMATIONS = dict(pair.split(" ") for pair in """
À A|Á A|Â A|Ã A|Ä A|Å A|Æ AE|Ç C|È E|É E|Ê E|Ë E|Ì I|Í I|Î I|Ï I|Ð D|Ñ N|Ò O|Ó O|Ô O|Õ O|Ö O|× x|Ø O
Ù U|Ú U|Û U|Ü U|Ý Y|Þ Th|ß ss|ẞ SS|à a|á a|â a|ã a|ä a|å a|æ ae|ç c|è e|é e|ê e|ë e|ì i|í i|î i|ï i
ð d|ñ n|ò o|ó o|ô o|õ o|ö o|ø o|ù u|ú u|û u|ü u|ý y|þ th|ÿ y|Ā A|ā a|Ă A|ă a|Ą A|ą a|Ć C|ć c|Ĉ C
ĉ c|Ċ C|ċ c|Č C|č c|Ď D|ď d|Đ D|đ d|Ē E|ē e|Ĕ E|ĕ e|Ė E|ė e|Ę E|ę e|Ě E|ě e|Ĝ G|ĝ g|Ğ G|ğ g|Ġ G
ġ g|Ģ G|ģ g|Ĥ H|ĥ h|Ħ H|ħ h|Ĩ I|ĩ i|Ī I|ī i|Ĭ I|ĭ i|Į I|į i|İ I|ı i|Ĳ IJ|ĳ ij|Ĵ J|ĵ j|Ķ K|ķ k|ĸ k
Ĺ L|ĺ l|Ļ L|ļ l|Ľ L|ľ l|Ŀ L|ŀ l|Ł L|ł l|Ń N|ń n|Ņ N|ņ n|Ň N|ň n|ŉ 'n|Ŋ NG|ŋ ng|Ō O|ō o|Ŏ O|ŏ o
Ő O|ő o|Œ OE|œ oe|Ŕ R|ŕ r|Ŗ R|ŗ r|Ř R|ř r|Ś S|ś s|Ŝ S|ŝ s|Ş S|ş s|Š S|š s|Ţ T|ţ t|Ť T|ť t|Ŧ T
ŧ t|Ũ U|ũ u|Ū U|ū u|Ŭ U|ŭ u|Ů U|ů u|Ű U|ű u|Ų U|ų u|Ŵ W|ŵ w|Ŷ Y|ŷ y|Ÿ Y|Ź Z|ź z|Ż Z|ż z|Ž Z
ž z|Ǫ O|ǫ o|Ǭ O|ǭ o""".replace("\n", "|").strip("|").split("|"))
_NON_ASCII = re.compile(r"[^\x00-\x7f]")
# ASCII → slug characters: letters lower-cased, digits and "_" kept, anything else a break ("-").
_SLUG = {c: (chr(c).lower() if chr(c).isalnum() or c == 0x5F else "-") for c in range(128)}


def approximate(text: str) -> str:
    """*text* in NFC with each Latin letter that has an approximation replaced (``ł`` → ``l``,
    ``æ`` → ``ae``); every other character is kept."""
    import unicodedata

    nfc = unicodedata.normalize("NFC", text)
    return nfc if nfc.isascii() else _NON_ASCII.sub(lambda m: _APPROXIMATIONS.get(m.group(0), m.group(0)), nfc)


def transliterate(text: str) -> str:
    """ActiveSupport's ``transliterate``: the approximations, ``?`` for any other non-ASCII character."""
    return _NON_ASCII.sub("?", approximate(text))


def parameterize(text: str) -> str:
    """ActiveSupport's ``String#parameterize`` with its defaults (separator ``-``, lower case),
    as documented: ASCII letters, digits and underscores stay (lower-cased); every other
    character (a dash too) is a break; breaks in a row make one dash, and none is left at
    either end."""
    pieces = transliterate(text).translate(_SLUG).split("-")
    return "-".join(filter(None, pieces))


def suffix(count: int) -> str:
    """``disambiguate_chars``: 0 → ``a``, 25 → ``z``, 26 → ``aa``, 27 → ``ab``."""
    div, mod = divmod(count, 26)
    letter = chr(ord("a") + mod)
    return letter if div == 0 else suffix(div - 1) + letter


def assign_ids(first_author_families: Iterable[str], year: int) -> Iterator[str]:
    """The PMLR id of each paper, in the order of the volume's BibTeX file.

    One :func:`parameterize` per paper: the slug of ``family + YY`` ends in the year's
    digits and a suffix is letters, so ``parameterize(stem + suffix)`` is the stem's slug
    followed by the suffix, and ids of different slugs never meet.  The first free suffix
    of a slug is therefore the count of earlier papers with that slug."""
    seen: dict[str, int] = {}
    yy = f"{year % 100:02d}"
    for family in first_author_families:
        slug = parameterize(family.lower() + yy)
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        yield slug + suffix(count)


def paper_url(volume: int, pmlr_id: str) -> str:
    """The paper's page in the proceedings (the volume's ``_config.yml`` URL pattern)."""
    return f"https://proceedings.mlr.press/v{volume}/{pmlr_id}.html"


def pdf_url(volume: int, pmlr_id: str) -> str:
    """The PDF as PMLR links it: the volume repository's ``assets/<id>/<id>.pdf``."""
    return f"https://raw.githubusercontent.com/mlresearch/v{volume}/main/assets/{pmlr_id}/{pmlr_id}.pdf"
