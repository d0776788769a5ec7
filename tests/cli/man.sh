#!/bin/sh
# The man pages (man/*.1) are kept in step with the tools: every option a
# tool's --help mentions is documented in its man page, every option the
# man page documents is one the tool's source handles, and each page
# renders without groff warnings (when groff is installed).
# Usage: man.sh BUILD_DIR SOURCE_DIR
set -u
build=$1
src=$2
fail=0
pass=0
opts() { grep -o -- '--[a-z][a-z-]*' | sed 's/-*$//' | sort -u; }
for t in hilo-opt hilo-run pto-opt hilo-bench; do
	page=$src/man/$t.1
	if [ ! -f "$page" ]; then
		echo "FAIL: no man page $page"; fail=$((fail + 1)); continue
	fi
	"$build/$t" --help 2>&1 | opts >"$build/.help_$t"
	sed 's/\\-/-/g; s/\\f[BIR]//g' "$page" | opts >"$build/.man_$t"
	missing=$(comm -23 "$build/.help_$t" "$build/.man_$t")
	if [ -n "$missing" ]; then
		echo "FAIL: $t --help mentions options its man page lacks:" $missing; fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
	# every documented option appears in the tool's source
	unknown=""
	for o in $(cat "$build/.man_$t"); do
		case $o in --DHILO*) continue ;; esac
		# a getopt_long table entry {"name", ...} or a literal "--name"
		grep -q -e "{\"${o#--}\"," -e "\"$o" "$src/tools/$t.c" || unknown="$unknown $o"
	done
	if [ -n "$unknown" ]; then
		echo "FAIL: $t.1 documents options $t does not handle:$unknown"; fail=$((fail + 1))
	else
		pass=$((pass + 1))
	fi
	if command -v groff >/dev/null 2>&1; then
		w=$(groff -man -Tutf8 -ww -z "$page" 2>&1)
		if [ -n "$w" ]; then
			echo "FAIL: groff warns on $t.1: $w"; fail=$((fail + 1))
		else
			pass=$((pass + 1))
		fi
	fi
	rm -f "$build/.help_$t" "$build/.man_$t"
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
