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

   * with rule ``by-cite`` or added names, *steps*: under ``by-cite`` each
     base name expanded one level at a time (initials, full given name),
     then one more name at a time (``disambiguate-add-names``), each added
     name expanded in its turn under ``by-cite``, and last the
     ``disambiguate="true"`` condition where the style tests it; the set is
     taken through them as a queue of lists, each led by a *base* cite, a
     step kept where the base clashes with fewer cites; which cite is the
     base, which cites take a kept step along with it and where the cites
     it sets apart go on were settled by :meth:`Disambiguator._list` (rules
     observed with citeproc-js on hand-made documents, varying one thing at
     a time);
   * without steps, the ``disambiguate="true"`` condition for the cites
     still alike;
   * year suffixes (``disambiguate-add-year-suffix``) for every cite still
     alike, in bibliography order, per group of identical cites (citeproc-js
     leaves some alike; the specification does not).

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
CONDITION = -1  # a step that sets the ``disambiguate="true"`` condition, not a given-name level
# the lists a set is taken through, queued as (cites, first step, kind, riders carried): a list
# of cites alike; the riders of a list set apart on the way (:meth:`Disambiguator._forced_step`);
# the partners a list set apart last, with the riders it carried along
FRESH, FORCED, CARRIED = "fresh", "forced", "carried"
Queued = tuple[list[str], int, str, list[str]]
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
        self._entry_names: list[tuple[str, ...]] | None = None

    def entry_names(self, first_list: Sequence[Mapping[str, Any]]) -> list[tuple[str, ...]] | None:
        """The people a bibliography entry has named so far, for styles whose given names are
        disambiguated ``by-cite``; None elsewhere.  Observed of citeproc-js: in such an entry a
        name whose initials and family name another person of the entry shares is written in
        full ("Tong Zhang" among the editors of a paper by "Zhang, T." Teng).  The first name
        list (the one the bibliography is sorted by) counts whole, before any name is written;
        every later name once written.  Cites are not affected, nor are other entries."""
        if self.area != "bibliography" or not self.options.add_givenname or self.rule != "by-cite":
            return None
        if self._entry_names is None:
            self._entry_names = [person_of(name) for name in first_list
                                 if "literal" not in name and name.get("given")]
        return self._entry_names

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


