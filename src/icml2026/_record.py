"""Immutable ``__slots__`` records that behave as frozen dataclasses, without :mod:`dataclasses`.

Creating a dataclass generates and compiles its methods, and importing :mod:`dataclasses`
loads :mod:`inspect`, :mod:`ast`, :mod:`dis` and :mod:`tokenize`: for the fourteen classes
on the start-up path of ``show``/``export``/``list`` that was the largest part of the
start-up.  A :class:`Record` subclass names its fields in ``__slots__`` and writes its own
``__init__`` (setting each field with ``object.__setattr__``); it gets what a frozen
dataclass has: equality and hash over the fields in order, a ``Class(field=…)`` repr,
:class:`dataclasses.FrozenInstanceError` on assignment or deletion, pickling and copying
through ``__init__``, and a ``__dataclass_fields__`` table made on first use, so that
``dataclasses.replace``, ``fields``, ``asdict`` and ``is_dataclass`` work on it.  A slot
named with a leading underscore is private state, not a field.
:class:`MutableRecord` is the non-frozen kind (no hash, as a dataclass with ``eq``).
"""

from __future__ import annotations

from operator import attrgetter

TYPE_CHECKING = False
if TYPE_CHECKING:
    from dataclasses import Field
    from typing import Any, ClassVar


class _DataclassFields:
    """``__dataclass_fields__`` of a :class:`Record` class, made on first use (so that
    ``dataclasses.replace``, ``fields`` and ``asdict`` work) without importing
    :mod:`dataclasses` at start-up."""

    def __init__(self) -> None:
        self.made: dict[type, Any] = {}

    def __get__(self, obj: object, cls: type[Record]) -> Any:
        found = self.made.get(cls)
        if found is None:
            import dataclasses

            twin = dataclasses.make_dataclass(cls.__name__, cls._fields, frozen=True)
            found = self.made[cls] = vars(twin)["__dataclass_fields__"]
        return found


class Record:
    """An immutable record of ``__slots__`` fields (see the module docstring)."""

    __slots__ = ()
    _fields: tuple[str, ...] = ()
    _values: Any = None  # attrgetter of the fields: their values as a tuple
    if TYPE_CHECKING:  # what dataclasses.replace and fields expect of a dataclass
        __dataclass_fields__: ClassVar[dict[str, Field[Any]]]
    else:
        __dataclass_fields__ = _DataclassFields()

    def __init_subclass__(cls) -> None:
        # A slot whose name starts with an underscore is the class's own state, not a field
        # (Paper's ``_raw``: the record a packaged paper builds its other fields from).
        own = cls.__dict__.get("__slots__", ())
        own = (own,) if isinstance(own, str) else own
        cls._fields = (*cls._fields, *(name for name in own if not name.startswith("_")))
        if len(cls._fields) > 1:
            cls._values = attrgetter(*cls._fields)
        elif cls._fields:
            one = attrgetter(cls._fields[0])
            cls._values = lambda record: (one(record),)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return bool(self._values(self) == self._values(other))

    def __hash__(self) -> int:
        return hash(self._values(self))

    def __repr__(self) -> str:
        values = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._fields)
        return f"{self.__class__.__qualname__}({values})"

    def __setattr__(self, name: str, value: Any) -> None:
        import dataclasses

        raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        import dataclasses

        raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        # pickle and copy: built again through __init__ (the fields in order)
        return self.__class__, self._values(self)


class OrderedRecord(Record):
    """A :class:`Record` ordered by its fields in turn (a dataclass with ``order=True``)."""

    __slots__ = ()

    def __lt__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return bool(self._values(self) < self._values(other))

    def __le__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return bool(self._values(self) <= self._values(other))

    def __gt__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return bool(self._values(self) > self._values(other))

    def __ge__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return bool(self._values(self) >= self._values(other))


class MutableRecord(Record):
    """A :class:`Record` whose fields may be assigned (a non-frozen dataclass)."""

    __slots__ = ()
    __hash__ = None  # type: ignore[assignment]
    __setattr__ = object.__setattr__  # type: ignore[assignment]
    __delattr__ = object.__delattr__
