#!/usr/bin/env bash
# A throwaway Redis server for the tests: started in a temporary directory on 127.0.0.1 at
# a free port, nothing saved to disk, stopped and removed when the command it runs ends.
#
#   scripts/test_redis.sh .venv/bin/python -m pytest tests/bot/test_shared_limit.py
#   scripts/test_postgres.sh scripts/test_redis.sh .venv/bin/python -m pytest   # both
#
# The command sees the server's address in TEST_REDIS_URL. Debian's `redis-server` package
# provides the server (installed here when it is missing and we are root).
set -euo pipefail

if ! command -v redis-server >/dev/null; then
    if [ "$(id -u)" -ne 0 ]; then
        echo "Redis is not installed: apt-get install redis-server (as root)" >&2
        exit 1
    fi
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
fi

dir=$(mktemp -d -t shogi-redis.XXXXXX)
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')

server=""
stop() {
    if [ -n "$server" ]; then
        kill "$server" 2>/dev/null || true
        wait "$server" 2>/dev/null || true
    fi
    rm -rf "$dir"
}
trap stop EXIT

redis-server --bind 127.0.0.1 --port "$port" --dir "$dir" --save "" --appendonly no \
    --logfile "$dir/log" >/dev/null &
server=$!
for _ in $(seq 50); do
    redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null 2>&1 && break
    sleep 0.1
done

export TEST_REDIS_URL="redis://127.0.0.1:$port/0"
echo "Redis $(redis-server --version | awk '{print $3}' | cut -d= -f2) at $TEST_REDIS_URL" >&2
if [ $# -eq 0 ]; then
    "${SHELL:-bash}"
else
    "$@"
fi
