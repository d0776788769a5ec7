#!/bin/sh
# Runs lit golden tests: run_lit.sh BIN_DIR [TEST_PATH...] (default: all).
# Exits 77 (ctest: skipped) when lit or FileCheck is not installed.
bin=$1; shift
lit=${HILO_LIT:-/usr/lib/llvm-14/build/utils/lit/lit.py}
llvm=${HILO_LLVM_BIN:-/usr/lib/llvm-14/bin}
if [ ! -f "$lit" ] || [ ! -x "$llvm/FileCheck" ] || [ ! -x "$llvm/not" ]; then
	echo "lit or FileCheck missing (Debian llvm-14-tools): skipped"
	exit 77
fi
[ $# -gt 0 ] || set -- "$(dirname "$0")"
# One exec root per invocation (lit.cfg.py): named after the first test
# path's folder, so parallel ctest runs never share lit's state files.
tag=$(basename "$1" .hlo | tr -c 'A-Za-z0-9_.\n-' '_')
exec python3 "$lit" -q --param hilo_bin="$bin" --param llvm_bin="$llvm" --param lit_tag="$tag" "$@"
