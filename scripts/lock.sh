#!/usr/bin/env bash
# Refresh the lock files: every package the bot and the tests install, pinned to one
# release with the hashes of the files PyPI serves for it, so that an install gets exactly
# what was tested and a file swapped on the way is refused (`pip install --require-hashes`).
#
#   scripts/lock.sh                 # after changing a dependency in pyproject.toml
#
# requirements/bot.lock is what the bot runs on (with the postgres, metrics and redis extras,
# so that enabling any of them needs no unlocked install), requirements/test.lock what the tests
# and CI run on; both also pin setuptools, which builds the project itself
# (`pip install --no-deps --no-build-isolation -e .` after the lock). The lock is for
# CPython 3.11 on Linux x86_64 and is compiled there: run this with such a python3.
#
# It asks PyPI itself, ignoring any local pip configuration (extra indexes, find-links and
# constraints of this machine), because CI and operators install from PyPI: the hashes
# must be those of PyPI's files. pip-tools runs from a throwaway virtual environment.
set -euo pipefail
cd "$(dirname "$0")/.."

export PIP_CONFIG_FILE=/dev/null
unset PIP_FIND_LINKS PIP_EXTRA_INDEX_URL PIP_INDEX_URL PIP_CONSTRAINT PIP_NO_INDEX
tools=$(mktemp -d -t shogi-lock.XXXXXX)
trap 'rm -rf "$tools"' EXIT
python3 -m venv "$tools"
"$tools/bin/pip" install -q --index-url https://pypi.org/simple pip-tools

compile() {
    local output=$1
    shift
    CUSTOM_COMPILE_COMMAND="scripts/lock.sh" "$tools/bin/pip-compile" --quiet --upgrade \
        --generate-hashes --allow-unsafe --strip-extras --all-build-deps \
        --index-url https://pypi.org/simple --no-emit-index-url \
        --output-file "$output" "$@" pyproject.toml
}
mkdir -p requirements
compile requirements/bot.lock --extra postgres --extra metrics --extra redis
compile requirements/test.lock --extra test
echo "wrote requirements/bot.lock and requirements/test.lock" >&2
