#!/bin/sh
# Installs hilo into a temporary prefix and uses it from outside the tree:
#  - the installed files (tools, libraries, headers, hilo.pc, CMake package,
#    man pages) are there, and every public header compiles on its own;
#  - the shared library exports exactly the functions the public headers
#    declare (no evaluator/lexer internals, no protobuf-c);
#  - an out-of-tree consumer (parse, run a pass by name, print) built with
#    pkg-config + shared, pkg-config + static, and find_package(hilo CONFIG),
#    a C++17 consumer (consumer.cpp, every public header, g++ -Werror),
#    and from a parent project with add_subdirectory(hilo);
#  - an out-of-tree judge (tests/install/judge) that rewrites a module with
#    the public IR functions only and checks the validator's verdicts
#    (sound rewrites proved or tested, unsound ones failed);
#  (the Python package's pip installs: pip.sh)
# Usage: run.sh SOURCE_DIR BUILD_DIR
name=install
. "$(dirname "$0")/prefix.sh"

for f in bin/hilo-opt bin/hilo-run bin/pto-opt bin/hilo-bench include/hilo/ir.h \
         include/hilo/pass.h include/hilo/passes.def include/hilo/capi.h include/hilo/version.h; do
	[ -e "$prefix/$f" ] || fail "missing $f"
done
for f in libhilo.a libhilo.so pkgconfig/hilo.pc pkgconfig/hilo-static.pc cmake/hilo/hiloConfig.cmake \
         cmake/hilo/hiloConfigVersion.cmake cmake/hilo/hiloTargets.cmake; do
	[ -e "$libdir/$f" ] || fail "missing lib/$f"
done
major=$(sed -n 's/^#define HILO_VERSION_MAJOR \([0-9]*\)$/\1/p' "$src/include/hilo/version.h")
soname=$(objdump -p "$libdir/libhilo.so" | awk '/SONAME/ {print $2}')
[ "$soname" = "libhilo.so.$major" ] || fail "SONAME is '$soname', want libhilo.so.$major"
for man in hilo-opt hilo-run pto-opt hilo-bench; do
	if [ -d "$src/man" ]; then
		[ -e "$prefix/share/man/man1/$man.1" ] || fail "missing man page $man.1"
	fi
done

