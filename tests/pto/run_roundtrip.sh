#!/bin/sh
# usage: run_roundtrip.sh PTO_OPT DIR...
# Every DIR/*.py printed unmodified (--passes=, i.e. no pass) must equal the
# input byte for byte. Exit 77 when the first DIR does not exist.
tool=$1; shift
[ -d "$1" ] || { echo "SKIPPED: $1 not found"; exit 77; }
tmp=${TMPDIR:-/tmp}/pto_rt.$$
n=0 fail=0
for d in "$@"; do
  [ -d "$d" ] || continue
  for f in "$d"/*.py "$d"/*.txt; do
    [ -f "$f" ] || continue
    case $f in */bad/*) continue;; esac
    if ! "$tool" --passes= "$f" -o "$tmp" 2>/dev/null; then
      # fuzz seeds may be deliberately malformed; only .py inputs must parse
      case $f in *.txt) continue;; esac
      echo "FAIL (parse) $f"; fail=$((fail+1)); continue
    fi
    n=$((n+1))
    if ! cmp -s "$f" "$tmp"; then echo "FAIL (differs) $f"; fail=$((fail+1)); fi
  done
done
rm -f "$tmp"
echo "$n round-tripped, $fail failed"
[ $n -gt 0 ] && [ $fail -eq 0 ]
