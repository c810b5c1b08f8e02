"""Disambiguation of one document's cites, as CSL 1.0.2 describes it.

Written from the specification (section "Disambiguation" of the CSL 1.0.2
specification, with "Inheritable Name Options" and the ``disambiguate``
condition of ``cs:choose``), and checked against citeproc-js only as a black
box: the details the specification leaves open (which cites of a set get the
added names, how far a name is expanded) were settled by formatting small
hand-made documents with it and varying one thing at a time
(``tests/test_citeproc_js.py``, ``tests/citeproc_js/format.js``).

The design is a set of whole-document passes over *settings*, one
:class:`Settings` per cite:

1. every cite is rendered in its base form (the style's et-al abbreviation,
   the names' own form), and the rendered names are recorded;
2. *name disambiguation* (the global ``givenname-disambiguation-rule``
   values ``all-names``, ``primary-name`` and their ``-with-initials``
   forms): every rendered name that shares its base form with another
   person's is expanded step by step (initials, then full given name) to the
   first step where it is unique; a name no step can separate keeps its form;
3. cites whose base forms clash form sets; a set goes through the enabled
   methods in the specification's order:

   * with rule ``by-cite`` or added names under it, *steps*: each base name
     expanded one level at a time (initials, full given name), then one more
     name at a time, each added name expanded in its turn; a step is kept
     where it splits the cites still alike, and what the split sets apart is
     settled by :meth:`Disambiguator._set` (rules observed with citeproc-js
     on hand-made documents: which part leads, which cites ride along with
     it, which part is resolved alone);
   * with a global rule, added names (``disambiguate-add-names``) for the
     whole set, one more at a time, while that separates more of it;
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
        self._bib_steps: list[Disambiguator.Step] = []
        self._kept = -1  # the last step a set kept (see _trial)
        self._tried = 0  # the name count of the last step tried
        self._rendered: dict[tuple[str, tuple[Any, ...]], tuple[str, list[RenderedName], dict[int, int]]] = {}

    def state(self, key: str, settings: Settings | None = None, *, area: str = "citation") -> RenderState:
        return RenderState(settings if settings is not None else self.settings[key], area=area,
                           options=self.options, rule=self.options.rule)

    def _render(self, key: str, settings: Settings) -> str:
        # The methods try the same settings of a cite again and again (a set's every name count,
        # then each part of it): a render depends only on the cite and its settings, so it is kept.
        memo = (key, settings.signature())
        if memo not in self._rendered:
            state = self.state(key, settings)
            self._rendered[memo] = (self._render_with(key, state), state.shown, state.names_max)
        text, self.shown[key], self.names_max[key] = self._rendered[memo]
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
            alike = len(people[person_key(name.person, name.base)])
            if not levels:  # no level is unique: the last, if it tells the name from some others
                levels = [level for level in name.ladder[-1:] if len(people[person_key(name.person, level)]) < alike]
            if levels:
                self.settings[key].givens[(name.position, name.index)] = levels[0]
                touched.add(key)
        for key in touched:
            self.texts[key] = self._render(key, self.settings[key])

    # -- the methods for cites that render alike ------------------------------------------

    def _resolve(self, group: list[str]) -> None:
        options = self.options
        by_cite = options.add_givenname and options.rule == "by-cite"
        remaining = [key for key in group if key not in self._unique(group)]  # the global pass may have told some apart
        if by_cite or (options.add_names and options.rule not in GLOBAL_RULES):
            if remaining:  # the set is still every cite whose base form clashed
                remaining = self._stages(group, expand=by_cite)
        elif options.add_names and remaining:
            told = [key for key in group if key not in remaining]  # told apart by the name pass:
            remaining = self._add_names(remaining + told if len(told) > 1 else remaining)  # two or more go along
        if options.has_disambiguate and remaining:
            remaining = self._attempt(remaining, self._set_condition)
        if options.add_year_suffix and remaining:
            self._add_year_suffixes(remaining)

    def _add_names(self, keys: list[str]) -> list[str]:
        """Names added one at a time to every cite of the set, while that separates more of them.

        With a global ``givenname-disambiguation-rule`` the names are already
        told apart; the specification adds the names "to all members of a set
        of ambiguous cites, until no more cites in the set can be
        disambiguated by adding names": a cite already told apart by the
        second name still gets the third when the third separates others of
        its set.  Cites the added names never separate go back to their base
        form.
        """
        before = {key: (self.settings[key], self.texts[key]) for key in keys}
        most = max(self.names_max[key].get(0, 0) for key in keys)
        best, chosen = len(self._unique(keys)), dict(before)
        for count in range(2, most + 1):
            for key in keys:
                trial = before[key][0].copy()
                trial.names[0] = min(count, self.names_max[key].get(0, count))  # a list shows all it has
                self.settings[key] = trial
                self.texts[key] = self._render(key, trial)
            unique = len(self._unique(keys))
            if unique > best:
                best, chosen = unique, {key: (self.settings[key], self.texts[key]) for key in keys}
            if best == len(keys):
                break  # every cite is unique: more names can only tie
        for key, (settings, text) in chosen.items():
            self.settings[key], self.texts[key] = settings, text
        remaining = [key for key in keys if key not in self._unique(keys)]
        for key in remaining:
            self.settings[key], self.texts[key] = before[key]
        return remaining

    # A step is (names shown in the first list, the name expanded or None, its given-name level).
    Step = tuple[int, int | None, int]

    def _steps(self, keys: list[str], *, expand: bool, start: int | None = None) -> list[Step]:
        """The steps tried on a set, in order: each base name expanded, then one name more at a time.

        Without ``disambiguate-add-names`` there is no added name; without
        given-name expansion (rule ``by-cite``) no expansion.  *start*: the
        first name count (a set split off another starts with one more name).
        """
        base = max(self._base_shown[key] for key in keys)
        most = max(self.names_max[key].get(0, 0) for key in keys) if self.options.add_names else base
        levels = (INITIALS, FULL) if expand else ()
        steps: list[Disambiguator.Step] = []
        if start is None:
            steps += [(base, index, level) for index in range(base) for level in levels]
            start = base + 1
        for count in range(start, most + 1):
            steps.append((count, None, FAMILY))
            steps += [(count, count - 1, level) for level in levels]
        return steps

    def _apply(self, key: str, step: Step) -> bool:
        """The settings of *key* changed by *step*, rendered; False if the step changes nothing for it."""
        count, index, level = step
        trial = self.settings[key].copy()
        if count > self._base_shown[key] and count <= self.names_max[key].get(0, 0):
            trial.names[0] = count
        if index is not None:
            if not any(name.position == 0 and name.index == index for name in self.shown[key]):
                self._render(key, trial)  # the name is not shown yet: learn its ladder
            for name in self.shown[key]:
                if name.position == 0 and name.index == index and level in name.ladder:
                    if trial.givens.get((0, index), name.base) < level:
                        trial.givens[(0, index)] = level
        if trial.signature() == self.settings[key].signature():
            return False
        self.settings[key] = trial
        self.texts[key] = self._render(key, trial)
        return True

    def _stages(self, group: list[str], *, expand: bool) -> list[str]:
        """The sets of cites that render alike, resolved step by step (see :meth:`_set`).

        Returns the cites still ambiguous.
        """
        ordered = sorted(group, key=lambda k: self.order.get(k, 0))
        self._bib_steps = self._steps(ordered, expand=expand)
        return self._set(ordered, 0)

    def _set(self, members: list[str], first: int, riders: Sequence[str] = (), *, forced: bool = False,
             extra: bool = False) -> list[str]:
        """One set of cites that render alike, taken through the steps from *first* on.

        *members* decide: a step is kept where it splits them further (a *forced* first step is
        kept anyway); *riders* take every kept step without deciding.  What a kept split sets
        apart follows rules observed with citeproc-js (black box, hand-made documents); *B* is
        the first part still alike in bibliography order.

        A split by a base name's expansion (initials, full given name): if other parts are
        still alike, the first of them holding a cite with the most names of the set's
        ambiguous cites is resolved alone, and *B* (or, if that part was *B*, the next part
        alike) leads.  The other cites set apart, two or more, go along with the lead (with *B*
        the only part still alike, only where the expanded name is one person throughout *B*
        or a single cite of the set holds the most names: :meth:`_goes_along`): they take its
        later steps, undone with it, and once it is told apart they, with a lead that had to
        give way to another part, form a set of their own that starts with one name more
        than the last step tried (that step kept); if the steps run out first they go back to
        where they were set apart.

        A split by an added name, with *N* the part right after *B*:

        * *N* absent or a single cite: each part still alike goes on as a set of its own
          (the riders with *B*);
        * otherwise *B* and *N* race: each is resolved alone, and the one told apart later
          (on a tie *B*, unless its cites already show all their names) goes on as the lead:
          its first next step is kept whether or not it helps (an expansion to the name's last
          level at once), and every other cite of the set (before *B*, after *N*, the riders)
          rides along with it; the other one is resolved alone.  On a tie with no cite after
          *N*, the lead and its riders show one name more once told apart.

        Returns the cites still ambiguous when the steps run out.
        """
        steps = self._bib_steps
        count = len(self._parts(members))
        carried: list[str] = []  # set apart together by a base name's expansion (see above)
        split: dict[str, tuple[Settings, str, list[RenderedName], dict[int, int]]] = {}
        aside: list[tuple[list[str], int]] = []  # parts set apart that go on as sets of their own
        joined: list[str] = []  # a lead that won a race joins what went along, once told apart
        base = min(self._base_shown[key] for key in members)
        number = first - 1
        while number + 1 < len(steps):
            number += 1
            step = steps[number]
            while forced and step[1] is not None and number + 1 < len(steps) and steps[number + 1][:2] == step[:2]:
                number += 1  # a forced expansion goes to the name's last level at once
                step = steps[number]
            before = {key: self._saved(key) for key in (*members, *riders, *carried)}
            self._tried = step[0]
            changed = [self._apply(key, step) for key in members]
            for key in (*riders, *carried):
                self._apply(key, step)
            parts = self._parts(members)
            if not forced and (not any(changed) or len(parts) <= count):
                for key, saved in before.items():
                    self._restore(key, saved)
                continue
            forced = False
            self._kept = max(self._kept, number)
            if len(parts) <= count:
                continue
            count = len(parts)
            alike = [part for part in parts if len(part) > 1]
            if not alike:
                if extra:
                    more = (step[0] + 1, None, FAMILY)
                    for key in (*members, *riders):
                        self._apply(key, more)
                return self._riders_left(riders, number + 1) + self._carried_set(carried + joined) + self._aside(aside)
            lead = alike[0]
            if step[1] is not None and step[0] <= base:  # a base name expanded: the rest goes along
                alone: list[str] = []
                if len(alike) > 1:
                    # the first part still alike with a cite of the most names is resolved alone
                    most = max(self.names_max[key].get(0, 0) for part in alike for key in part)
                    alone = next(part for part in alike if any(self.names_max[key].get(0, 0) == most for key in part))
                    if alone is lead:
                        lead = alike[1]
                    aside.append((alone, number + 1))
                    joined = list(lead)
                apart = [key for key in members if key not in lead and key not in alone]
                if len(apart) > 1 and (alone or self._goes_along(lead, step[1], members)):
                    split.update((key, self._saved(key)) for key in apart)
                    carried += apart
                members, count = lead, 1
                continue
            after = parts.index(lead) + 1
            following = parts[after] if after < len(parts) else []
            if len(following) < 2:
                left = []
                for part in alike:
                    left += self._set(part, number + 1, riders if part is lead else ())
                return left + self._carried_set(carried + joined) + self._aside(aside)
            lead_done, lead_full = self._trial(lead, number + 1)
            next_done, _ = self._trial(following, number + 1)
            tie = lead_done == next_done
            if lead_done < next_done or (tie and lead_full):
                lead, following = following, lead
            last = max(self.order.get(key, 0) for key in parts[after])
            later = any(self.order.get(key, 0) > last for key in members)
            others = [key for key in members if key not in lead and key not in following]
            left = self._set(following, number + 1)
            left += self._set(lead, number + 1, [*riders, *others], forced=True, extra=tie and not later)
            return left + self._carried_set(carried + joined) + self._aside(aside)
        still = [key for part in self._parts(members) if len(part) > 1 for key in part]
        if still:  # the steps ran out: what went along is back where it was set apart, and alike too
            for key in carried:
                self._restore(key, split[key])
            return [*still, *carried, *self._aside(aside)]
        return self._carried_set(carried + joined) + self._aside(aside)

    def _goes_along(self, lead: list[str], index: int, members: list[str]) -> bool:
        """Whether the cites a base name's expansion set apart, with one part still alike, go
        along with it: when the expanded name cannot tell the lead apart (one person), or when
        a single cite of the set holds the most names (observed with citeproc-js)."""
        people = {name.person for key in lead for name in self.shown[key]
                  if name.position == 0 and name.index == index}
        if len(people) <= 1:
            return True
        counts = [self.names_max[key].get(0, 0) for key in members]
        return counts.count(max(counts)) == 1

    def _aside(self, parts: list[tuple[list[str], int]]) -> list[str]:
        left = []
        for part, first in parts:
            left += self._set(part, first)
        return left

    def _carried_set(self, carried: list[str]) -> list[str]:
        """Cites set apart together by a base name's expansion, once their lead is told apart:
        a set of their own that starts with one name more than the last step tried, kept."""
        if len(carried) < 2:
            return []
        carried = sorted(carried, key=lambda k: self.order.get(k, 0))
        start = next((n for n, step in enumerate(self._bib_steps)
                      if step[0] == self._tried + 1 and step[1] is None), None)
        if start is None:
            return []
        return self._set(carried, start, forced=True)

    def _riders_left(self, riders: Sequence[str], first: int) -> list[str]:
        """Riders still alike among themselves once their lead is told apart go on as sets."""
        left = []
        for part in self._parts(list(riders)):
            if len(part) > 1:
                left += self._set(part, first)
        return left

    def _trial(self, keys: list[str], first: int) -> tuple[float, bool]:
        """The last step *keys* resolved alone would keep (inf: never told apart), and whether
        its cites then show all their names; the settings are left as they were."""
        saved = {key: self._saved(key) for key in keys}
        kept, self._kept = self._kept, -1
        left = self._set(keys, first)
        done: float = float("inf") if left else self._kept
        full = all(self.settings[key].names.get(0, self._base_shown[key]) >= self.names_max[key].get(0, 0)
                   for key in keys)
        self._kept = kept
        for key, value in saved.items():
            self._restore(key, value)
        return done, full

    def _parts(self, keys: list[str]) -> list[list[str]]:
        parts: dict[str, list[str]] = {}
        for key in keys:
            parts.setdefault(self.texts[key], []).append(key)
        return list(parts.values())

    def _saved(self, key: str) -> tuple[Settings, str, list[RenderedName], dict[int, int]]:
        return self.settings[key], self.texts[key], self.shown[key], self.names_max[key]

    def _restore(self, key: str, saved: tuple[Settings, str, list[RenderedName], dict[int, int]]) -> None:
        self.settings[key], self.texts[key], self.shown[key], self.names_max[key] = saved

    @staticmethod
    def _set_condition(_key: str, settings: Settings) -> bool:
        settings.disambiguate = True
        return True

    def _add_year_suffixes(self, keys: list[str]) -> None:
        for group in self._ambiguous_groups(keys):
            for number, key in enumerate(sorted(group, key=lambda k: self.order.get(k, 0)), start=1):
                self.settings[key].year_suffix = number
