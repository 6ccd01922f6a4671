"""A bounded memo, emptied whole when full: the one rule of every cache the core keeps (standard library only).

The card index remembers what each name resolved to (deckcheck.catalog); the decklist parser remembers what
each line it reads is (deckcheck.decklist): a tournament's decks write the same lines again and again.
"""
from __future__ import annotations

from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class Memo(Generic[K, V]):
    """A bounded memo, emptied whole when full. One lookup and one store each: another thread may empty it
    between two calls, never within one."""

    def __init__(self, size: int = 4096) -> None:
        self._items: dict[K, V] = {}
        self._size = size

    def get(self, key: K) -> V | None:
        return self._items.get(key)

    def put(self, key: K, value: V) -> V:
        if len(self._items) > self._size:
            self._items.clear()
        self._items[key] = value
        return value

    def __len__(self) -> int:
        return len(self._items)
