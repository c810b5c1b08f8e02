"""Disambiguation of one document's cites, as CSL 1.0.2 describes it.

Written from the specification (section "Disambiguation" of the CSL 1.0.2
specification, with "Inheritable Name Options" and the ``disambiguate``
condition of ``cs:choose``), and checked against citeproc-js only as a black
box (``tests/test_citeproc_js.py``).

The design is a set of whole-document passes over *settings*, one
:class:`Settings` per cite:

1. every cite is rendered in its base form (the style's et-al abbreviation,
   the names' own form), and the rendered names are recorded;
2. *name disambiguation* (the global ``givenname-disambiguation-rule``
   values ``all-names``, ``primary-name`` and their ``-with-initials``
   forms): every rendered name that shares its base form with another
   person's is expanded step by step (initials, then full given name) to the
   first step where it is unique; a name no step can separate keeps its form;
3. cites that still render alike form groups; each group goes through the
   enabled methods in the specification's order, and a method's change is
   kept only for the cites it makes unique:

   * given-name expansion (rule ``by-cite``): one name position after the
     other, until the group is resolved;
   * added names (``disambiguate-add-names``): one more name at a time for
     the group's remaining cites, each added name expanded too if that helps;
   * the ``disambiguate="true"`` condition, for the cites still alike;
   * year suffixes (``disambiguate-add-year-suffix``) for what is left, in
     bibliography order, per group of identical cites.

A year suffix, added names and expanded names reach the bibliography entry
too (as a minimum: an entry that shows more keeps its own).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

FAMILY, INITIALS, FULL = 0, 1, 2  # given-name levels of a rendered name
GLOBAL_RULES = ("all-names", "all-names-with-initials", "primary-name", "primary-name-with-initials")


@dataclass(frozen=True)
class Options:
    """What a style's ``cs:citation`` enables."""

    add_names: bool = False
    add_givenname: bool = False
    add_year_suffix: bool = False
    rule: str = "by-cite"
    has_disambiguate: bool = False
    implicit_year_suffix: bool = True  # the style never renders ``year-suffix`` itself

    @property
    def enabled(self) -> bool:
        return self.add_names or self.add_givenname or self.add_year_suffix or self.has_disambiguate


@dataclass
class Settings:
    """How one cite is rendered: names shown per name list, given-name levels, condition, suffix."""

    names: dict[int, int] = field(default_factory=dict)  # name list position → names shown
    givens: dict[tuple[int, int], int] = field(default_factory=dict)  # (list, name) → level
    disambiguate: bool = False
    year_suffix: int | None = None  # 1 → "a"

    def copy(self) -> Settings:
        return Settings(dict(self.names), dict(self.givens), self.disambiguate, self.year_suffix)

    def signature(self) -> tuple[Any, ...]:
        return (tuple(sorted(self.names.items())), tuple(sorted(self.givens.items())), self.disambiguate,
                self.year_suffix)


@dataclass(frozen=True)
class RenderedName:
    """A name a cite showed: where, who, and how it can be expanded."""

    position: int  # the name list within the cite (0: the first cs:names rendered)
    index: int  # the name within its list
    person: tuple[str, ...]  # (particles and family, given) as written
    base: int  # the level the style renders it at
    ladder: tuple[int, ...]  # the levels above *base* it may be expanded to, in order


class RenderState:
    """What a cite or entry is rendered with; :class:`.citeproc_fixes.FixedName` reads and fills it."""

    def __init__(self, settings: Settings | None, *, area: str, options: Options, rule: str) -> None:
        self.settings = settings or Settings()
        self.area = area
        self.options = options
        self.rule = rule
        self.nameset = 0  # name lists rendered so far
        self.shown: list[RenderedName] = []
        self.names_max: dict[int, int] = {}  # name list → names it has
        self.first_names: tuple[str, str] | None = None  # for subsequent-author-substitute
        self.suffix_done = False

    @property
    def year_suffix(self) -> int | None:
        return self.settings.year_suffix

    @property
    def implicit_year_suffix(self) -> bool:
        return self.options.implicit_year_suffix

    def disambiguate_test(self) -> bool:
        return self.settings.disambiguate

    # Names added or expanded in a cite are shown in its bibliography entry too (CSL 1.0.2: the
    # detail that tells cites apart must be in the entries), as a minimum: an entry that shows
    # more keeps its own.
    def names_shown(self, position: int) -> int | None:
        return self.settings.names.get(position)

    def given_level(self, position: int, index: int) -> int | None:
        return self.settings.givens.get((position, index))


def year_suffix_letters(number: int) -> str:
    """1 → "a", 26 → "z", 27 → "aa", 28 → "ab" (the specification's sequence)."""
    letters = ""
    while number > 0:
        number, rest = divmod(number - 1, 26)
        letters = chr(ord("a") + rest) + letters
    return letters


