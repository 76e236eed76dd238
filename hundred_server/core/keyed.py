"""``Keyed``: a registry that others read as a mapping and only its own methods change
(the sessions, the tables, the tokens; no I/O)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Keyed(Mapping[K, V], Generic[K, V]):
    """A read-only mapping over ``_items``, which the subclass's methods fill. ``get``
    and ``in`` are the dict's own: the hub asks them per connection on every answer."""

    def __init__(self) -> None:
        self._items: dict[K, V] = {}

    def __getitem__(self, key: K) -> V:
        return self._items[key]

    def __iter__(self) -> Iterator[K]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __contains__(self, key: object) -> bool:
        return key in self._items

    def get(self, key: K, default: None = None) -> V | None:  # type: ignore[override]
        return self._items.get(key)
