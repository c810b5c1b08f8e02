"""CSL disambiguation for one document, with the results of citeproc-js.

CSL 1.0.2 (§ Disambiguation) resolves cites that render identically by, in
order: adding names hidden by et-al abbreviation (``disambiguate-add-names``),
expanding given names (``disambiguate-add-givenname``, with the
``givenname-disambiguation-rule``), adding a year suffix
(``disambiguate-add-year-suffix``: "2026a", "2026b" in bibliography order) and
rendering ``<if disambiguate="true">`` branches.  The specification leaves many
details open (when a name counts as ambiguous, how far names are added for a
set in which only some cites clash, which step wins); citeproc-js, the
reference processor, settles them with one particular algorithm, and users
compare our output with Zotero's.  This module therefore reproduces that
algorithm's *behaviour* (written from its documented design and from black-box
comparison, see ``tests/test_citeproc_js.py``), as a small state machine:

* a **name registry** (:class:`NameRegistry`) records every distinct person by
  family name, initials and full given name, so that the global rules
  (``all-names``, ``primary-name`` and their ``-with-initials`` variants)
  expand a name whenever another person of the document shares its short form;
* every item gets an **ambiguity configuration** (:class:`AmbigConfig`): names
  shown per name list, given-name level per name (0 family only, 1 initials,
  2 full), year suffix, and the ``disambiguate`` condition count;
* items whose base cite renders the same form an **ambiguity set**;
  :class:`Disambiguator` steps a shared configuration forward (one more
  given-name level or one more name at a time), sets aside cites that became
  unique, and finally hands out year suffixes or the ``disambiguate`` branch.

The renderer side (how a configuration changes the output) lives in
:mod:`.citeproc_fixes` (``FixedName``, ``FixedText`` for the year suffix,
``FixedIf``), which read the :class:`RenderState` put on the style root for
the duration of one rendering.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

ItemKey = str


@dataclass
class AmbigConfig:
    """How one cite is rendered: names per list, given-name levels, suffix, disambiguate count."""

    names: list[int] = field(default_factory=list)
    givens: list[list[int | None]] = field(default_factory=list)
    year_suffix: int | None = None
    disambiguate: int = 0

    def clone(self) -> AmbigConfig:
        return AmbigConfig(list(self.names), [list(g) for g in self.givens], self.year_suffix, self.disambiguate)

    def signature(self) -> tuple[Any, ...]:
        return (tuple(self.names), tuple(tuple(g) for g in self.givens), self.year_suffix, self.disambiguate)


def pad(config: AmbigConfig) -> None:
    """Every shown name has a given-name level (0 unless set)."""
    for i, shown in enumerate(config.names):
        while len(config.givens) <= i:
            config.givens.append([])
        row = config.givens[i]
        for j in range(shown or 0):
            if j >= len(row):
                row.append(0)
            elif not row[j]:
                row[j] = 0


def year_suffix_letters(index: int) -> str:
    """0 → ``a``, 25 → ``z``, 26 → ``aa``, 27 → ``ab`` … (CSL 1.0.2)."""
    letters = ""
    index += 1
    while index > 0:
        index -= 1
        letters = chr(ord("a") + index % 26) + letters
        index //= 26
    return letters


# -- the name registry ---------------------------------------------------------

def _strip_periods(text: str | None) -> str:
    return " ".join((text or "").replace(".", " ").split())


def initials_key(given: str) -> str:
    """The initials of a given name, as a key: ``Kuang-Da`` → ``K-D``, ``Haoyu Albert`` → ``H A``."""
    words = []
    for word in given.split():
        parts = [p[:1] for p in word.split("-") if p]
        words.append("-".join(parts))
    return " ".join(words)


@dataclass
class _Family:
    items: list[ItemKey] = field(default_factory=list)
    initials: dict[str, set[str]] = field(default_factory=dict)


class NameRegistry:
    """Distinct persons per family name and per initials, for given-name expansion."""

    def __init__(self, rule: str, add_givenname: bool, demote_never: bool) -> None:
        self.rule = rule
        self.add_givenname = add_givenname
        self.demote_never = demote_never
        self.families: dict[str, _Family] = {}
        self.version = 0  # bumped whenever a new person is recorded (renders may change)

    def keys(self, item: ItemKey, name: Any) -> tuple[str, str, str]:
        family = _strip_periods(name.get("family"))
        particle = name.get("non-dropping-particle")
        if self.demote_never and particle and name.get("family"):
            family = f"{family} {particle}"
        given = _strip_periods(name.get("given"))
        if self.rule == "by-cite":
            family = item + "\x00" + family  # by-cite: names are only compared within one cite
        return family, initials_key(given), given

    def add(self, item: ItemKey, name: Any, position: int) -> None:
        if self.rule.startswith("primary-") and position != 0:
            return
        family, initials, given = self.keys(item, name)
        if not family:
            return
        entry = self.families.get(family)
        if entry is None:
            entry = self.families[family] = _Family()
            self.version += 1
        if item not in entry.items:
            entry.items.append(item)
        if initials:
            givens = entry.initials.get(initials)
            if givens is None:
                givens = entry.initials[initials] = set()
                self.version += 1
            if given and given not in givens:
                givens.add(given)
                self.version += 1

    def level(self, item: ItemKey, name: Any, position: int, requested: int | None, short: bool,
              has_initials: bool, registered: bool) -> int | None:
        """The given-name level of *name*: what the style asks, raised where the document needs it."""
        level: int | None = 0 if short else (1 if has_initials else 2)
        family, initials, _ = self.keys(item, name)
        entry = self.families.get(family)
        if entry is None or initials not in entry.initials:
            return level
        if self.rule == "by-cite" and requested is not None and level is not None and level <= requested:
            return requested
        if not self.add_givenname:
            return level
        if self.rule.startswith("primary-name") and position > 0:
            return level
        persons = len(entry.initials)
        if self.rule in ("all-names", "primary-name", "by-cite"):
            if persons > 1:
                level = 1
            if len(entry.initials[initials]) > 1 or (persons > 1 and not has_initials):
                level = 2
        else:  # the -with-initials rules never go beyond initials
            level = 1 if persons > 1 else 0
        if not registered:
            return 0 if short else (1 if has_initials else None)
        return level

    def signature(self, item: ItemKey, names: Sequence[Any]) -> tuple[Any, ...]:
        """What the registry says about *names*: part of an entry's cache key."""
        out: list[tuple[int, int] | None] = []
        for name in names:
            family, initials, _ = self.keys(item, name)
            entry = self.families.get(family)
            if entry is None:
                out.append(None)
            else:
                out.append((len(entry.initials), len(entry.initials.get(initials, ()))))
            if self.rule.startswith("primary-"):
                break
        return tuple(out)


