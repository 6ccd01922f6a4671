"""Formats of the other games whose rules we hold; each module registers its format on import."""
from . import raven, taktik  # noqa: F401
