#!/bin/sh
# The README's examples work as written: the C library example (the first
# ```c block) compiles against this build with -Wall -Wextra -Werror, runs a
# pass on a module and prints it, and reports bad input with a located
# diagnostic and exit 1; every ```sh block after the first (pto-opt, the
# install and link commands, pip) runs as written; the first ```python
# block and the python3 -c line run. (The jax blocks run in the XLA tier,
# tests/xla/models/run.py.)
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

# Every ```sh block but the first runs as written, as one `sh -e` script,
# in a copy of the checkout whose build/ is this build and where prog.c is
# the C example above, with a scratch HOME (the install commands write into
# ~/.local and ~/venv), pip offline and no HILO_LIBRARY. The first block
# (make demo, make test) is the suite and the demo themselves: not run here.
co=$T/co
mkdir -p "$co" "$T/home"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	(cd "$src" && git ls-files -co --exclude-standard -z | grep -zv '^build' |
		xargs -0 cp --parents -t "$co") || bad "cannot copy the checkout"
else
	(cd "$src" && tar --exclude=./build --exclude='./build-*' -cf - .) | (cd "$co" && tar xf -)
fi
rm -rf "$co/build"
ln -s "$build" "$co/build"
cp "$T/prog.c" "$co/prog.c"
awk -v dir="$T" '/^ *```sh$/ {n++; on = 1; f = sprintf("%s/block%d.sh", dir, n); printf "" >f; next}
     on && /^ *```$/ {on = 0; close(f); next}
     on {sub(/^  /, ""); print >>f}' "$src/README.md"
nblocks=$(ls "$T"/block*.sh 2>/dev/null | wc -l)
[ "$nblocks" -ge 4 ] || bad "README.md: $nblocks \`\`\`sh blocks, expected the make, pto-opt, library and Python ones"
# block 1 is exactly make demo and make test: `make test` is this suite and
# demo.examples runs `make demo`'s script on this build
if [ "$(grep -o '^make [a-z]*' "$T/block1.sh" | tr '\n' ' ')" = "make demo make test " ]; then
	echo "readme: not run here: block 1 (make demo: see demo.examples; make test: this suite)"
else
	bad "README.md: the first \`\`\`sh block is not just make demo and make test"
fi
k=2
while [ -f "$T/block$k.sh" ]; do
	if (cd "$co" && env -u HILO_LIBRARY -u PKG_CONFIG_PATH -u PYTHONPATH -u VIRTUAL_ENV HOME="$T/home" \
		PIP_NO_INDEX=1 PIP_DISABLE_PIP_VERSION_CHECK=1 sh -e "$T/block$k.sh") >"$T/out$k" 2>"$T/err$k"; then
		ok
	else
		bad "README \`\`\`sh block $k failed:"; sed 's/^/  | /' "$T/block$k.sh"; cat "$T/out$k" "$T/err$k"
	fi
	k=$((k + 1))
done
# what the blocks print: pto-opt's output, the Python package's version and
# the library it loaded (from ~/.local, then its bundled copy)
grep -q . "$T/out2" || bad "the pto-opt example printed nothing"
ver=$(grep -E '^#define HILO_VERSION_(MAJOR|MINOR|PATCH) ' "$src/include/hilo/version.h" |
	awk '{printf "%s%s", sep, $3; sep="."}')
for want in "$T/home/.local/lib/libhilo.so" "$T/home/venv/lib/python3.*/site-packages/hilo/libhilo.so"; do
	grep -qx "$want" "$T/out4" || bad "the Python block did not load $want"
done
[ -n "$ver" ] && grep -qx "$ver" "$T/out4" || bad "the Python block did not print the version $ver"
[ -s "$co/out.hlo" ] && grep -q '^HloModule' "$co/out.hlo" || bad "the library block wrote no module"
[ -f "$co/python/pyproject.toml" ] && [ ! -e "$co/python/build" ] && ! ls -d "$co"/python/*.egg-info >/dev/null 2>&1 ||
	bad "pip left build/ or egg-info in python/"

# the Python examples: the first ```python block (numpy: Debian's python3)
# and the one-line python3 -c command, in the checkout as the README says
awk '/^```python$/ {n++; on = n == 1; next} on && /^```$/ {exit} on {print}' "$src/README.md" >"$T/ex.py"
if [ ! -s "$T/ex.py" ]; then
	bad "no \`\`\`python block in README.md"
elif (cd "$co" && env -u HILO_LIBRARY PYTHONPATH=python /usr/bin/python3 "$T/ex.py") >"$T/py.out" 2>"$T/py.err"; then
	grep -q 'HloModule' "$T/py.out" && ok || bad "the README's Python example printed no module"
else
	bad "the README's Python example failed"; cat "$T/py.err"
fi
line=$(grep -o "^\`python3 -c '[^\`]*'\`" "$src/README.md" | tr -d '\`')
if [ -z "$line" ]; then
	bad "no python3 -c example in README.md"
elif (cd "$co" && env -u HILO_LIBRARY PYTHONPATH=python sh -c "$line") >"$T/pyc.out" 2>"$T/pyc.err"; then
	grep -q "'pass'" "$T/pyc.out" && ok || bad "'$line' printed no stats"
else
	bad "'$line' failed"; cat "$T/pyc.err"
fi
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
