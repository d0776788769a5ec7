#!/bin/sh
# Corpus round trip through the binary proto (issue 7).
#   roundtrip.sh HILO_OPT CORPUS_DIR [SUBDIR...]
# For every .hlo file under the given corpus subfolders:
#   text -> pb -> text equals text -> text, in the input's own style and
#   with --print-style=default on both sides;
#   pb -> pb is byte-stable.
# Exits 77 (ctest SKIP_RETURN_CODE) when the corpus folder is missing.
opt=$1; corpus=$2; shift 2
[ -d "$corpus" ] || { echo "corpus $corpus not found: skipped"; exit 77; }
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
n=0; fail=0; skipped=0
for sub in "$@"; do
  for f in "$corpus"/$sub/*.hlo; do
    [ -f "$f" ] || continue
    # inputs the text parser rejects are not this test's business
    if ! "$opt" "$f" > "$tmp/a.hlo" 2>/dev/null; then skipped=$((skipped+1)); continue; fi
    n=$((n+1))
    ok=1
    "$opt" "$f" --emit-proto -o "$tmp/a.pb" 2>"$tmp/err" || { ok=0; echo "FAIL write: $f"; cat "$tmp/err"; }
    if [ $ok = 1 ]; then
      "$opt" "$tmp/a.pb" > "$tmp/b.hlo" 2>"$tmp/err" || { ok=0; echo "FAIL read: $f"; cat "$tmp/err"; }
    fi
    if [ $ok = 1 ] && ! cmp -s "$tmp/a.hlo" "$tmp/b.hlo"; then
      ok=0; echo "FAIL text->pb->text differs: $f"; diff "$tmp/a.hlo" "$tmp/b.hlo" | head -6
    fi
    if [ $ok = 1 ]; then
      "$opt" "$f" --print-style=default > "$tmp/c.hlo" 2>/dev/null
      "$opt" "$tmp/a.pb" --print-style=default > "$tmp/d.hlo" 2>/dev/null
      cmp -s "$tmp/c.hlo" "$tmp/d.hlo" || { ok=0; echo "FAIL default style differs: $f"; }
    fi
    if [ $ok = 1 ]; then
      "$opt" "$tmp/a.pb" --emit-proto -o "$tmp/b.pb" 2>/dev/null &&
        cmp -s "$tmp/a.pb" "$tmp/b.pb" || { ok=0; echo "FAIL pb->pb not byte-stable: $f"; }
    fi
    [ $ok = 1 ] || fail=$((fail+1))
  done
done
echo "proto round trip: $n files, $fail failed, $skipped not parseable as text"
[ $n -gt 0 ] || { echo "no corpus files found: skipped"; exit 77; }
[ $fail = 0 ]
