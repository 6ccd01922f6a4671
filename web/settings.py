"""What a web server is started with, in one place: every `deckcheck serve` option and its environment variable.

One `Settings` object is made per server: `serve` makes it from its flags (each flag's default comes from
the environment variable, else the field's default), writes it to the environment for the uvicorn workers
(`as_env`), and each worker reads it back (`Settings.from_env`). Routes get it through `Depends`
(deckcheck.web.deps.SettingsDep), never from os.environ.

A new option is one field here: its type and bounds, its default, `env=` (the variable that sets it) and a
description (the `--help` text).
"""
from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from deckcheck.errors import DeckcheckError

DEFAULT_UPLOAD_LIMIT = 2 * 1024 * 1024


class SettingsError(DeckcheckError):
    """A server option (flag or environment variable) that cannot be used: exit 2 before serving."""


def _option(env: str | None = None, flag: str | None = None) -> Any:
    """A field's `serve` flag (default: --FIELD-NAME) and environment variable, kept in its JSON schema extra."""
    return {k: v for k, v in (("env", env), ("flag", flag)) if v}


TOKEN_FILE_MAX = 4096


def read_token_file(path: str) -> str:
    """The admin token a file holds (alone, a final newline dropped); SettingsError when it cannot be read or
    holds anything else. A warning on stderr when other users may read the file."""
    import stat
    import sys
    try:
        with open(path, "rb") as f:
            data = f.read(TOKEN_FILE_MAX + 1)
            mode = os.fstat(f.fileno()).st_mode
    except OSError as exc:
        raise SettingsError(f"--admin-token-file {path!r}: {exc.strerror or exc}") from None
    try:
        token = data.decode("utf-8").strip()
    except UnicodeDecodeError:
        raise SettingsError(f"--admin-token-file {path!r}: not UTF-8 text") from None
    if len(data) > TOKEN_FILE_MAX or not token or any(c.isspace() or not c.isprintable() for c in token):
        raise SettingsError(f"--admin-token-file {path!r}: the file holds the token alone, one line of at most "
                            f"{TOKEN_FILE_MAX} printable characters without spaces")
    if mode & (stat.S_IRGRP | stat.S_IROTH):
        sys.stderr.write(f"deckcheck: warning: other users may read {path!r} (chmod 600 it)\n")
    return token


