#!/bin/sh
# usage: run_fixtures.sh PTO_OPT SHARED_DIR
# Runs the shared fixture checker; exit 77 (ctest SKIPPED) without the folder.
tool=$1 shared=$2
if [ ! -f "$shared/pto/check_fixtures.py" ] || [ ! -d "$shared/pto/fixtures" ]; then
  echo "SKIPPED: $shared/pto not found"
  exit 77
fi
command -v python3 >/dev/null 2>&1 || { echo "python3 not found"; exit 1; }
out=$(python3 "$shared/pto/check_fixtures.py" --tool "$tool" --fixtures "$shared/pto/fixtures" 2>&1)
rc=$?
echo "$out"
[ $rc -eq 0 ] || exit 1
# an empty run must not pass
echo "$out" | grep -Eq '^[1-9][0-9]* passed, 0 failed' || { echo "no fixture was checked"; exit 1; }
exit 0
