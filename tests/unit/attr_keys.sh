#!/bin/sh
# No pass (nor the evaluator, checker or viewers) names an attribute by its
# key string: they use the ids of include/hilo/attrs.def (HILO_A_*) and the
# typed accessors of hilo/ir.h. Fails on
#  - a string literal that is exactly a key of the attribute table,
#  - the key-text API (hilo_instr_attr_named, hilo_instr_set_attr_named),
#  - comparing an attribute's key text with a literal (strcmp(a->key, "..")),
# in src/transforms, src/pass, src/pipeline, src/eval, src/check, src/viz,
# tests/lib and tools/. A line may opt
# out with the comment "not an attribute key" (e.g. an instruction named
# "slice"). The readers and printers (src/formats, src/ir) turn
# key text into ids and are not checked.
# Usage: attr_keys.sh SOURCE_DIR
set -u
src=$1
def="$src/include/hilo/attrs.def"
[ -f "$def" ] || { echo "FAIL: $def missing"; exit 1; }
keys=$(sed -n 's/^A([A-Z0-9_]*, *"\([^"]*\)".*/\1/p' "$def")
[ -n "$keys" ] || { echo "FAIL: no keys read from $def"; exit 1; }
pat=$(printf '%s\n' $keys | sed 's/[.[\*^$]/\\&/g; s/.*/"&"/' | paste -sd'|' -)
files=$(find "$src/src/transforms" "$src/src/pass" "$src/src/pipeline" "$src/src/eval" "$src/src/check" \
	"$src/src/viz" "$src/tests/lib" "$src/tools" \
	-name '*.[ch]' | sort)
bad=$(grep -nE "($pat)|hilo_instr_(set_)?attr_named|strcmp\([a-z_]+->key, *\"" $files /dev/null |
	grep -v 'not an attribute key' | grep -vE '^[^:]*:[0-9]+:\s*(\*|/\*)' || true)
n=$(printf '%s\n' $files | wc -l)
if [ -n "$bad" ]; then
	printf '%s\n' "$bad" | sed "s|^$src/||; s|^|FAIL: string attribute key: |"
	exit 1
fi
echo "$n files, $(printf '%s\n' $keys | wc -l) keys: no string attribute keys"
