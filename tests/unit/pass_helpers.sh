#!/bin/sh
# Shared pass helpers live in one place (issue 19, item 5). Fails when a
# private copy of one reappears anywhere in src/ (or tests/lib/) outside its home:
#  - boundary-marker stripping (hilo_pu_strip_boundary_markers) and the
#    control-edge relay (hilo_pu_relay_control): src/transforms/pass_util.c;
#  - call-site counting (hilo_pu_count_call_sites): src/transforms/pass_util.c;
#  - the boundary-marker predicates (a comparison with a
#    "NeuronBoundaryMarker-..." target): src/ir/attrs.c;
#  - the replica-group parser (hilo_replica_groups_parse; a function named
#    like a groups parser/reader, or scanning the iota form's "<=" in the
#    passes, the evaluator, the checker or the views): src/ir/replica_groups.c;
#  - side effects through called computations (hilo_instr_has_side_effect_deep,
#    hilo_comp_has_side_effect; a function named like a computation's or
#    instruction's side-effect test): src/ir/effects.c (the shallow
#    hilo_instr_has_side_effect lives in src/ir/ir.c);
#  - walking state in the instructions' scratch fields (->mark, ->aux) in
#    a pass: a pass keeps it in its run's scratch memory
#    (hilo_pass_scratch, include/hilo/pass.h; home src/pass/run_state.c,
#    where the helpers are defined; the fields stay for the IR's own use).
# Definitions are matched (a line starting a function, without ';': a
# declaration in a header is not a copy). A line may opt out with the comment "not a private helper copy".
# Usage: pass_helpers.sh SOURCE_DIR
set -u
src=$1
[ -d "$src/src/transforms" ] || { echo "FAIL: $src/src/transforms missing"; exit 1; }
files=$(find "$src/src" "$src/tests/lib" -name '*.[ch]' | sort)
fail=0
# rule HOME REGEX WHAT [AREA]: REGEX must match only in HOME (and must
# match there, so a renamed home is noticed instead of silently passing);
# AREA (an ERE over paths) limits where a copy is looked for. HOME may be
# an ERE alternation of paths (a|b).
rule() {
	home=$1 re=$2 what=$3 area=${4:-.}
	hits=$(grep -nE "$re" $files /dev/null | grep -v 'not a private helper copy' |
		grep -vE '^[^:]*:[0-9]+:\s*(\*|/\*|//)' || true)
	bad=$(printf '%s\n' "$hits" | grep -vE "^$src/($home):" | grep -E "^$src/($area)" |
		grep -v '^$' || true)
	if [ -n "$bad" ]; then
		printf '%s\n' "$bad" | sed "s#^$src/##; s#^#FAIL: private $what (its home is $home): #"
		fail=1
	fi
	if ! printf '%s\n' "$hits" | grep -qE "^$src/($home):"; then
		echo "FAIL: $what not found in its home $home"
		fail=1
	fi
}
rule src/transforms/pass_util.c '^[a-z].*[a-z_]*strip[a-z_]*markers?[a-z_]*\([^;]*$' 'boundary-marker stripping'
rule src/transforms/pass_util.c '^[a-z].*[a-z_]*relay_control[a-z_]*\([^;]*$' 'control-edge relay'
rule src/transforms/pass_util.c '^[a-z].*[a-z_]*count_call_sites[a-z_]*\([^;]*$' 'call-site counter'
rule src/ir/attrs.c 'strn?cmp\([^;]*"NeuronBoundaryMarker' 'boundary-marker predicate'
rule src/ir/replica_groups.c \
	'^[a-z].*[a-z_]*(groups?[a-z_]*(parse|read|scan)|(parse|read|scan)[a-z_]*groups?)[a-z_]*\([^;]*$' \
	'replica-group parser'
rule src/ir/replica_groups.c "\"<=\"|'<'.*'='" 'iota replica-group reader' \
	'src/(transforms|pass|pipeline|eval|check|viz)/|tests/lib/|src/ir/replica_groups.c'
rule 'src/ir/effects.c|src/ir/ir.c' \
	'^[a-z].*[a-z_]*(comp|instr|body|callee|cond|call)[a-z_]*effect[a-z_]*\([^;]*$' \
	'side-effect test'
rule src/pass/run_state.c '(->(mark|aux)\b)|hilo_pass_scratch\(hilo_pass_ctx' \
	'instruction scratch field in a pass' 'src/(transforms|pass|pipeline)/|tests/lib/'
[ $fail = 0 ] || exit 1
echo "$(printf '%s\n' $files | wc -l) files: each shared pass helper defined once"
