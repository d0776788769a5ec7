#!/bin/sh
# `make demo` prints the demo and nothing of make's own: no "make[1]:
# Entering directory", no "[ 42%] Built target" (the build's output is in
# BUILD/demo-build.log). Run from the source tree on the configured build.
#   make_demo.sh SOURCE_DIR BUILD_DIR SHARED_DIR
set -u
src=$1 build=$2 shared=$3
out=$build/make_demo.out
# as a user types it at a shell: not as a sub-make of make test, whose
# MAKELEVEL/MAKEFLAGS make the inner make announce its directories
(cd "$src" && env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS -u MAKEOVERRIDES make demo BUILD="$build" \
	SHARED="$shared" JOBS=2) >"$out" 2>&1
rc=$?
fail=0
[ $rc -eq 0 ] || { echo "FAIL: make demo: exit $rc"; fail=1; }
if grep -nE '^g?make(\[[0-9]+\])?: |Built target|^\[ *[0-9]+%\]' "$out" >"$out.noise"; then
	echo "FAIL: make demo printed make-internal lines:"; head -n 5 "$out.noise"; fail=1
fi
head -n 1 "$out" | grep -q '^== ' || { echo "FAIL: make demo does not start with the demo: $(head -n 1 "$out")"; fail=1; }
grep -q '^== summary' "$out" || { echo "FAIL: make demo printed no summary"; fail=1; }
[ -s "$build/demo-build.log" ] || { echo "FAIL: no $build/demo-build.log"; fail=1; }
rm -f "$out" "$out.noise"
[ $fail -eq 0 ] && echo "make demo: quiet"
exit $fail