# -- one rendering -----------------------------------------------------------------

class RenderState:
    """What the fixed elements need while one cite or entry renders (put on the style root)."""

    def __init__(self, engine: Disambiguator, item: ItemKey, request: AmbigConfig | None,
                 settings: AmbigConfig, *, area: str, just_looking: bool) -> None:
        self.engine = engine
        self.item = item
        self.request = request
        self.settings = settings
        self.area = area
        self.just_looking = just_looking
        self.nameset = 0
        self.names_max: list[int] = []
        self.disambiguate_count = 0
        self.disambiguate_max = 0
        self.first_names: tuple[str, str] | None = None  # (the names shown, as rendered) of an entry
        self.suffix_done = False  # the implicit year suffix is placed once per rendering

    def disambiguate_test(self) -> bool:
        """``<if disambiguate="true">``: the first *n* such tests reached are true."""
        if self.area == "bibliography":
            registered = self.engine.registry.get(self.item)
            limit = registered.disambiguate if registered else 0
        else:
            self.disambiguate_max += 1
            limit = self.settings.disambiguate
        if limit and self.disambiguate_count < limit:
            self.disambiguate_count += 1
            return True
        return False

    @property
    def year_suffix(self) -> int | None:
        return self.settings.year_suffix


# -- the disambiguation run ----------------------------------------------------------

@dataclass
class Options:
    add_names: bool
    add_givenname: bool
    add_year_suffix: bool
    rule: str
    has_disambiguate: bool
    implicit_year_suffix: bool = False  # the style never renders year-suffix: it follows the first year

    @property
    def modes(self) -> list[str]:
        modes = []
        if self.add_names or (self.add_givenname and self.rule == "by-cite"):
            modes.append("names")
        if self.add_year_suffix:
            modes.append("years")
        if self.has_disambiguate:
            modes.append("extra")
        return modes


