#!/bin/sh
# Pass plugins end to end (hilo/plugin.h, docs/plugins.md): installs hilo
# into a temporary prefix, builds the example plugin (tests/install/plugin/
# example.c, which docs/plugins.md quotes whole) out of tree against the
# installed headers and library - with pkg-config, as C++17 and through
# find_package - and runs the installed hilo-opt with it:
#  - --list-passes shows both plugin passes, marked with the plugin's path;
#  - the sound times-two-to-add passes --check-equivalence (exit 0), the
#    wrong add-to-subtract fails it (exit 4, the pass named), as built-in
#    passes are judged; a pipeline mixing plugin and built-in passes runs,
#    whatever the order of --passes and --load-pass-plugin;
#  - a missing file, a shared object that is no plugin, a missing
#    hilo_plugin_init, a version mismatch (init never runs), init returning
#    false, a name taken by a built-in pass or by another plugin: each
#    "hilo-opt: error: cannot load pass plugin ..." and exit 1; an empty
#    --load-pass-plugin value exit 2.
# The plugins are built without sanitizer flags: under ASan the installed
# hilo-opt brings the runtime, so this runs in sanitizer builds too.
# Usage: plugin.sh SOURCE_DIR BUILD_DIR
name=plugin
. "$(dirname "$0")/prefix.sh"
[ -e "$prefix/include/hilo/plugin.h" ] || fail "hilo/plugin.h is not installed"
dir=$src/tests/install/plugin
opt=$prefix/bin/hilo-opt
input=$dir/times_two.hlo

# docs/plugins.md quotes example.c whole, in its first C block
awk '/^```c$/ && !done {c = 1; next} c && /^```$/ {c = 0; done = 1} c' "$src/docs/plugins.md" >"$t/quoted.c"
cmp -s "$t/quoted.c" "$dir/example.c" || { diff "$dir/example.c" "$t/quoted.c" >&2 || true;
	fail "docs/plugins.md does not quote tests/install/plugin/example.c exactly"; }

# build the plugins (warnings are errors: the installed header is clean)
cflags="-std=c17 -Wall -Wextra -Wpedantic -Werror -shared -fPIC"
cc $cflags "$dir/example.c" $(pkg-config --cflags --libs hilo) -o "$t/example.so" 2>"$t/cc.err" ||
	{ cat "$t/cc.err"; fail "the example plugin does not build against the installed hilo"; }
for b in version noinit false builtin noversion; do
	B=$(echo "$b" | tr a-z A-Z)
	cc $cflags -DBROKEN="$B" "$dir/broken.c" $(pkg-config --cflags --libs hilo) -o "$t/$b.so" 2>"$t/cc.err" ||
		{ cat "$t/cc.err"; fail "broken plugin '$b' does not build"; }
done
if command -v g++ >/dev/null 2>&1; then
	g++ -std=c++17 -Wall -Wextra -Wpedantic -Werror -shared -fPIC -x c++ "$dir/example.c" \
		$(pkg-config --cflags --libs hilo) -o "$t/example_cxx.so" 2>"$t/cxx.err" ||
		{ cat "$t/cxx.err"; fail "the example plugin does not build as C++17"; }
fi
cmake -S "$dir" -B "$t/cm" -DCMAKE_PREFIX_PATH="$prefix" >"$t/cm.log" 2>&1 ||
	{ cat "$t/cm.log"; fail "plugin: find_package(hilo CONFIG)"; }
cmake --build "$t/cm" >"$t/cmb.log" 2>&1 || { cat "$t/cmb.log"; fail "plugin: find_package build"; }

# run NAME EXPECTED_STATUS ARGS...: hilo-opt's stdout in $t/NAME.out, stderr in $t/NAME.err
run() {
	name=$1 want=$2
	shift 2
	set +e
	"$opt" "$@" >"$t/$name.out" 2>"$t/$name.err"
	got=$?
	set -e
	[ "$got" = "$want" ] || { cat "$t/$name.err"; fail "$name: exit $got, want $want"; }
}
has() { grep -q -- "$2" "$t/$1" || { cat "$t/$1"; fail "$1: no '$2'"; }; }
lacks() { grep -q -- "$2" "$t/$1" && { cat "$t/$1"; fail "$1: unexpected '$2'"; }; return 0; }

