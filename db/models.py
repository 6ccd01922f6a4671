"""SQLModel tables: cards (one row per printing), the database's own facts, collections and decks."""
from __future__ import annotations

from typing import Optional

from sqlmodel import Field, SQLModel


class CardRow(SQLModel, table=True):
    """One printed card. NULL means unknown wherever the card sheet allows "unknown"."""

    __tablename__ = "card"

    id: str = Field(primary_key=True)
    game: str = Field(default="highlander", index=True)
    name: str = Field(index=True)
    title: str
    immortal: Optional[str] = None
    weapon: Optional[str] = None
    version: Optional[str] = None
    edition: int = 1
    set_code: Optional[str] = Field(default=None, index=True)
    type: Optional[str] = None
    subtype: str = ""
    basic: bool = False
    grid: Optional[int] = None
    grid_inferred: bool = False
    restriction: Optional[int] = 0
    reserved: Optional[bool] = False
    signature: Optional[bool] = False
    unique: Optional[bool] = False
    hand_icons: Optional[int] = 0
    gem_master: Optional[int] = 0
    gem_agility: Optional[int] = 0
    gem_strength: Optional[int] = 0
    gem_toughness: Optional[int] = 0
    gem_empathy: Optional[int] = 0
    gem_reason: Optional[int] = 0
    requires: str = ""
    deckbuilding: str = ""
    renown: Optional[int] = None
    health: Optional[int] = None
    skill: Optional[int] = None
    rank: Optional[str] = None
    suit: Optional[str] = None
    rarity: Optional[str] = None
    text: Optional[str] = None
    source: str = ""


class MetaRow(SQLModel, table=True):
    """Facts about the database itself (when it was set up, which bundled data it holds)."""

    __tablename__ = "deckcheck_meta"

    key: str = Field(primary_key=True)
    value: str
