#!/bin/sh
# bench/xla_bench.sh BUILD SHARED (called by bench/run.sh, step 4)
# hilo against XLA's own parser, printer and proto reader/writer on every
# corpus/real module, timed file by file in this run (bench/xla_bench.py
# under the pinned jax venv of the XLA tier, tests/xla/venv.sh). Without
# jax (no registry) it says skipped, never a figure.
set -u
build=${1:-build}
shared=${2:-../shared}
here=$(cd "$(dirname "$0")" && pwd)
echo "== hilo vs XLA (jaxlib 0.10.2): parse, print, proto write/read on corpus/real (goal: parse >= 10x, print >= 5x)"
[ -d "$shared/corpus/real" ] || { echo "   skipped: $shared/corpus/real not found"; exit 0; }
py=$(sh "$here/../tests/xla/venv.sh") || {
	echo "   skipped: jax not installable (tests/xla/venv.sh)"; exit 0; }
"$py" "$here/xla_bench.py" "$build" "$shared"/corpus/real/*.hlo
