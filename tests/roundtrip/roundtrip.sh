#!/bin/sh
# Corpus round-trip checks (SPEC section 2):
#   exact   FILE...  hilo-opt FILE (no passes, style auto) == FILE, byte for byte
#   exactpb FILE...  the same through the binary proto (FILE -> .pb -> text)
#   styles  FILE...  FILE -> long -> default == FILE -> default, and == FILE
#                    for files XLA printed in the default style
#   pairs   FILE...  X.input.hlo prints exactly as X.expected.hlo (XLA's
#                    normalising cases: inline operands, %x#i, inferred shapes)
#   parse   FILE...  parses and verifies (with --split-input-file); files that
#                    use a construct hilo does not support are listed in
#                    tests/roundtrip/unsupported.txt and must fail with a
#                    located error instead
# Exit 0 all good, 1 any failure, 77 corpus folder missing (ctest: skipped).
set -u
opt=$1; mode=$2; shift 2
[ $# -gt 0 ] && [ -e "$1" ] || { echo "corpus not found: skipped"; exit 77; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
here=$(dirname "$0")
for f in "$@"; do
  case $mode in
  exact)
    if "$opt" "$f" >"$tmp/out" 2>"$tmp/err" && cmp -s "$f" "$tmp/out"; then pass=$((pass+1))
    else fail=$((fail+1)); echo "FAIL exact: $f"; head -3 "$tmp/err"; diff "$f" "$tmp/out" | head -5; fi ;;
  exactpb)
    if "$opt" "$f" -o "$tmp/x.pb" 2>"$tmp/err" && "$opt" "$tmp/x.pb" >"$tmp/out" 2>>"$tmp/err" &&
       cmp -s "$f" "$tmp/out"; then pass=$((pass+1))
    else fail=$((fail+1)); echo "FAIL exactpb: $f"; head -3 "$tmp/err"; diff "$f" "$tmp/out" | head -5; fi ;;
  styles)
    ok=1
    "$opt" "$f" --print-style=default >"$tmp/def" 2>/dev/null || ok=0
    "$opt" "$f" --print-style=long 2>/dev/null | "$opt" - --print-style=default >"$tmp/ld" 2>/dev/null || ok=0
    cmp -s "$tmp/def" "$tmp/ld" || ok=0
    # files with '%' names and no operand shapes are XLA's default style
    if ! grep -qE '(\]|\}|\)) %[A-Za-z_]' "$f" && grep -q '^ *%\|^ *ROOT %' "$f"; then
      cmp -s "$tmp/def" "$f" || ok=0
    fi
    if [ $ok = 1 ]; then pass=$((pass+1)); else fail=$((fail+1)); echo "FAIL styles: $f"; fi ;;
  pairs)
    e=${f%.input.hlo}.expected.hlo
    if "$opt" "$f" >"$tmp/out" 2>"$tmp/err" && cmp -s "$e" "$tmp/out"; then pass=$((pass+1))
    else fail=$((fail+1)); echo "FAIL pairs: $f"; head -3 "$tmp/err"; diff "$e" "$tmp/out" | head -5; fi ;;
  parse)
    base=$(basename "$f")
    if grep -qxF "$base" "$here/unsupported.txt"; then
      if "$opt" --split-input-file "$f" >/dev/null 2>"$tmp/err"; then
        fail=$((fail+1)); echo "FAIL: $f is listed unsupported but now parses (update unsupported.txt)"
      elif grep -qE '^[^:]+:[0-9]+:[0-9]+: error: ' "$tmp/err"; then pass=$((pass+1))
      else fail=$((fail+1)); echo "FAIL: $f: no located error"; head -2 "$tmp/err"; fi
    elif "$opt" --split-input-file "$f" >/dev/null 2>"$tmp/err"; then pass=$((pass+1))
    else fail=$((fail+1)); echo "FAIL parse: $f"; head -2 "$tmp/err"; fi ;;
  esac
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
