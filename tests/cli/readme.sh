#!/bin/sh
# The README's examples work as written: the C library example (the first
# ```c block) compiles against this build with -Wall -Wextra -Werror, runs a
# pass on a module and prints it, and reports bad input with a located
# diagnostic and exit 1; the pto-opt example line runs and exits 0.
# Usage: readme.sh BUILD_DIR SOURCE_DIR CC
set -u
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
cc=$3
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
pass=0
fail=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

awk '/^```c$/ {on = 1; next} on && /^```$/ {exit} on {print}' "$src/README.md" >"$T/prog.c"
if [ ! -s "$T/prog.c" ]; then
	bad "no \`\`\`c block in README.md"
elif "$cc" -std=c17 -Wall -Wextra -Werror -I"$src/include" -I"$build/include" "$T/prog.c" \
	"$build/libhilo.a" -lprotobuf-c -lm -o "$T/prog" 2>"$T/cc.err"; then
	ok
	in=$src/tests/lit/slice-of-concat-optimizer/ds_constant_index.hlo
	if "$T/prog" "$in" >"$T/out" 2>"$T/err"; then
		# the pass rewrote the module: hilo-opt running it gives the same text
		"$build/hilo-opt" "$in" --passes=slice-of-concat-optimizer >"$T/want" 2>/dev/null
		if cmp -s "$T/want" "$T/out" && ! cmp -s "$in" "$T/out"; then ok
		else bad "README example output differs from hilo-opt --passes=slice-of-concat-optimizer"; fi
	else
		bad "README example failed on $in"; cat "$T/err"
	fi
	printf 'HloModule m\nENTRY e {\n  ROOT p = f32[] parameter(0), bogus\n}\n' >"$T/bad.hlo"
	"$T/prog" "$T/bad.hlo" >"$T/out" 2>"$T/err"
	if [ $? -eq 1 ] && [ ! -s "$T/out" ] && grep -q "^$T/bad.hlo:3:[0-9]*: error: " "$T/err"; then ok
	else bad "README example on a bad module: no located error and exit 1"; cat "$T/err"; fi
	"$T/prog" "$T/missing.hlo" >"$T/out" 2>"$T/err"
	if [ $? -eq 1 ] && grep -q "^$T/missing.hlo: error: cannot open" "$T/err"; then ok
	else bad "README example on a missing file"; cat "$T/err"; fi
else
	bad "README example does not compile"; cat "$T/cc.err"
fi

# the pto-opt example, as written (build/ is this build)
line=$(grep -m 1 '^ *build/pto-opt ' "$src/README.md" | sed 's/^ *//')
if [ -z "$line" ]; then
	bad "no pto-opt example in README.md"
else
	(cd "$src" && eval "$(echo "$line" | sed "s|^build/|$build/|")") >"$T/out" 2>"$T/err" && [ -s "$T/out" ] && ok ||
		{ bad "README example '$line' failed"; cat "$T/err"; }
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
