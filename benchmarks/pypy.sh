#!/bin/bash
# meeple under PyPy, the optional faster runtime: set up its environment if missing, check that
# the golden games are identical under it, and print its speed against CPython's and the reference's
# (CPU time, the two interpreters in alternating rounds: benchmarks/runtimes.py).
#   benchmarks/pypy.sh [--setup-only] [--no-golden] [benchmarks/runtimes.py options...]
# e.g. benchmarks/pypy.sh --warmup 2000 --games 500 --rounds 3 --bots --validate
# Environment: PYPY (the interpreter, default pypy3), PYPY_ENV (the venv, default /tmp/pypy-env),
# PYTHON (the CPython to compare with, default python3). Nothing is installed into CPython's
# environment, and PyPy's parser caches stay in PYPY_ENV/meeple-cache. Optional: CI runs CPython
# only, and no test needs PyPy.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
pypy=${PYPY:-pypy3}
env_dir=${PYPY_ENV:-/tmp/pypy-env}
cpython=${PYTHON:-python3}
setup_only=0; golden=1; rest=()
for arg in "$@"; do
  case "$arg" in
    --setup-only) setup_only=1 ;;
    --no-golden) golden=0 ;;
    -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exec "$cpython" "$here/runtimes.py" --help ;;
    *) rest+=("$arg") ;;
  esac
done
if ! command -v "$pypy" >/dev/null; then
  echo "pypy.sh: no PyPy interpreter '$pypy' (apt-get install pypy3, or set PYPY)" >&2; exit 2
fi
py="$env_dir/bin/python"
if [ ! -x "$py" ] || ! "$py" -c 'import yaml, jsonschema, lark, click' 2>/dev/null; then
  echo "setting up $env_dir with $("$pypy" --version 2>&1 | tail -1)" >&2
  "$pypy" -m venv "$env_dir"
  # meeple's dependencies as pyproject.toml names them; pyyaml builds from source (pure Python:
  # no libyaml for PyPy, so meeple reads YAML with the pure loader, with the same spans)
  "$py" -m pip install -q 'pyyaml>=6.0' 'jsonschema>=4.18' 'lark>=1.1.9' 'click>=8.1'
fi
# PyPy implements Python 3.9: the few 3.10 features meeple uses come from py39compat, loaded by
# a .pth file at every start of this environment's interpreter (subprocesses included)
site=$("$py" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
cp "$here/py39compat.py" "$site/meeple_py39compat.py"
echo 'import meeple_py39compat' > "$site/meeple_py39compat.pth"
echo "PyPy environment: $py ($("$py" -c 'import sys; print(sys.version.split()[0], sys.implementation.name, "%d.%d.%d" % sys.pypy_version_info[:3])'))"
[ "$setup_only" = 1 ] && exit 0
if [ "$golden" = 1 ]; then
  echo "golden games under PyPy (tools/golden.py --check):"
  (cd "$root" && MEEPLE_CACHE_DIR="$env_dir/meeple-cache" "$py" tools/golden.py --check | tail -3)
fi
cd "$root" && exec "$cpython" "$here/runtimes.py" --pypy "$py" --pypy-cache "$env_dir/meeple-cache" "${rest[@]+"${rest[@]}"}"