for so in "$t/example.so" "$t/cm/example.so"; do
	run list 0 --list-passes --load-pass-plugin="$so"
	has list.out "^times-two-to-add  *(plugin $so) multiply(x, 2)"
	has list.out "^add-to-subtract  *(plugin $so) add -> subtract"
	has list.out "^dce "
done
[ -e "$t/example_cxx.so" ] && { run list_cxx 0 --load-pass-plugin="$t/example_cxx.so" --list-passes;
	has list_cxx.out "^times-two-to-add  *(plugin $t/example_cxx.so)"; }
# a name without '/' is a file of the current folder
(cd "$t" && run rel 0 --load-pass-plugin=example.so --list-passes)
has rel.out "(plugin example.so)"

# the sound pass: judged like a built-in one, and its rewrite is there
so=$t/example.so
run sound 0 "$input" --load-pass-plugin="$so" --passes=times-two-to-add --check-equivalence -o "$t/sound.hlo"
# two records: the multiply replaced by add(x, x) (proved or tested), the
# multiply left dead (proved)
has sound.err "equivalence: 2 rewrites: .* 0 skipped, 0 failed"
lacks sound.err "rewrites: 0 proved, 0 tested"
has sound.hlo "add(x, x)"
lacks sound.hlo "multiply"
# the wrong pass fails the check, named
run wrong 4 "$input" --load-pass-plugin="$so" --passes=add-to-subtract --check-equivalence
has wrong.err "equivalence check failed: pass 'add-to-subtract' changed the program's result"
has wrong.err " 1 failed"
run wrong_module 4 "$input" --load-pass-plugin="$so" --passes=add-to-subtract --check-equivalence=module
has wrong_module.err "module changed by pass add-to-subtract"
# plugin and built-in passes in one pipeline, the plugin loaded after --passes
run mixed 0 "$input" --passes=times-two-to-add,dce,cse --load-pass-plugin="$so" --check-equivalence --stats \
	--verify-each -o "$t/mixed.hlo"
has mixed.err "^  times-two-to-add .* changed"
has mixed.err "^  dce .* changed"
has mixed.err " 0 failed"
lacks mixed.hlo "broadcast"
lacks mixed.hlo "constant"
# a plugin pass's name is suggested like a built-in one's
run typo 2 "$input" --load-pass-plugin="$so" --passes=times-two-to-ad
has typo.err "unknown pass 'times-two-to-ad' (did you mean 'times-two-to-add'?)"
has typo.err "known passes:.* times-two-to-add, add-to-subtract"

# plugins that must not load: the message and exit 1, nothing run
load_err() { # NAME PLUGIN MESSAGE
	run "$1" 1 "$input" --load-pass-plugin="$2" --passes=dce
	has "$1.err" "^hilo-opt: error: cannot load pass plugin '$2': $3"
	[ ! -s "$t/$1.out" ] || fail "$1: output written"
}
load_err missing "$t/missing.so" "No such file or directory"
load_err dir "$t" "is a directory"
load_err notelf "$input" ".*invalid ELF header\|.*file too short\|.*not an ELF"
load_err noversion "$t/noversion.so" "no symbol hilo_plugin_api_version: not a hilo pass plugin"
load_err noinit "$t/noinit.so" "no symbol hilo_plugin_init"
load_err version "$t/version.so" "built for plugin API version [0-9]*, this hilo has version [0-9]*: rebuild"
lacks version.err "ran despite"
load_err false "$t/false.so" "hilo_plugin_init returned false: no accelerator found"
load_err builtin "$t/builtin.so" "pass 'dce' has the name of a built-in pass"
cp "$so" "$t/again.so"
run clash 1 "$input" --load-pass-plugin="$so" --load-pass-plugin="$t/again.so" --passes=dce
has clash.err "^hilo-opt: error: cannot load pass plugin '$t/again.so': pass 'times-two-to-add' is already registered by plugin '$so'"
run empty 2 --load-pass-plugin= --list-passes
has empty.err "^hilo-opt: error: invalid value '' for --load-pass-plugin"

echo "plugin: ok (built with pkg-config, C++17 and find_package; listed, judged, mixed; 10 load errors)"