_INITIAL_SPLIT = re.compile(r"[\s.\-]+")


def person_key(person: tuple[str, ...], level: int) -> tuple[str, ...]:
    """A name as a reader sees it at *level*: the family name, plus initials, plus the given name."""
    family, given = person
    if level == FAMILY:
        return ("family", family)
    if level == INITIALS:
        return "initials", family, "".join(part[:1] for part in _INITIAL_SPLIT.split(given) if part)
    return "full", family, given


def person_of(name: Mapping[str, Any]) -> tuple[str, ...]:
    family = " ".join(str(name[k]) for k in ("non-dropping-particle", "family") if name.get(k))
    given = " ".join(str(name[k]) for k in ("given", "dropping-particle") if name.get(k))
    return family, given


def expansion_ladder(base: int, *, initialize_with: bool, initialize: bool, rule: str) -> tuple[int, ...]:
    """The levels above *base* a name may take (the specification's "Expansion of Individual Names")."""
    if rule.endswith("-with-initials"):
        if not initialize_with or not initialize:
            return ()
        steps: tuple[int, ...] = (INITIALS,)
    elif initialize_with and initialize:
        steps = (INITIALS, FULL)
    else:
        steps = (FULL,)
    return tuple(level for level in steps if level > base)


Render = Callable[[str, RenderState], str]


