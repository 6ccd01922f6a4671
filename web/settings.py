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
from typing import Any, NamedTuple, get_args

from annotated_types import Ge
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from deckcheck.errors import DeckcheckError
from deckcheck.rates import Rate

from .hosts import clean_host_name

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

    host: str = Field(default="127.0.0.1", json_schema_extra=_option("DECKCHECK_HOST"),
                      description="Address to listen on (127.0.0.1: this machine only; on another address, other "
                                  "machines may change nothing without an account).")
    port: int = Field(default=8000, ge=0, le=65535, description="Port to listen on.")
    workers: int = Field(default=1, ge=1, le=64, description="Server processes (a process that dies is replaced).")
    db_url: str | None = Field(default=None, json_schema_extra=_option("DECKCHECK_DB", "--db"),
                               description="The database (a SQLAlchemy URL or a SQLite file); default: the user's.")
    admin_token_file: str | None = Field(default=None, json_schema_extra=_option("DECKCHECK_ADMIN_TOKEN_FILE"),
                                         description="A file holding the admin token, which lets whoever gives it "
                                                     "edit card data on the card pages; without one the cards are "
                                                     "read-only (or give the token itself in "
                                                     "DECKCHECK_ADMIN_TOKEN).")
    admin_token: str | None = Field(default=None, json_schema_extra=_option("DECKCHECK_ADMIN_TOKEN"),
                                    description="The admin token itself: every user of this machine can read it in "
                                                "the process list; prefer --admin-token-file.")
    allowed_hosts: str = Field(default="", json_schema_extra=_option("DECKCHECK_ALLOWED_HOSTS", "--allowed-host"),
                               description="Another host name the server answers to (repeatable, or comma separated "
                                           "in the variable; *.example.org for its subdomains): its name on the LAN "
                                           "or behind a proxy. Always answered: the address it listens on, localhost "
                                           "when that is this machine, any IP address with --host 0.0.0.0 "
                                           "(deckcheck.web.hosts.hosts_for_bind).")
    check_rate: str = Field(default="300/60", json_schema_extra=_option("DECKCHECK_CHECK_RATE"),
                            description="Checks (POST /api/check, /check) per client address: N/SECONDS, or 0 for no "
                                        "limit; a server on loopback does not count this machine's own.")
    event_rate: str = Field(default="30/3600", json_schema_extra=_option("DECKCHECK_EVENT_RATE"),
                            description="New desk events per client address: N/SECONDS, or 0 for no limit; a server "
                                        "on loopback does not count this machine's own.")
    preview_dir: str | None = Field(default=None, json_schema_extra=_option("DECKCHECK_PREVIEW_DIR"),
                                    description="A private folder (yours, mode 700) where uploaded collection sheets "
                                                "wait for their confirmation; default: a new one in the temporary "
                                                "folder.")
    header_timeout: float = Field(default=15.0, ge=0.1, le=3600, json_schema_extra=_option("DECKCHECK_HEADER_TIMEOUT"),
                                  description="Seconds a connection has to send a request's line and headers "
                                              "(then 408).")
    body_timeout: float = Field(default=60.0, ge=0.1, le=3600, json_schema_extra=_option("DECKCHECK_BODY_TIMEOUT"),
                                description="Seconds a request has to send its body, after its headers (then 408).")
    connections_per_address: int = Field(default=64, ge=0, le=1_000_000,
                                         json_schema_extra=_option("DECKCHECK_CONNECTIONS_PER_ADDRESS"),
                                         description="Connections one client address may hold open at once, in each "
                                                     "server process (past it: 429); behind a reverse proxy every "
                                                     "client has the proxy's address; 0 for no cap.")
    upload_limit: int = Field(default=DEFAULT_UPLOAD_LIMIT, ge=1024,
                              json_schema_extra=_option("DECKCHECK_UPLOAD_LIMIT"),
                              description="Largest request body in bytes (larger: HTTP 413).")
    desk_rate: str = Field(default="60/60", json_schema_extra=_option("DECKCHECK_DESK_RATE"),
                           description="Tournament desk submissions per client address: N/SECONDS, or 0 for no "
                                       "limit.")

    signup: bool = Field(default=False, json_schema_extra=_option("DECKCHECK_SIGNUP"),
                         description="Let visitors make their own player account at /signup (off: only the keeper "
                                     "makes accounts, with `deckcheck users add`).")

    @field_validator("admin_token", "db_url", "admin_token_file", "preview_dir")
    @classmethod
    def _empty_is_none(cls, value: str | None) -> str | None:
        return value or None

    @field_validator("desk_rate", "check_rate", "event_rate")
    @classmethod
    def _rate(cls, value: str) -> str:
        Rate.parse(value)  # RateError (a ValueError: pydantic reports it) when it is not N/SECONDS
        return value.strip()

    @field_validator("allowed_hosts")
    @classmethod
    def _hosts(cls, value: str) -> str:
        return ",".join(clean_host_name(h) for h in value.split(",") if h.strip())

    @property
    def rate_limit(self) -> Rate:
        """The desk's submission limit."""
        return Rate.parse(self.desk_rate, "--desk-rate")

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


class ServeOption(NamedTuple):
    """One `deckcheck serve` option, as a Settings field declares it (deckcheck.cli builds its typer option)."""

    field: str  # the Settings field, the keyword Settings.from_env takes its value by
    flag: str
    type: type
    default: object  # the field's default (None: none)
    help: str  # the description, then "[default: ...; env var: ...]"
    env: str | None
    min: int | float | None
    multiple: bool  # repeatable on the command line, joined by "," (--allowed-host)


MULTIPLE = ("allowed_hosts",)


def _shown(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def serve_options() -> list[ServeOption]:
    """Every `deckcheck serve` option, in the order of the Settings fields: flag, type, default, help, variable."""
    options = []
    for name, info in Settings.model_fields.items():
        env = Settings.env_names().get(name)
        default = info.default if info.default not in ("", None) else None
        said = [f"default: {_shown(default)}"] if default is not None else []
        said += [f"env var: {env}"] if env else []
        bounds = [m.ge for m in info.metadata if isinstance(m, Ge) and isinstance(m.ge, (int, float))]
        kind = next((t for t in (bool, int, float, str) if t in get_args(info.annotation) or t is info.annotation), str)
        options.append(ServeOption(name, Settings.flag(name), kind, default,
                                   f"{info.description} [{'; '.join(said)}]" if said else str(info.description),
                                   env, bounds[0] if bounds else None, name in MULTIPLE))
    return options