Renderer = Callable[[ItemKey, "RenderState"], str]


class Disambiguator:
    """The disambiguation of one document: every item's :class:`AmbigConfig`.

    *render(key, state)* renders the citation of one item as plain text with
    ``state`` on the style root; *real_ids* maps keys to the CSL ids (their
    order breaks ties as in citeproc-js); *bibliography_order* lists the keys
    in bibliography order (year suffixes follow it).
    """

    def __init__(self, options: Options, names: NameRegistry, render: Renderer, keys: Sequence[ItemKey],
                 real_ids: dict[ItemKey, str], bibliography_order: Sequence[ItemKey],
                 sorted_names: Callable[[ItemKey], Sequence[Any]] | None = None) -> None:
        self.options = options
        self.modes = options.modes
        self.names = names
        self._render = render
        self.keys = list(keys)
        self.real_ids = real_ids
        self.sorted_names = sorted_names
        self.bib_position = {key: n for n, key in enumerate(bibliography_order)}
        self.registry: dict[ItemKey, AmbigConfig] = {}
        self.ambiguous: dict[str, list[ItemKey]] = {}
        self.last: RenderState | None = None
        self._memo: dict[tuple[Any, ...], tuple[Any, ...]] = {}

    # rendering ---------------------------------------------------------------
    def cite(self, key: ItemKey, request: AmbigConfig | None, *, just_looking: bool = True) -> str:
        """The plain-text cite of *key* rendered with *request* (which the rendering updates, as in
        citeproc-js: shown name counts and given-name levels are written back)."""
        if request is not None:
            settings = request
        elif key in self.registry:
            request = settings = self.registry[key]
        else:
            settings = AmbigConfig()
        memo_key = (key, settings.signature(), request is None, key in self.registry, self.names.version)
        text: str
        known = self._memo.get(memo_key)
        state = RenderState(self, key, request, settings, area="citation", just_looking=just_looking)
        if known is not None:  # speed: the same cite under the same settings renders the same
            text, names, givens, state.names_max, state.disambiguate_count, state.disambiguate_max = known
            settings.names[:] = names
            settings.givens[:] = [list(row) for row in givens]
        else:
            version = self.names.version
            text = self._render(key, state)
            if self.names.version == version:
                self._memo[memo_key] = (text, list(settings.names), [list(row) for row in settings.givens],
                                        state.names_max, state.disambiguate_count, state.disambiguate_max)
        self.last = state
        return text

    def current_config(self) -> AmbigConfig:
        assert self.last is not None
        return (self.last.request or self.last.settings).clone()

    def register(self, akey: str, key: ItemKey, config: AmbigConfig) -> None:
        group = self.ambiguous.setdefault(akey, [])
        if key not in group:
            group.append(key)
        self.registry[key] = config.clone()

    # the whole document ---------------------------------------------------------
    def run(self) -> dict[ItemKey, AmbigConfig]:
        for key in self.keys:
            akey = self.cite(key, None)
            self.register(akey, key, self.current_config())
        if self.sorted_names is not None:
            # Sorting the bibliography renders every name of an item, and citeproc-js records the
            # names it renders: with by-cite, a co-author "Zhang, Tianyi" then makes the editor
            # "Zhang, Tong" of the same entry ambiguous (printed in full).
            for key in self.keys:
                for position, name in enumerate(self.sorted_names(key)):
                    if "literal" not in name and (name.get("given") or name.get("family")):
                        self.names.add(key, name, position)
        if self.modes:
            for akey in list(self.ambiguous):
                if len(self.ambiguous[akey]) > 1:
                    _SetRun(self, akey).run()
        return self.registry


