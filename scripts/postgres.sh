# Source this file: it installs PostgreSQL from Debian's packages when missing, starts a throw-away
# server on a free loopback port, and exports DECKCHECK_TEST_PG (a SQLAlchemy URL) for the tests.
# The server and its data directory are removed when the shell that sourced this exits.

pg_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1; }

PGBIN=$(pg_bin)
if [ -z "$PGBIN" ] || [ ! -x "$PGBIN/postgres" ]; then
    echo "installing PostgreSQL (Debian package postgresql)..." >&2
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq >/dev/null
    apt-get install -y -qq postgresql >/dev/null
    PGBIN=$(pg_bin)
fi

PGWORK=$(mktemp -d /tmp/deckcheck-pg.XXXXXX)
if [ "$(id -u)" = 0 ]; then
    chown postgres: "$PGWORK"
    as_pg() { runuser -u postgres -- "$@"; }
else
    as_pg() { "$@"; }
fi
as_pg "$PGBIN/initdb" -D "$PGWORK/data" -A trust -U postgres >"$PGWORK/initdb.log" 2>&1 \
    || { cat "$PGWORK/initdb.log" >&2; return 1; }
# A free port is free only until another program takes it (another test run on the machine): try a new one
# when the server cannot listen on it.
for try in 1 2 3 4 5; do
    PGPORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    if as_pg "$PGBIN/pg_ctl" -D "$PGWORK/data" -l "$PGWORK/server.log" -w \
        -o "-p $PGPORT -k $PGWORK -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null; then
        break
    fi
    if [ "$try" = 5 ]; then cat "$PGWORK/server.log" >&2; return 1; fi
done
as_pg "$PGBIN/createdb" -h 127.0.0.1 -p "$PGPORT" -U postgres deckcheck_test
export DECKCHECK_TEST_PG="postgresql+psycopg://postgres@127.0.0.1:$PGPORT/deckcheck_test"
stop_postgres() { as_pg "$PGBIN/pg_ctl" -D "$PGWORK/data" -m fast stop >/dev/null 2>&1; rm -rf "$PGWORK"; }
trap stop_postgres EXIT
echo "PostgreSQL $("$PGBIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PGPORT" >&2