def initials_alike(person: tuple[str, ...], others: Iterable[tuple[str, ...]]) -> bool:
    """Whether *others* hold another person who looks like *person* at initials ("Tong" and
    "Teng" Zhang are both "T. Zhang")."""
    key = person_key(person, INITIALS)
    return any(other != person and person_key(other, INITIALS) == key for other in others)


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

    def __init__(self, options: Options, render: Render, keys: Sequence[str], bibliography_order: Sequence[str],
                 item_ids: Mapping[str, str] | None = None) -> None:
        """*item_ids*: each key's item id as the document gives it (default: the key itself)."""
        self.options = options
        self._render_with = render
        self.keys = list(keys)
        self.order = {key: n for n, key in enumerate(bibliography_order)}
        self.settings = {key: Settings() for key in self.keys}
        self.texts: dict[str, str] = {}
        self.shown: dict[str, list[RenderedName]] = {}
        self.names_max: dict[str, dict[int, int]] = {}
        self._bib_steps: list[Disambiguator.Step] = []
        self.item_ids = {key: (item_ids or {}).get(key, key) for key in self.keys}
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
        if remaining and (by_cite or options.add_names):  # the set is still every cite whose base form clashed
            self._stages(group, expand=by_cite)
            # citeproc-js leaves some cites alike here (riders its lists gave up on, the partners of
            # a list stopped at a rider's last name); the specification gives every cite still
            # ambiguous a year suffix, and so do we
            remaining = [key for key in group if key not in self._unique(group)]
        elif options.has_disambiguate and remaining:
            remaining = self._attempt(remaining, self._set_condition)
        if options.add_year_suffix and remaining:
            self._add_year_suffixes(remaining)

    # A step is (names shown in the first list, the name expanded or None, its given-name level);
    # level CONDITION: the ``disambiguate="true"`` condition instead.
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
        if self.options.has_disambiguate:
            steps.append((max(most, base), None, CONDITION))
        return steps

    def _apply(self, key: str, step: Step) -> bool:
        """The settings of *key* changed by *step*, rendered; False if the step changes nothing for it."""
        count, index, level = step
        trial = self.settings[key].copy()
        if level == CONDITION:
            trial.disambiguate = True
        elif count > self._base_shown[key] and count <= self.names_max[key].get(0, 0):
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

    def _stages(self, group: list[str], *, expand: bool) -> None:
        """The cites of *group* (one base form) resolved as a queue of lists (see :meth:`_list`)."""
        self._bib_steps = self._steps(group, expand=expand)
        self._set_start = {key: self._saved(key) for key in group}
        self._last_count = 0
        self._leader: str | None = None
        queue: list[Queued] = [(list(group), 0, FRESH, [])]
        while queue:
            queue += self._list(*queue.pop(0))

    def _list_order(self, keys: Iterable[str]) -> list[str]:
        """A list's cites in the order that picks its base (observed with citeproc-js): by the
        number of names of the first name list compared *as text* ("10" before "9"), then by
        the item ids as text (whatever order the document cites or registers them in)."""
        return sorted(keys, key=lambda k: (str(self.names_max[k].get(0, 0)), self.item_ids[k]))

    def _clashing(self, base: str, keys: Iterable[str]) -> list[str]:
        return [key for key in keys if key != base and self.texts[key] == self.texts[base]]

    def _list(self, members: list[str], first: int, kind: str, carried: list[str]) -> list[Queued]:
        """One list of cites taken through the steps from *first* on; returns the lists it leaves.

        What follows was observed with citeproc-js on hand-made documents, varying one thing
        at a time (``tests/test_citeproc_js.py``, the by-cite and added-names tests):

        * cites at the head of the list (:meth:`_list_order`) that clash with none of it are
          done; the first that clashes is the *base*, the cites rendering like it its partners,
          the others *riders*;
        * riders go in groups: those not alike at the list's start with those the first split
          sets apart, then one group per later split, and the riders a list carried in
          (below); a group of one keeps its form throughout;
        * a step is kept where the base clashes with fewer cites, and taken by the partners
          and the groups of riders; the partners it sets apart (a *split*) become riders;
        * once the base is unique, with no cite set apart before, the riders carried in are
          forced on (:meth:`_forced_step`) and the rest goes on as a list of its own from the
          next step;
        * otherwise the partners set apart by that last step, if some are still alike, go on
          as a list carrying every group of riders along; if none is, each group goes on as a
          *forced* list (:meth:`_forced_step`), in the order they were set apart; riders
          carried or forced show the first added name's given name in full if the list tried
          it (:meth:`_first_added_in_full`);
        * a step that adds a name some rider does not have stops the riders at the names of
          the step before (:meth:`_beyond_a_rider`), and the cites stopped after the last such
          rider go on as a list (:meth:`_after_a_stop`); with nothing set apart yet, the list
          stops there whole, or, if that step would not tell its base apart, gives up as if
          its steps had run out;
        * a step that adds a name the cite heading the set's first list does not have stops
          this list or any later one of the set (:meth:`_beyond_the_head`);
        * when the steps run out, the riders go back to the form they had before the set's
          first list.
        """
        steps = self._bib_steps
        number = first
        members = self._list_order(members)
        # a forced list's cites as they came, before its forced step (the MLA condition below)
        came_with = {key: self._saved(key) for key in members + carried} if kind == FORCED else {}
        if kind == FORCED:
            after = self._forced_step(members)
            if after is None:
                return []
            number = after
        head = []
        while members and not self._clashing(members[0], members):
            head.append(members[0])
            members = members[1:]
        if len(members) < 2:
            return []
        # the set's first list, led by a cite the given names set apart (global rules): the
        # names that cite has bound the steps of every list of the set (:meth:`_beyond_the_head`)
        if first == 0 and kind == FRESH:
            self._leader = head[0] if head else None
        leader = self._leader if kind == FRESH else None
        start = {key: self._saved(key) for key in members + carried}
        base = members[0]
        partners = [base, *self._clashing(base, members)]
        # riders in groups (the first joined by the first split); a group of one keeps its form
        first_riders = [key for key in members if key not in partners]
        groups = [first_riders if len(first_riders) > 1 else []]
        split = False
        gone_on: list[Queued] = []
        while number < len(steps):
            step = steps[number]
            riders = carried + [key for group in groups if len(group) > 1 for key in group]
            if riders and self._beyond_a_rider(step, base, riders):
                if not split and self.options.has_disambiguate:  # MLA: the list's cites take the
                    for key in partners + riders:  # condition in the form they came with
                        self._restore(key, start[key])
                        self._apply(key, steps[-1])
                    return []
                if not split and not self._tells_apart(step, partners):  # the list gives up as if
                    self._back_to_first_form(riders)  # its steps had run out
                    return []
                self._show_names(riders if split else partners + riders, step[0] - 1)
                self._first_added_in_full(riders, base, number)
                if not split:  # the list stops there, its partners still alike
                    return self._after_a_stop(partners + riders, step, number)
                gone_on += self._after_a_stop(riders, step, number)
                groups, carried, riders = [], [], []  # the riders stop; the partners go on alone
            moving = partners + riders
            before = {key: self._saved(key) for key in moving}
            for key in before:
                if step[2] == CONDITION and kind == FORCED and not head and riders:
                    # MLA: a forced list led by its base, with riders, that reaches the condition
                    # takes it in the form its cites came with, without the forced name (observed
                    # with citeproc-js: the volume's Cao and Le sets, "Nan Chi et al., “Title”")
                    self._restore(key, came_with.get(key, before[key]))
                self._apply(key, step)
            still = self._clashing(base, partners)
            number += 1
            if leader is not None and self._beyond_the_head(step, leader):
                if still:  # the list gives up, its partners alike, its riders in their first form
                    for key, saved in before.items():
                        self._restore(key, saved)
                    self._back_to_first_form(riders)
                    return []
                if riders:  # the riders, and what the step sets apart unless split before, go back
                    apart = [key for key in partners if key != base]
                    self._back_to_first_form(riders + ([] if split else apart))
                    self._last_count = step[0]
                    return []
            if len(still) >= len(partners) - 1:
                for key, saved in before.items():
                    self._restore(key, saved)
                continue
            apart = [key for key in partners if key != base and key not in still]
            if still:
                if split:
                    groups.append(apart)
                else:
                    groups[0] += apart
                split = True
                partners = [base, *still]
                continue
            self._last_count = step[0]
            forced = [group for group in groups if len(group) > 1]
            if not split:  # the riders carried in are forced on; the others go on with the rest
                self._first_added_in_full(carried, base, number)
                rest = apart + [key for group in forced for key in group]
                lists: list[Queued] = [(carried, number, FORCED, [])] if carried else []
                return lists + ([(rest, number, FRESH, [])] if len(rest) > 1 else []) + gone_on
            forced = ([carried] if carried else []) + forced
            movers = [key for group in forced for key in group]
            self._first_added_in_full(movers, base, number)
            if self._ambiguous_groups(apart):  # partners set apart still alike go on, carrying the riders
                return [(apart, number, CARRIED, movers)] + gone_on
            return [(group, number, FORCED, []) for group in forced] + gone_on
        self._back_to_first_form(carried + [key for group in groups for key in group])
        return []

    def _back_to_first_form(self, keys: list[str]) -> None:
        """The form *keys* had before the set's first list."""
        for key in keys:
            self._restore(key, self._set_start[key])

    def _tells_apart(self, step: Step, partners: list[str]) -> bool:
        """Whether *step* would leave the base of *partners* clashing with fewer of them (tried, then undone)."""
        before = {key: self._saved(key) for key in partners}
        for key in partners:
            self._apply(key, step)
        told = len(self._clashing(partners[0], partners)) < len(partners) - 1
        for key, saved in before.items():
            self._restore(key, saved)
        return told

    def _after_a_stop(self, stopped: list[str], step: Step, number: int) -> list[Queued]:
        """Once a rider without *step*'s name stops the riders, the cites stopped after the last
        such rider (in list order) go on as a list of their own from that step; those before it
        keep the form the stop left them in (observed with citeproc-js, APA)."""
        order = self._list_order(stopped)
        lacking = [n for n, key in enumerate(order) if self.names_max[key].get(0, 0) < step[0]]
        rest = order[max(lacking) + 1:] if lacking else order
        return [(rest, number, FRESH, [])] if len(rest) > 1 else []

    def _beyond_the_head(self, step: Step, leader: str) -> bool:
        """Whether *step* adds a name the cite at the head of the set's first list lacks, that
        cite abbreviated at its base form.  Observed with citeproc-js (APA: a "C. Lee et al." of
        three names ahead of two "J. Lee et al."): at such a step, if the base is not yet told
        apart the list gives up, its partners left alike, its riders back in their form before
        the set's first list; if it is, and two or more riders move with it, the riders go back
        to that form, and so do the partners the step sets apart unless the list was split
        before; the list ends.  This holds in the later lists of the set too (the volume's Min
        papers: a "G. Min" told apart by a fourth name, whole, behind a "C. Min" of three)."""
        count, index, level = step
        names = self.names_max[leader].get(0, 0)
        return (index is None and level != CONDITION and self._base_shown[leader] < names < count)

    def _beyond_a_rider(self, step: Step, base: str, riders: list[str]) -> bool:
        """Whether *step* adds a name the base has and some rider has not (observed with
        citeproc-js: the riders then keep the names of the step before; a list with no cite
        set apart yet stops there whole, partners included, otherwise the partners go on
        without the riders)."""
        count, index, level = step
        return (index is None and level != CONDITION and self.names_max[base].get(0, 0) >= count
                and any(self.names_max[key].get(0, 0) < count for key in riders))

    def _first_added_in_full(self, riders: list[str], base: str, number: int) -> None:
        """Riders forced on, carried along or stopped show the first name added to the base's
        with its given name in full once the list has tried that name in full, kept or not
        (observed with citeproc-js, MLA: "L. Chi, Ann Ea, Eb, et al." where the base's "Li,
        Wang" needed three names; a name added later keeps its form)."""
        index = self._base_shown[base]
        if not any(step[1] == index and step[2] == FULL for step in self._bib_steps[:number]):
            return
        for key in riders:
            trial = self.settings[key].copy()
            if trial.givens.get((0, index), FAMILY) < FULL:
                trial.givens[(0, index)] = FULL
                self.settings[key] = trial
                self.texts[key] = self._render(key, trial)

    def _show_names(self, keys: list[str], count: int) -> None:
        number = self._one_name_more(count - 1)
        if number is not None:
            for key in keys:
                self._apply(key, self._bib_steps[number])

    def _forced_step(self, members: list[str]) -> int | None:
        """Riders set apart on the way: they show one name more than the last count a list of
        the set was resolved or forced at, or as many as the one with the fewest names has if
        that is fewer (observed with citeproc-js: two groups of riders show three and four
        names, or three and three where the second has a cite of three names).  Returns the
        next step (None: the set has no such step)."""
        if self._one_name_more(self._last_count) is None:
            return None  # no cite of the set has more names (or the condition resolved the list)
        fewest = min(self.names_max[key].get(0, 0) for key in members)
        number = self._one_name_more(min(self._last_count + 1, fewest) - 1)
        if number is None:
            return None
        for key in members:
            self._apply(key, self._bib_steps[number])
        self._last_count = self._bib_steps[number][0]
        return number + 1

    def _one_name_more(self, count: int) -> int | None:
        """The step that shows one name more than *count* (None: no cite of the set has more)."""
        return next((n for n, step in enumerate(self._bib_steps) if step[0] == count + 1 and step[1] is None
                     and step[2] != CONDITION), None)

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