class Settings(BaseModel):
    """The options of one server; frozen: a running server's settings do not change."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    host: str = Field(default="127.0.0.1", description="Address to listen on (127.0.0.1: this machine only).")
    port: int = Field(default=8000, ge=0, le=65535, description="Port to listen on.")
    workers: int = Field(default=1, ge=1, le=64, description="Server processes (a process that dies is replaced).")
    db_url: str | None = Field(default=None, json_schema_extra=_option("DECKCHECK_DB", "--db"),
                               description="The database (a SQLAlchemy URL or a SQLite file); default: the user's.")
    admin_token: str | None = Field(default=None, json_schema_extra=_option("DECKCHECK_ADMIN_TOKEN"),
                                    description="Lets whoever gives it edit card data on the card pages; without it "
                                                "the cards are read-only.")
    admin_token_file: str | None = Field(default=None, json_schema_extra=_option("DECKCHECK_ADMIN_TOKEN_FILE"),
                                         description="A file holding the admin token alone (chmod 600): unlike "
                                                     "--admin-token, not in the process list for every user.")
    upload_limit: int = Field(default=DEFAULT_UPLOAD_LIMIT, ge=1024,
                              json_schema_extra=_option("DECKCHECK_UPLOAD_LIMIT"),
                              description="Largest request body in bytes (larger: HTTP 413).")
    desk_rate: str = Field(default="60/60", json_schema_extra=_option("DECKCHECK_DESK_RATE"),
                           description="Desk submissions per client address: N/SECONDS, or 0 for no limit.")
    allowed_hosts: str = Field(default="", json_schema_extra=_option("DECKCHECK_ALLOWED_HOSTS", "--allowed-host"),
                               description="The host names the server answers to, comma separated (empty: "
                                           "localhost, 127.0.0.1, ::1); `serve` adds the address it listens on "
                                           "(deckcheck.web.guard.hosts_for_bind).")
    check_rate: str = Field(default="300/60", json_schema_extra=_option("DECKCHECK_CHECK_RATE"),
                            description="Checks (POST /api/check, /check) per client address: N/SECONDS, or 0.")
    event_rate: str = Field(default="30/3600", json_schema_extra=_option("DECKCHECK_EVENT_RATE"),
                            description="New desk events per client address: N/SECONDS, or 0 for no limit.")
    preview_dir: str | None = Field(default=None, json_schema_extra=_option("DECKCHECK_PREVIEW_DIR"),
                                    description="The private folder (0700, yours) where uploaded collection sheets "
                                                "wait for confirmation; default: a new one in the temporary folder.")
    header_timeout: float = Field(default=15.0, ge=0.1, le=3600, json_schema_extra=_option("DECKCHECK_HEADER_TIMEOUT"),
                                  description="Seconds a connection has to send a request's line and headers.")
    body_timeout: float = Field(default=60.0, ge=0.1, le=3600, json_schema_extra=_option("DECKCHECK_BODY_TIMEOUT"),
                                description="Seconds a request has to send its body, after its headers.")
    connections_per_address: int = Field(default=64, ge=0, le=1_000_000,
                                         json_schema_extra=_option("DECKCHECK_CONNECTIONS_PER_ADDRESS"),
                                         description="Connections one client address may hold open at once, in "
                                                     "each server process (past it: 429); 0 for no cap.")

    @field_validator("admin_token", "db_url", "admin_token_file", "preview_dir")
    @classmethod
    def _empty_is_none(cls, value: str | None) -> str | None:
        return value or None

    @field_validator("desk_rate")
    @classmethod
    def _rate(cls, value: str) -> str:
        from deckcheck.db.desk import RateLimit
        RateLimit.parse(value)  # DeskError (a ValueError: pydantic reports it) when it is not N/SECONDS
        return value.strip()

    @field_validator("allowed_hosts")
    @classmethod
    def _hosts(cls, value: str) -> str:
        from .guard import clean_host_name
        return ",".join(clean_host_name(h) for h in value.split(",") if h.strip())

    @field_validator("check_rate", "event_rate")
    @classmethod
    def _guard_rate(cls, value: str) -> str:
        from .guard import Rate
        Rate.parse(value, "rate")  # GuardError (a DeckcheckError) when it is not N/SECONDS
        return value.strip()

    @property
    def rate_limit(self):
        """The desk's submission limit (deckcheck.db.desk.RateLimit)."""
        from deckcheck.db.desk import RateLimit
        return RateLimit.parse(self.desk_rate)

    @classmethod
    def env_names(cls) -> dict[str, str]:
        """{field: environment variable} for the fields an environment variable sets."""
        return {name: env for name in cls.model_fields if (env := cls._extra(name).get("env"))}

    @classmethod
    def flag(cls, field: str) -> str:
        """The `serve` flag of a field."""
        return cls._extra(field).get("flag") or f"--{field.replace('_', '-')}"

    @classmethod
    def _extra(cls, field: str) -> dict[str, str]:
        extra = cls.model_fields[field].json_schema_extra
        return {k: v for k, v in extra.items() if isinstance(v, str)} if isinstance(extra, dict) else {}

    @classmethod
    def make(cls, **values: Any) -> Settings:
        """Settings from these values (None: the field's default); SettingsError naming the option when one
        cannot be used."""
        values = {k: v for k, v in values.items() if v is not None}
        if values.get("admin_token_file"):
            token = read_token_file(str(values["admin_token_file"]))
            if values.get("admin_token") and values["admin_token"] != token:
                raise SettingsError("the admin token is given twice, differently (--admin-token-file, "
                                    "$DECKCHECK_ADMIN_TOKEN or --admin-token): give it once")
            values["admin_token"] = token
        try:
            return cls(**values)
        except ValidationError as exc:
            first = exc.errors()[0]
            field = str(first["loc"][0]) if first.get("loc") else "settings"
            env = cls.env_names().get(field)
            where = (cls.flag(field) if field in cls.model_fields else field) + (f" (${env})" if env else "")
            raise SettingsError(f"{where}: {first['msg']} (got {first.get('input')!r})") from None

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
        """Settings from the environment (each field's variable), then `overrides` where they are not None."""
        environ = os.environ if environ is None else environ
        values: dict[str, Any] = {f: environ[e] for f, e in cls.env_names().items() if environ.get(e)}
        values.update({k: v for k, v in overrides.items() if v is not None})
        return cls.make(**values)

    def as_env(self) -> dict[str, str | None]:
        """The environment that makes `from_env` give these settings again (None: unset the variable)."""
        out: dict[str, str | None] = {}
        for field, env in self.env_names().items():
            value = None if field == "admin_token_file" else getattr(self, field)  # its token travels instead
            out[env] = None if value is None else str(value)
        return out
