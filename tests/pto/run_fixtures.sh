#!/bin/sh
# usage: run_fixtures.sh PTO_OPT SHARED_DIR
# Runs the shared fixture checker; exit 77 (ctest SKIPPED) without the folder.
tool=$1 shared=$2
if [ ! -f "$shared/pto/check_fixtures.py" ] || [ ! -d "$shared/pto/fixtures" ]; then
  echo "SKIPPED: $shared/pto not found"
  exit 77
fi
command -v python3 >/dev/null 2>&1 || { echo "python3 not found"; exit 1; }
keep=$(mktemp -d) || exit 1
trap 'rm -rf "$keep"' EXIT
out=$(python3 "$shared/pto/check_fixtures.py" --tool "$tool" --fixtures "$shared/pto/fixtures" --keep-output "$keep" 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || exit 1
# every output is valid Python and reads back with pto-opt (prints back byte for byte)
nout=0
for f in "$keep"/*; do
  [ -f "$f" ] || continue
  case $f in *.reread) continue;; esac
  nout=$((nout+1))
  python3 -c 'import ast,sys; ast.parse(sys.stdin.read())' <"$f" || { echo "not valid Python: $f"; exit 1; }
  "$tool" --passes= "$f" -o "$f.reread" && cmp -s "$f" "$f.reread" || { echo "does not read back: $f"; exit 1; }
done
[ $nout -gt 0 ] || { echo "no output was kept"; exit 1; }
echo "$nout outputs parse as Python and read back"
# an empty run must not pass
echo "$out" | grep -Eq '^[1-9][0-9]* passed, 0 failed' || { echo "no fixture was checked"; exit 1; }
exit 0