# every public header stands alone (nothing from src/)
grep -n '\.\./\|src/' "$prefix"/include/hilo/*.h "$prefix"/include/hilo/*.def | grep '#include' && fail "a public header reaches into the source tree"
for h in "$prefix"/include/hilo/*.h; do
	printf '#include <hilo/%s>\nint main(void) { return 0; }\n' "$(basename "$h")" >"$t/h.c"
	cc -std=c17 -Wall -Wextra -Wpedantic -Werror -I"$prefix/include" -c "$t/h.c" -o "$t/h.o" ||
		fail "$(basename "$h") does not compile on its own"
done

# exported symbols == functions declared in the public headers
nm -D --defined-only "$libdir/libhilo.so" | awk '$2 ~ /[TW]/ {sub(/@.*/, "", $3); print $3}' | sort -u >"$t/exported"
grep -h -o '^[A-Za-z_][A-Za-z0-9_ *]*[ *]hilo_[a-z0-9_]*(' "$prefix"/include/hilo/*.h | grep -v '^typedef\|^static' |
	grep -o 'hilo_[a-z0-9_]*(' | tr -d '(' | sort -u >"$t/declared"
if ! cmp -s "$t/exported" "$t/declared"; then
	echo "exported but not declared:"; comm -23 "$t/exported" "$t/declared"
	echo "declared but not exported:"; comm -13 "$t/exported" "$t/declared"
	fail "the shared library's exports differ from the public headers"
fi
grep -q protobuf "$t/exported" && fail "protobuf-c symbols exported"
echo "install: $(wc -l <"$t/exported") exported symbols, all declared in include/hilo"

input=$src/examples/dus_chain.hlo
check_run() { # name binary
	"$2" "$input" neuron_repeated_dus_to_concat >"$t/$1.out" 2>"$t/$1.err" || { cat "$t/$1.err"; fail "$1 failed"; }
	grep -q concatenate "$t/$1.out" || fail "$1: the pass did not run"
	"$2" "$input" no-such-pass >/dev/null 2>"$t/$1.err2" && fail "$1 accepted an unknown pass"
	grep -q "unknown pass" "$t/$1.err2" || fail "$1: no message for an unknown pass"
}
pkg-config --exists hilo || fail "pkg-config does not find hilo"
[ "$(pkg-config --modversion hilo)" = "$(grep -E '^#define HILO_VERSION_(MAJOR|MINOR|PATCH) ' "$src/include/hilo/version.h" | awk '{printf "%s%s", sep, $3; sep="."}')" ] ||
	fail "pkg-config version differs from version.h"
pkg-config --static --libs hilo | grep -q -- -lprotobuf-c || fail "hilo.pc lacks Libs.private"
# no -Wl,-rpath here: hilo.pc carries it, so the program finds the
# installed library without LD_LIBRARY_PATH or ldconfig
cc -std=c17 "$src/tests/install/consumer/consumer.c" $(pkg-config --cflags --libs hilo) -o "$t/pc_shared"
ldd "$t/pc_shared" | grep -q "libhilo.so.$major => $libdir/" || fail "pkg-config shared consumer does not find the installed libhilo.so"
(unset LD_LIBRARY_PATH; check_run pc_shared "$t/pc_shared")
# a C++ consumer: every installed public header from C++17 (g++ -Werror),
# linked against the installed libhilo.so, run like the C one
for h in "$prefix"/include/hilo/*.h; do
	grep -q "^#include <hilo/$(basename "$h")>$" "$src/tests/install/consumer/consumer.cpp" ||
		fail "consumer.cpp does not include the public header $(basename "$h")"
done
command -v g++ >/dev/null 2>&1 || fail "g++ missing (make deps-debian installs it)"
g++ -std=c++17 -Wall -Wextra -Wpedantic -Werror "$src/tests/install/consumer/consumer.cpp" \
	$(pkg-config --cflags --libs hilo) -o "$t/cxx_shared" 2>"$t/cxx.err" ||
	{ cat "$t/cxx.err"; fail "the C++ consumer does not compile against the installed headers"; }
ldd "$t/cxx_shared" | grep -q "libhilo.so.$major" || fail "the C++ consumer does not use libhilo.so"
check_run cxx_shared "$t/cxx_shared"
cc -std=c17 "$src/tests/install/consumer/consumer.c" $(pkg-config --cflags --libs hilo-static) -o "$t/pc_static"
ldd "$t/pc_static" | grep -q libhilo && fail "static consumer needs libhilo.so"
check_run pc_static "$t/pc_static"

cmake -S "$src/tests/install/consumer" -B "$t/cm" -DCMAKE_PREFIX_PATH="$prefix" >"$t/cm.log" ||
	{ cat "$t/cm.log"; fail "find_package(hilo CONFIG)"; }
cmake --build "$t/cm" >"$t/cmb.log" 2>&1 || { cat "$t/cmb.log"; fail "find_package consumer build"; }
check_run cmake_shared "$t/cm/consumer_shared"
check_run cmake_static "$t/cm/consumer_static"

# the out-of-tree judge: a pass written with the public IR functions only,
# judged by the validator (docs/proof.md "Judging a pass written outside hilo")
check_judge() { # name binary
	"$2" >"$t/$1.out" 2>"$t/$1.err" || { cat "$t/$1.out" "$t/$1.err"; fail "$1: unexpected verdict"; }
	for want in "double: proved\|double: tested" "xor-or: proved\|xor-or: tested" \
	            "add-sub: failed" "literal: failed" "judge: ok"; do
		grep -q "$want" "$t/$1.out" || { cat "$t/$1.out"; fail "$1: no '$want'"; }
	done
}
# docs/proof.md quotes the judge: every line of its C blocks there is in judge.c
awk '/^## Judging a pass written outside hilo/ {s = 1; next} /^## / {s = 0}
     s && /^```c$/ {c = 1; next} c && /^```$/ {c = 0} c && NF' "$src/docs/proof.md" >"$t/quoted"
[ -s "$t/quoted" ] || fail "docs/proof.md: no judge code quoted"
while IFS= read -r line; do
	grep -qxF -- "$line" "$src/tests/install/judge/judge.c" ||
		fail "docs/proof.md quotes a line judge.c lacks: $line"
done <"$t/quoted"
cc -std=c17 -Wall -Wextra -Wpedantic -Werror "$src/tests/install/judge/judge.c" \
	$(pkg-config --cflags --libs hilo) -Wl,-rpath,"$libdir" -o "$t/judge_pc"
check_judge judge_pc "$t/judge_pc"
cmake -S "$src/tests/install/judge" -B "$t/jm" -DCMAKE_PREFIX_PATH="$prefix" >"$t/jm.log" ||
	{ cat "$t/jm.log"; fail "judge: find_package(hilo CONFIG)"; }
cmake --build "$t/jm" >"$t/jmb.log" 2>&1 || { cat "$t/jmb.log"; fail "judge: find_package build"; }
check_judge judge_shared "$t/jm/judge_shared"
check_judge judge_static "$t/jm/judge_static"
echo "install: judge: $(grep -c '^[a-z-]*: \(proved\|tested\|failed\)' "$t/judge_pc.out") cases as expected"

cmake -S "$src/tests/install/subproject" -B "$t/sub" -DHILO_SRC="$src" >"$t/sub.log" ||
	{ cat "$t/sub.log"; fail "add_subdirectory(hilo) configure"; }
cmake --build "$t/sub" --target consumer -j2 >"$t/subb.log" 2>&1 || { tail -30 "$t/subb.log"; fail "add_subdirectory(hilo) build"; }
check_run subproject "$t/sub/consumer"

echo "install: ok (pkg-config static+shared, C++, find_package, add_subdirectory, judge)"
