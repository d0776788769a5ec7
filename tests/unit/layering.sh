#!/bin/sh
# The library's layers point down only (issue 29; docs/architecture.md).
# Reads the object files of src/ with nm: an edge X -> Y when an object in
# folder src/X has an undefined symbol that an object in src/Y defines.
# Fails when
#  - an edge goes up or sideways: each top folder has a rank, and X -> Y
#    needs rank(Y) < rank(X) (pto may use support only);
#  - the folders (subfolders counted apart: formats/text, formats/proto,
#    transforms/analyses, ...) form a cycle;
#  - a folder of src/ has no rank (a new folder takes its place here).
# Usage: layering.sh OBJECT_LIST SOURCE_DIR
#   OBJECT_LIST: the library's object files, one a line (CMake writes it:
#   hilo_objects.txt); an object's folder is its path below
#   "<target>_obj.dir/src/" (CMake mirrors the source tree), objects outside src/ (the
#   generated protobuf code, the test passes) are not part of the graph.
set -u
list=${1:?usage: layering.sh OBJECT_LIST SOURCE_DIR}
src=${2:?usage: layering.sh OBJECT_LIST SOURCE_DIR}
[ -f "$list" ] || { echo "FAIL: $list missing"; exit 1; }
T=${TMPDIR:-/tmp}/layering.$$
mkdir -p "$T" || exit 1
trap 'rm -rf "$T"' EXIT

# rank of each top folder of src/: an edge may only go to a lower rank
cat >"$T/ranks" <<'EOF'
support 0
pto 1
ir 1
formats 2
eval 2
pass 3
transforms 4
check 4
pipeline 5
viz 6
api 7
EOF

grep '_obj\.dir/src/' "$list" | sort >"$T/list"
n=$(wc -l <"$T/list")
[ "$n" -gt 0 ] || { echo "FAIL: no object files of src/ in $list"; exit 1; }
# every folder of src/ with C files has objects in the list
for d in $(cd "$src/src" && find . -name '*.c' | sed 's#^\./##; s#/[^/]*$##' | sort -u); do
	grep -q "_obj\.dir/src/$d/[^/]*\.o$" "$T/list" || { echo "FAIL: no objects of src/$d in $list"; exit 1; }
done
while read -r o; do
	[ -f "$o" ] || { echo "FAIL: $o missing (build first)"; exit 1; }
done <"$T/list"
# "D folder symbol" for each definition, "U folder symbol" for each use
# (one nm over all objects; -A names the object on each line)
xargs nm -P -A <"$T/list" | awk '{
		o = $1; sub(/:$/, "", o); sub(/.*_obj\.dir\/src\//, "", o); sub(/\/[^\/]*$/, "", o)
		if ($3 ~ /^[TDBRGSVWCI]$/) print "D", o, $2
		else if ($3 == "U") print "U", o, $2 }' >"$T/syms"
# "from to symbol" for each use of a symbol defined in another folder
awk '$1 == "D" { def[$3] = $2; next }
	{ use[++n] = $2 " " $3 }
	END { for (k = 1; k <= n; k++) { split(use[k], a, " ")
		if ((a[2] in def) && def[a[2]] != a[1]) print a[1], def[a[2]], a[2] } }' \
	"$T/syms" | sort -u >"$T/edges"

fail=0
# every top folder has a rank
for d in $(cut -d' ' -f2 "$T/syms" | cut -d/ -f1 | sort -u); do
	grep -q "^$d " "$T/ranks" || { echo "FAIL: src/$d has no layer rank (tests/unit/layering.sh)"; fail=1; }
done
# no edge up or sideways
awk 'NR == FNR { rank[$1] = $2; next }
	{ split($1, f, "/"); split($2, t, "/"); a = f[1]; b = t[1]
	  if (a == b) next
	  bad = !(a in rank) || !(b in rank) || rank[b] >= rank[a] || (a == "pto" && b != "support")
	  if (bad) { printf "FAIL: upward edge src/%s -> src/%s (%s)\n", $1, $2, $3; n++ } }
	END { exit n > 0 }' "$T/ranks" "$T/edges" || fail=1
# no cycle among the folders, subfolders counted apart
cut -d' ' -f1,2 "$T/edges" | sort -u >"$T/pairs"
if ! tsort "$T/pairs" >"$T/order" 2>"$T/tsort.err"; then
	echo "FAIL: folder cycle:"; sed 's/^/  /' "$T/tsort.err"
	fail=1
fi
[ $fail = 0 ] || exit 1
echo "$n objects, $(wc -l <"$T/pairs") folder edges, $(wc -l <"$T/edges") symbol uses across folders: no upward edge, no cycle"
