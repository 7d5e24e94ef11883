#!/usr/bin/env bash
# A throwaway PostgreSQL server for the tests: started in a temporary directory on
# 127.0.0.1 at a free port, durability off (fsync, synchronous commits and full-page
# writes: a crash of a test server loses nothing anyone needs), stopped and removed when
# the command it runs ends.
#
#   scripts/test_postgres.sh .venv/bin/python -m pytest tests/service    # one command
#   scripts/test_postgres.sh                                              # a shell with it
#
# The command sees the server's address in TEST_DATABASE_URL. Debian's `postgresql`
# package provides the server (installed here when `initdb` is missing and we are root).
# initdb refuses to run as root, so as root the server runs as the `postgres` user.
set -euo pipefail

find_bin() {
    local found
    found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
    if [ -z "$found" ] && command -v initdb >/dev/null; then
        found=$(dirname "$(command -v initdb)")
    fi
    echo "$found"
}

bin=$(find_bin)
if [ -z "$bin" ]; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "PostgreSQL is not installed: apt-get install postgresql (as root)" >&2
        exit 1
    fi
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
    bin=$(find_bin)
fi

as_owner=()
if [ "$(id -u)" -eq 0 ]; then
    as_owner=(runuser -u postgres --)
fi

dir=$(mktemp -d -t shogi-pg.XXXXXX)
chmod 755 "$dir"
[ "$(id -u)" -eq 0 ] && chown postgres "$dir"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

stop() {
    "${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
}
trap stop EXIT

"${as_owner[@]}" "$bin/initdb" -D "$dir/data" -U postgres -A trust -E UTF8 --no-sync >/dev/null
# The tests' superuser connects without a password; any other role must give its password,
# so that a test can meet a wrong one, as an operator's server would refuse it.
cat > "$dir/data/pg_hba.conf" <<'HBA'
local all all                trust
host  all postgres 127.0.0.1/32 trust
host  all all      127.0.0.1/32 scram-sha-256
HBA
"${as_owner[@]}" "$bin/pg_ctl" -D "$dir/data" -l "$dir/log" -w start -o \
    "-h 127.0.0.1 -p $port -k $dir -F -c synchronous_commit=off -c full_page_writes=off" \
    >/dev/null

export TEST_DATABASE_URL="postgresql://postgres@127.0.0.1:$port/postgres"
echo "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') at $TEST_DATABASE_URL" >&2
if [ $# -eq 0 ]; then
    "${SHELL:-bash}"
else
    "$@"
fi
