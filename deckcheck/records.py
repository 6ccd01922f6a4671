"""Plain records for programs and data frames: reports, tournaments and collections as lists of dicts."""
from __future__ import annotations

from typing import Any


class Records:
    """A result that converts to plain records (`records()`) and, with pandas installed, to a DataFrame."""

    __slots__ = ()

    @property
    def record_columns(self) -> tuple[str, ...]:
        """The columns of records(), in order (a class's own tuple, or a property when they depend on the rows)."""
        return ()

    def records(self) -> list[dict[str, Any]]:
        """One dict per row, keyed by record_columns."""
        raise NotImplementedError

    def to_frame(self) -> Any:
        """The records as a pandas DataFrame (columns in record_columns order, also when there are no rows).

        Needs the optional extra: pip install 'deckcheck[pandas]'.
        """
        from .library.frames import data_frame
        return data_frame(self.records(), self.record_columns)
