"""pandas DataFrames of records: the only module that imports pandas (the optional `pandas` extra)."""
from __future__ import annotations

from typing import Any, Sequence


def data_frame(records: Sequence[dict[str, Any]], columns: Sequence[str]) -> Any:
    """A DataFrame of the records, with these columns in this order."""
    try:
        import pandas
    except ImportError as exc:
        raise ImportError("to_frame() needs pandas: pip install 'deckcheck[pandas]'") from exc
    return pandas.DataFrame.from_records(list(records), columns=list(columns))
