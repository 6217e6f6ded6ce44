"""The env's `info` dicts, whose costly entries are built only when read.

The game's JSON observation costs more than a whole engine step in some games, and a
learner that reads only the encoded vector never needs it: `LazyInfo` is a dict that
holds it as a function until it is first read (by key, `get`, or anything that lists the
dict: iterating, `items()`, `copy.deepcopy`, `json.dumps`, comparing). Reading it after
the env has moved on is refused (`StaleInfo`): it would show the position of another turn.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any


class StaleInfo(RuntimeError):
    """A lazy info entry read after the env moved past the turn it describes."""


class LazyInfo(dict[str, Any]):
    """A dict with entries computed on first read; see the module's docstring."""

    def __init__(
        self, values: dict[str, Any] | None = None, lazy: dict[str, Callable[[], Any]] | None = None
    ) -> None:
        super().__init__(values or {})
        self._lazy: dict[str, Callable[[], Any]] = dict(lazy or {})

    @classmethod
    def made(cls, values: dict[str, Any], lazy: dict[str, Callable[[], Any]]) -> LazyInfo:
        """`LazyInfo(values, lazy)` that takes `lazy` as it is (not copied) and `values`'
        keys distinct from its: the env makes one a turn."""
        info = cls.__new__(cls)
        dict.update(info, values)
        info._lazy = lazy
        return info

    def defer(self, key: str, build: Callable[[], Any]) -> None:
        """`key`'s value is `build()`, called when the key is first read."""
        dict.pop(self, key, None)
        self._lazy[key] = build

    def build_pending(self) -> None:
        """Build every entry not built yet."""
        self._build_all()

    def pending(self) -> frozenset[str]:
        """The keys not built yet."""
        return frozenset(self._lazy)

    def _build(self, key: str) -> Any:
        value = self._lazy[key]()
        del self._lazy[key]
        dict.__setitem__(self, key, value)
        return value

    def _build_all(self) -> None:
        for key in list(self._lazy):
            self._build(key)

    def __getitem__(self, key: str) -> Any:
        if key in self._lazy:
            return self._build(key)
        return dict.__getitem__(self, key)

    def get(self, key: str, default: Any = None) -> Any:
        if key in self._lazy:
            return self._build(key)
        return dict.get(self, key, default)

    def __contains__(self, key: object) -> bool:
        return key in self._lazy or dict.__contains__(self, key)

    def __len__(self) -> int:
        return dict.__len__(self) + len(self._lazy)

    def __setitem__(self, key: str, value: Any) -> None:
        self._lazy.pop(key, None)
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: str) -> None:
        if self._lazy.pop(key, None) is None:
            dict.__delitem__(self, key)

    def __iter__(self) -> Iterator[str]:
        self._build_all()
        return dict.__iter__(self)

    def keys(self) -> Any:
        self._build_all()
        return dict.keys(self)

    def values(self) -> Any:
        self._build_all()
        return dict.values(self)

    def items(self) -> Any:
        self._build_all()
        return dict.items(self)

    def pop(self, key: str, *default: Any) -> Any:
        if key in self._lazy:
            self._build(key)
        return dict.pop(self, key, *default)

    def popitem(self) -> tuple[str, Any]:
        self._build_all()
        return dict.popitem(self)

    def setdefault(self, key: str, default: Any = None) -> Any:
        if key in self._lazy:
            return self._build(key)
        return dict.setdefault(self, key, default)

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key in dict(*args, **kwargs):
            self._lazy.pop(key, None)
        dict.update(self, *args, **kwargs)

    def clear(self) -> None:
        self._lazy.clear()
        dict.clear(self)

    def _built(self) -> dict[str, Any]:
        """The entries built so far, as a plain dict (`dict.copy` of a subclass whose
        `__iter__` is its own would list the whole dict, building every entry)."""
        return dict(zip(dict.keys(self), dict.values(self), strict=True))

    def copy(self) -> LazyInfo:
        """A copy that keeps the unread entries unread."""
        return LazyInfo(self._built(), self._lazy)

    def __or__(self, other: Any) -> Any:
        self._build_all()
        return dict.__or__(self, other)

    def __ror__(self, other: Any) -> Any:
        self._build_all()
        return dict.__ror__(self, other)

    def __ior__(self, other: Any) -> LazyInfo:  # type: ignore[override]
        self.update(other)
        return self

    def __eq__(self, other: object) -> bool:
        self._build_all()
        if isinstance(other, LazyInfo):
            other._build_all()
        return dict.__eq__(self, other)

    __hash__ = None

    def __repr__(self) -> str:
        self._build_all()
        return dict.__repr__(self)

    def __reduce_ex__(self, protocol: Any) -> tuple[Any, ...]:
        # Copies and pickles hold the built values, as a plain dict.
        self._build_all()
        return (dict, (self._built(),))
