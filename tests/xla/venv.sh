#!/bin/sh
# tests/xla/venv.sh: create (once per machine) the pinned virtual environment
# the XLA tier runs in, and print its python's path on stdout.
#
# The environment lives outside the checkout, keyed by the interpreter's
# version and the pinned requirements, so every clone on the machine (CI's
# fresh clone included) reuses it: ${HILO_XLA_VENV:-$CACHE/hilo/venv-jax-0.10.2-KEY}
# with CACHE = ${XDG_CACHE_HOME:-$HOME/.cache}. A first install downloads
# ~600 MB from the Python package registry. Nothing in libhilo or the tools
# depends on it: it is test infrastructure.
#
# Exit 0: the path of a working python printed. Exit 77 (ctest's and
# automake's "skipped"): `skipped: jax not installable (REASON)` on stderr.
set -u

# Pinned: what jax 0.10.2 resolves to on Python 3.11 (transitive ones too, so
# two machines get the same bits).
REQS="jax==0.10.2 jaxlib==0.10.2 ml_dtypes==0.7.0 numpy==2.4.6 scipy==1.17.1 opt_einsum==3.4.0"

skip() { echo "skipped: jax not installable ($1)" >&2; exit 77; }

PY=""
for cand in ${HILO_XLA_PYTHON:-} python3 /usr/bin/python3; do
  if command -v "$cand" >/dev/null 2>&1 && "$cand" -c 'import venv' 2>/dev/null; then PY=$cand; break; fi
done
[ -n "$PY" ] || skip "no python3 with the venv module"
pyver=$("$PY" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])')
case $pyver in 3.1[0-3].*) ;; *) skip "python $pyver: jaxlib 0.10.2 needs 3.10-3.13";; esac

key=$(printf '%s\n%s\n' "$pyver" "$REQS" | cksum | cut -d' ' -f1)
cache=${XDG_CACHE_HOME:-${HOME:-/root}/.cache}
venv=${HILO_XLA_VENV:-$cache/hilo/venv-jax-0.10.2-py$pyver-$key}
stamp=$venv/.hilo-complete

if [ ! -f "$stamp" ]; then
  mkdir -p "$(dirname "$venv")" || skip "cannot create $(dirname "$venv")"
  # One installer at a time per environment; a second clone waits, then reuses.
  exec 9>"$venv.lock" || skip "cannot lock $venv.lock"
  if command -v flock >/dev/null 2>&1; then flock 9; fi
  if [ ! -f "$stamp" ]; then
    rm -rf "$venv"
    log=$venv.install.log
    echo "xla tier: creating $venv (first use: downloads jax/jaxlib, ~600 MB)" >&2
    if ! "$PY" -m venv "$venv" >"$log" 2>&1; then
      rm -rf "$venv"; skip "python -m venv failed: $(tail -1 "$log")"
    fi
    if ! "$venv/bin/python" -m pip install --disable-pip-version-check -q \
         --timeout 60 --retries 2 $REQS >>"$log" 2>&1; then
      reason=$(grep -E 'ERROR|error' "$log" | tail -1 | cut -c1-160)
      rm -rf "$venv"; skip "pip install failed: ${reason:-see $log}"
    fi
    if ! "$venv/bin/python" -c 'import jax, jaxlib, ml_dtypes, numpy; assert jax.__version__ == "0.10.2" and jaxlib.__version__ == "0.10.2"' >>"$log" 2>&1; then
      rm -rf "$venv"; skip "installed jax does not import: $(tail -1 "$log")"
    fi
    echo "$REQS" >"$stamp"
  fi
fi
echo "$venv/bin/python"