class Disambiguator:
    """The settings of every cite of one document (see the module docstring)."""

    def __init__(self, options: Options, render: Render, keys: Sequence[str], bibliography_order: Sequence[str]
                 ) -> None:
        self.options = options
        self._render_with = render
        self.keys = list(keys)
        self.order = {key: n for n, key in enumerate(bibliography_order)}
        self.settings = {key: Settings() for key in self.keys}
        self.texts: dict[str, str] = {}
        self.shown: dict[str, list[RenderedName]] = {}
        self.names_max: dict[str, dict[int, int]] = {}

    def state(self, key: str, settings: Settings | None = None, *, area: str = "citation") -> RenderState:
        return RenderState(settings if settings is not None else self.settings[key], area=area,
                           options=self.options, rule=self.options.rule)

    def _render(self, key: str, settings: Settings) -> str:
        state = self.state(key, settings)
        text = self._render_with(key, state)
        self.shown[key], self.names_max[key] = state.shown, state.names_max
        return text

    def run(self) -> dict[str, Settings]:
        for key in self.keys:
            self.texts[key] = self._render(key, self.settings[key])
        self._base_shown = {key: sum(1 for n in self.shown[key] if n.position == 0) for key in self.keys}
        groups = self._ambiguous_groups(self.keys)  # the base forms that clash
        if self.options.add_givenname and self.options.rule in GLOBAL_RULES:
            self._disambiguate_names()
        for group in groups:
            self._resolve(group)
        return self.settings

    # -- helpers ----------------------------------------------------------------------

    def _ambiguous_groups(self, keys: Iterable[str]) -> list[list[str]]:
        groups: dict[str, list[str]] = {}
        for key in keys:
            groups.setdefault(self.texts[key], []).append(key)
        return [group for group in groups.values() if len(group) > 1]

    def _unique(self, keys: Iterable[str]) -> set[str]:
        counts = Counter(self.texts.values())
        return {key for key in keys if counts[self.texts[key]] == 1}

    def _attempt(self, keys: list[str], change: Callable[[str, Settings], bool]) -> list[str]:
        """Apply *change* to the settings of *keys*; keep it where the cite becomes unique.

        Returns the keys still ambiguous (with their settings as before).
        """
        before = {key: (self.settings[key], self.texts[key]) for key in keys}
        changed = []
        for key in keys:
            trial = self.settings[key].copy()
            if change(key, trial):
                self.settings[key] = trial
                self.texts[key] = self._render(key, trial)
                changed.append(key)
        unique = self._unique(changed)
        for key in changed:
            if key not in unique:
                self.settings[key], self.texts[key] = before[key]
        return [key for key in keys if key not in unique]

    # -- method 1, global: name disambiguation ------------------------------------------

    def _disambiguate_names(self) -> None:
        primary = self.options.rule.startswith("primary-name")
        slots = [(key, name) for key in self.keys for name in self.shown[key]
                 if not primary or (name.position == 0 and name.index == 0)]
        people: dict[tuple[str, ...], set[tuple[str, ...]]] = {}
        for _, name in slots:
            for level in (name.base, *name.ladder):
                people.setdefault(person_key(name.person, level), set()).add(name.person)
        touched = set()
        for key, name in slots:
            if len(people[person_key(name.person, name.base)]) < 2:
                continue  # no other person looks the same
            levels = [level for level in name.ladder if len(people[person_key(name.person, level)]) == 1]
            if levels or name.ladder:
                self.settings[key].givens[(name.position, name.index)] = (levels or name.ladder)[:1][0] \
                    if levels else name.ladder[-1]
                touched.add(key)
        for key in touched:
            self.texts[key] = self._render(key, self.settings[key])

    # -- the methods for cites that render alike ------------------------------------------

    def _resolve(self, group: list[str]) -> None:
        options = self.options
        remaining = [key for key in group if key not in self._unique(group)]
        if options.add_givenname and options.rule == "by-cite":
            remaining = self._expand_given_names(group)
        if options.add_names and remaining:
            # the set is every cite that rendered alike, those already told apart by their names included
            remaining = self._add_names(group)
        if options.has_disambiguate and remaining:
            remaining = self._attempt(remaining, self._set_condition)
        if options.add_year_suffix and remaining:
            self._add_year_suffixes(remaining)

    def _expand_given_names(self, keys: list[str]) -> list[str]:
        """Rule ``by-cite``: the group's names expanded, one position (list, name) after the other.

        Each position is expanded to the fullest form its ladder allows, in
        every cite of the group at once, and kept if that tells more cites
        apart; expansion stops at the first position that separates them all.
        """
        positions = sorted({(n.position, n.index) for key in keys for n in self.shown[key] if n.ladder})
        for position in positions:
            best = len(self._unique(keys))
            before = {key: (self.settings[key], self.texts[key]) for key in keys}
            for key in keys:
                trial = self.settings[key].copy()
                if self._expand(key, trial, position):
                    self.settings[key], self.texts[key] = trial, self._render(key, trial)
            unique = len(self._unique(keys))
            if unique <= best:
                for key, (settings, text) in before.items():
                    self.settings[key], self.texts[key] = settings, text
            elif unique == len(keys):
                break
        return [key for key in keys if key not in self._unique(keys)]

    def _expand(self, key: str, settings: Settings, position: tuple[int, int]) -> bool:
        for name in self.shown[key]:
            if (name.position, name.index) == position and name.ladder:
                settings.givens[position] = name.ladder[-1]
                return True
        return False

    def _add_names(self, keys: list[str]) -> list[str]:
        """Names added one at a time to every cite of the set, while that separates more of them.

        The specification adds the names "to all members of a set of
        ambiguous cites, until no more cites in the set can be disambiguated
        by adding names": a cite already told apart by the second name still
        gets the third when the third separates others of its set.  Cites
        the added names never separate go back to their base form.
        """
        before = {key: (self.settings[key], self.texts[key]) for key in keys}
        most = max(self.names_max[key].get(0, 0) for key in keys)
        best, chosen = len(self._unique(keys)), dict(before)
        for count in range(2, most + 1):
            for key in keys:
                trial = before[key][0].copy()
                self._show(key, trial, count)
                self.settings[key] = trial
                self.texts[key] = self._render(key, trial)
            if self.options.add_givenname and not self.options.rule.startswith("primary-name"):
                self._expand_added(keys, count)
            unique = len(self._unique(keys))
            if unique > best:
                best, chosen = unique, {key: (self.settings[key], self.texts[key]) for key in keys}
        for key, (settings, text) in chosen.items():
            self.settings[key], self.texts[key] = settings, text
        remaining = [key for key in keys if key not in self._unique(keys)]
        for key in remaining:
            self.settings[key], self.texts[key] = before[key]
        return remaining

    def _expand_added(self, keys: list[str], count: int) -> None:
        """The added name of each cite, expanded where that tells the cite apart (method 1 on added names)."""
        alike = [key for key in keys if key not in self._unique(keys)]
        self._attempt(alike, lambda key, s: self._expand_last(key, s, count))

    def _expand_last(self, key: str, settings: Settings, count: int) -> bool:
        for name in self.shown[key]:
            if name.position == 0 and name.index == count - 1 and name.ladder:
                settings.givens[(0, name.index)] = name.ladder[-1]
                return True
        return False

    def _show(self, key: str, settings: Settings, count: int) -> bool:
        """Ask for *count* names in the first list; False if that shows no more than the base form."""
        settings.names[0] = count
        return count > self._base_shown[key] and self.names_max[key].get(0, 0) > self._base_shown[key]

    @staticmethod
    def _set_condition(_key: str, settings: Settings) -> bool:
        settings.disambiguate = True
        return True

    def _add_year_suffixes(self, keys: list[str]) -> None:
        for group in self._ambiguous_groups(keys):
            for number, key in enumerate(sorted(group, key=lambda k: self.order.get(k, 0)), start=1):
                self.settings[key].year_suffix = number
