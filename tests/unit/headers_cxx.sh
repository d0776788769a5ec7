#!/bin/sh
# Every public header compiles on its own as C17 and as C++17 (issue 29:
# extern "C", no C-only keywords), warning-free. Skipped (77) without g++.
# Usage: headers_cxx.sh SOURCE_DIR BUILD_INCLUDE_DIR
set -u
src=$1 gen=$2
command -v g++ >/dev/null 2>&1 || { echo "g++ missing: skipped"; exit 77; }
T=${TMPDIR:-/tmp}/headers_cxx.$$
mkdir -p "$T" || exit 1
trap 'rm -rf "$T"' EXIT
n=0 fail=0
for h in "$src"/include/hilo/*.h; do
	b=$(basename "$h")
	printf '#include "hilo/%s"\n#include "hilo/%s"\nint hilo_header_check_%s;\n' "$b" "$b" "$(echo "$b" | tr -c 'a-z0-9\n' _)" >"$T/t.c"
	cp "$T/t.c" "$T/t.cpp"
	if ! g++ -std=c++17 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I"$src/include" -I"$gen" "$T/t.cpp" 2>"$T/err"; then
		echo "FAIL: hilo/$b does not compile as C++17:"; head -5 "$T/err"; fail=1
	fi
	if ! cc -std=c17 -Wall -Wextra -Wpedantic -Werror -fsyntax-only -I"$src/include" -I"$gen" "$T/t.c" 2>"$T/err"; then
		echo "FAIL: hilo/$b does not compile alone as C17:"; head -5 "$T/err"; fail=1
	fi
	grep -q '__cplusplus' "$h" || [ "$b" = export.h ] || { echo "FAIL: hilo/$b has no extern \"C\" block"; fail=1; }
	n=$((n + 1))
done
[ $n -gt 0 ] || { echo "FAIL: no headers in $src/include/hilo"; exit 1; }
[ $fail = 0 ] || exit 1
echo "$n public headers compile alone as C17 and C++17"