class _SetRun:
    """One ambiguity set, stepped until every cite is unique or every method is used up."""

    def __init__(self, engine: Disambiguator, akey: str) -> None:
        self.e = engine
        self.akey = akey
        self.modes = engine.modes
        self.mode = 0
        self.lists: list[tuple[AmbigConfig, list[ItemKey]]] = []
        self.base: AmbigConfig = AmbigConfig()
        self.better: AmbigConfig = AmbigConfig()
        self.max_names: dict[ItemKey, list[int]] = {}
        self.namesets_max: int = -1
        self.givens_max: int | None = 2 if (engine.options.rule == "by-cite"
                                            and engine.options.add_givenname) else None
        self.init_givens = True
        self.nameset = 0
        self.name = 0
        self.clashes = [1, 0]
        self.partners: list[ItemKey] = []
        self.nonpartners: list[ItemKey] = []
        self.listpos = 0
        self._have_base = False

    # set-up -----------------------------------------------------------------------
    def _cite_data(self, key: ItemKey, base: AmbigConfig | None) -> None:
        if key in self.max_names:
            return
        self.e.cite(key, base)
        rendered = self.e.current_config()
        assert self.e.last is not None
        self.max_names[key] = list(self.e.last.names_max)
        self.e.registry[key].givens = [list(g) for g in self.e.last.settings.givens]
        self.namesets_max = len(self.e.registry[key].names) - 1
        if not self._have_base:
            self._have_base = True
            self.base = rendered
            self.better = rendered.clone()
        if len(rendered.names) < len(self.base.names):
            self.base = rendered
        for i, shown in enumerate(rendered.names):
            if i < len(self.base.names) and shown > self.base.names[i]:
                self.base.givens[i] = list(rendered.givens[i]) if i < len(rendered.givens) else []
                self.base.names[i] = shown
                self.better.names = list(self.base.names)
                self.better.givens = [list(g) for g in self.base.givens]
                pad(self.base)
                pad(self.better)
        self.better.givens = [list(g) for g in self.base.givens]

    def _init(self) -> bool:
        ids = self.e.ambiguous.get(self.akey) or []
        if not ids:
            return False
        self._cite_data(ids[0], None)
        self.base = self.e.current_config()
        if len(ids) > 1:
            for key in ids[1:]:
                self._cite_data(key, self.base)
            real = self.e.real_ids
            ordered = sorted(ids, key=lambda k: (",".join(map(str, self.max_names.get(k, []))), real[k]))
            self.lists.append((self.base, ordered))
            first = ordered[0]
        else:
            first = ids[0]
        counts = self.max_names.get(first) or [0]
        self.names_max = counts[0]
        pad(self.base)
        pad(self.better)
        for config in (self.base, self.better):
            config.year_suffix = None
            config.disambiguate = 0
        return True

    def run(self) -> None:
        if not self._init():
            return
        self.init_givens = True
        while self.lists:
            self.nameset = 0
            self.name = 0
            self.clashes = [1, 0]
            while self.lists[0][1]:
                self.listpos = 0
                maxed = self._increment()
                self._scan(self.lists[0])
                self._evaluate(maxed)
            self.lists = self.lists[1:]

    # one step ------------------------------------------------------------------------
    def _scan(self, entry: tuple[AmbigConfig, list[ItemKey]]) -> None:
        items = entry[1]
        mine = self.e.cite(items[0], self.base)
        self.partners, self.nonpartners = [items[0]], []
        clashes = 0
        for other in items[1:]:
            if self.e.cite(other, self.base) == mine:
                clashes += 1
                self.partners.append(other)
            else:
                self.nonpartners.append(other)
        self.clashes = [self.clashes[1], clashes]

    def _evaluate(self, maxed: bool) -> None:
        getattr(self, "_" + self.modes[self.mode])(maxed)
        if maxed:
            if self.mode < len(self.modes) - 1:
                self.mode += 1
            else:
                self._set_list(self.listpos + 1, (self.base, []))

    def _set_list(self, index: int, value: tuple[AmbigConfig, list[ItemKey]]) -> None:
        while len(self.lists) <= index:
            self.lists.append((self.base, []))
        self.lists[index] = value

    def _register(self, key: ItemKey, config: AmbigConfig) -> None:
        self.e.register(self.akey, key, config)

    def _capture(self) -> None:
        """Keep the step that helped: the current name count (and by-cite given level)."""
        if self.e.options.rule == "by-cite" and self.base.givens:
            row = self.base.givens[self.nameset] if self.nameset < len(self.base.givens) else None
            if row is not None and self.name < len(row):
                if len(self.better.givens) < len(self.base.givens):
                    self.better.givens = [list(g) for g in self.base.givens]
                better_row = self.better.givens[self.nameset]
                while len(better_row) <= self.name:
                    better_row.append(0)
                better_row[self.name] = row[self.name]
        while len(self.better.names) <= self.nameset:
            self.better.names.append(0)
        if self.nameset < len(self.base.names):
            self.better.names[self.nameset] = self.base.names[self.nameset]

    def _names(self, maxed: bool) -> None:
        pos, better = self.listpos, self.better
        if self.clashes[1] == 0 and len(self.nonpartners) == 1:
            self._capture()
            self._register(self.nonpartners[0], better)
            self._register(self.partners[0], better)
            self.lists[pos] = (better, [])
        elif self.clashes[1] == 0:
            self._capture()
            self._register(self.partners[0], better)
            self.lists[pos] = (better, self.nonpartners)
            if self.nonpartners:
                self.init_givens = True
        elif len(self.nonpartners) == 1:
            self._capture()
            self._register(self.nonpartners[0], better)
            self.lists[pos] = (better, self.partners)
        elif self.clashes[1] < self.clashes[0]:
            self._capture()
            self.lists[pos] = (better, self.partners)
            self.lists.append((better, self.nonpartners))
        elif maxed:
            self.lists[pos] = (better, self.nonpartners)
            self.lists.append((better, self.partners))
            if self.mode == len(self.modes) - 1:
                for key in self.partners:
                    self._register(key, better)
                self.lists[pos] = (better, [])

    def _extra(self, maxed: bool) -> None:
        last = self.e.last
        count = last.disambiguate_count if last else 0
        most = last.disambiguate_max if last else 0
        done = self.clashes[1] == 0 and len(self.nonpartners) < 2
        pos = self.listpos
        if not done and (not self.base.disambiguate or count != most):
            self.mode = 0
            self.base.disambiguate = count
            self.better.disambiguate = count
            if not self.base.disambiguate:
                self.init_givens = True
                self.base.disambiguate = 1
            else:
                self._names(False)
        elif done or count == most:
            config = self.lists[pos][0]
            if done or self.mode == len(self.modes) - 1:
                for key in self.lists[pos][1]:
                    self._register(key, config)
                self.lists[pos] = (self.better, [])
            else:
                self.mode = len(self.modes) - 1
                config.disambiguate = 1
                for key in self.lists[pos][1]:
                    self._register(key, config)

    def _years(self, maxed: bool) -> None:
        config = self.lists[self.listpos][0]
        members = self.lists[self.listpos][1] if self.clashes[1] else []
        ordered = sorted(members, key=lambda k: self.e.bib_position.get(k, 0))
        for n, key in enumerate(ordered):
            config.year_suffix = n
            self._register(key, config)
        self.lists[self.listpos] = (self.better, [])

    def _increment(self) -> bool:
        if self.init_givens:
            self.init_givens = False
            return False
        mode = self.modes[self.mode]
        if mode == "extra":
            self.base.disambiguate += 1
            self.better.disambiguate += 1
            return False
        if mode != "names":
            return False
        base = self.base
        more_names = self.givens_max is None
        more_namesets = False
        if self.givens_max is not None:
            level = _at(base.givens, self.nameset, self.name)
            if base.givens and level is not None and level < self.givens_max:
                base.givens[self.nameset][self.name] = level + 1
            else:
                more_names = True
        if more_names:
            if self.e.options.add_names:
                if self.name < self.names_max:
                    while len(base.names) <= self.nameset:
                        base.names.append(0)
                    base.names[self.nameset] += 1
                    self.name += 1
                else:
                    more_namesets = True
            else:
                more_namesets = True
        if more_namesets and self.nameset < self.namesets_max:
            self.nameset += 1
            while len(base.names) <= self.nameset:
                base.names.append(0)
            base.names[self.nameset] = 1
            self.name = 0
        level = _at(base.givens, self.nameset, self.name)
        return ((self.namesets_max == -1 or self.nameset == self.namesets_max)
                and (not self.e.options.add_names or self.name == self.names_max)
                and (self.givens_max is None or level is None or level == self.givens_max))


def _at(rows: list[list[int | None]], i: int, j: int) -> int | None:
    if i < len(rows) and j < len(rows[i]):
        return rows[i][j]
    return None
