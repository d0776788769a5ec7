#!/bin/sh
# Shapes are interned (include/hilo/ir.h, "Shapes are immutable and
# interned"): outside src/ir/shape.c, the home of the table and its
# constructors, nothing builds or edits a struct hilo_shape by hand. Fails
# on, in src/, tools/ and python/:
#  - an allocation of a shape: sizeof(hilo_shape), or a `hilo_shape *x`
#    initialised from an allocation call;
#  - a shape object not behind a pointer: a declaration `hilo_shape x`
#    (a stack copy or temporary view), a compound literal (hilo_shape){..};
#  - a write to a shape's fields: `x->dims = `, `x->dims[k] = `, `x->rank++`,
#    memcpy(x->dims, ...) and the like, for dims, dyn, rank, layout, ntuple,
#    elems, buffer, type, hash and table, where x is a name the same file
#    declares as `hilo_shape *` (and as no other type), or `...->shape->`,
#    or a shape's layout (`->layout->minor_to_major[k] = `).
# A line may opt out with the comment "not a shape" (a name the file also
# uses for another type). Usage: shape_build.sh SOURCE_DIR
set -u
src=$1
[ -f "$src/src/ir/shape.c" ] || { echo "FAIL: $src/src/ir/shape.c missing"; exit 1; }
files=$(find "$src/src" "$src/tools" "$src/python" -name '*.[ch]' 2>/dev/null |
	grep -v '/src/ir/shape\.c$' | sort)
fields='dims|dyn|rank|layout|ntuple|elems|buffer|type|hash|table'
write='(\[[^]]*\])? *(=[^=]|\+\+|--|\+=|-=|\*=)'
bad=""
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
for f in $files; do
	decl='[A-Za-z_][A-Za-z_0-9]* \*+(const )?[A-Za-z_][A-Za-z_0-9]*'
	grep -oE "$decl" "$f" | sed -E 's/^([A-Za-z_0-9]+) .*[* ]([A-Za-z_0-9]+)$/\1 \2/' | sort -u >"$tmp"
	names=$(awk '$1 == "hilo_shape" { s[$2] = 1 } $1 != "hilo_shape" && $1 != "const" &&
		$1 != "return" { o[$2] = 1 } END { for (n in s) if (!(n in o)) print n }' "$tmp" |
		sort | paste -sd'|' -)
	pat='sizeof *\( *(struct )?hilo_shape *\)|\( *(const )?hilo_shape *\) *\{'
	pat="$pat|(^|[^A-Za-z_0-9*])hilo_shape +[A-Za-z_][A-Za-z_0-9]* *(=|;|\[|,)"
	pat="$pat|hilo_shape \*[A-Za-z_][A-Za-z_0-9]* *= *[A-Za-z_]*alloc[A-Za-z_]* *\("
	pat="$pat|->shape->($fields)$write|->layout->(n|minor_to_major|tail)$write"
	pat="$pat|memcpy\( *[A-Za-z_>.-]*shape->($fields)"
	if [ -n "$names" ]; then
		pat="$pat|(^|[^A-Za-z_0-9.>])($names)->($fields)$write"
		pat="$pat|memcpy\( *($names)->($fields)"
	fi
	hits=$(grep -nE "$pat" "$f" | grep -v 'not a shape' | grep -vE '^[0-9]+:\s*(\*|/\*|//)' || true)
	[ -n "$hits" ] && bad="$bad$(printf '%s\n' "$hits" | sed "s|^|${f#$src/}:|")
"
done
n=$(printf '%s\n' $files | wc -l)
if [ -n "$bad" ]; then
	printf '%s' "$bad" | sed 's/^/FAIL: hand-built shape: /'
	exit 1
fi
echo "$n files: no hand-built shapes"
