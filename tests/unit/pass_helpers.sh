#!/bin/sh
# Shared pass helpers live in one place (issue 19, item 5). Fails when a
# private copy of one reappears anywhere in src/ outside its home:
#  - boundary-marker stripping (hilo_pu_strip_boundary_markers) and the
#    control-edge relay (hilo_pu_relay_control): src/passes/pass_util.c;
#  - call-site counting (hilo_pu_count_call_sites): src/passes/pass_util.c;
#  - the boundary-marker predicates (a comparison with a
#    "NeuronBoundaryMarker-..." target): src/ir/attrs.c.
# Definitions are matched (a line starting a function, without ';': a
# declaration in a header is not a copy). A line may opt out with the comment "not a private helper copy".
# Usage: pass_helpers.sh SOURCE_DIR
set -u
src=$1
[ -d "$src/src/passes" ] || { echo "FAIL: $src/src/passes missing"; exit 1; }
files=$(find "$src/src" -name '*.[ch]' | sort)
fail=0
# rule HOME REGEX WHAT: REGEX must match only in HOME (and must match there,
# so a renamed home is noticed instead of silently passing)
rule() {
	home=$1 re=$2 what=$3
	hits=$(grep -nE "$re" $files /dev/null | grep -v 'not a private helper copy' |
		grep -vE '^[^:]*:[0-9]+:\s*(\*|/\*|//)' || true)
	bad=$(printf '%s\n' "$hits" | grep -v "^$src/$home:" | grep -v '^$' || true)
	if [ -n "$bad" ]; then
		printf '%s\n' "$bad" | sed "s|^$src/||; s|^|FAIL: private $what (its home is $home): |"
		fail=1
	fi
	if ! printf '%s\n' "$hits" | grep -q "^$src/$home:"; then
		echo "FAIL: $what not found in its home $home"
		fail=1
	fi
}
rule src/passes/pass_util.c '^[a-z].*[a-z_]*strip[a-z_]*markers?[a-z_]*\([^;]*$' 'boundary-marker stripping'
rule src/passes/pass_util.c '^[a-z].*[a-z_]*relay_control[a-z_]*\([^;]*$' 'control-edge relay'
rule src/passes/pass_util.c '^[a-z].*[a-z_]*count_call_sites[a-z_]*\([^;]*$' 'call-site counter'
rule src/ir/attrs.c 'strn?cmp\([^;]*"NeuronBoundaryMarker' 'boundary-marker predicate'
[ $fail = 0 ] || exit 1
echo "$(printf '%s\n' $files | wc -l) files: each shared pass helper defined once"
