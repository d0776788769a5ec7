#!/bin/sh
# hilo-opt and the binary proto (issue 7): format detection, --format,
# --emit-proto / -o X.pb, stdin, bad input (exit 1, old output untouched),
# and protoc's raw decoding of an emitted file (field 1 = module name,
# field 6 = entry computation id: spot checks of XLA's field numbers).
#   cli.sh HILO_OPT
opt=$1
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail=0
no() { echo "FAIL: $*"; fail=1; }

cat > "$tmp/m.hlo" <<'HLO'
HloModule cli_module, entry_computation_layout={(f32[4]{0})->f32[4]{0}}

%add (a: f32[], b: f32[]) -> f32[] {
  %a = f32[] parameter(0)
  %b = f32[] parameter(1)
  ROOT %s = f32[] add(%a, %b)
}

ENTRY %main (p: f32[4]) -> f32[4] {
  %p = f32[4]{0} parameter(0)
  %c = f32[4]{0} constant({1, 2.5, -3, 0})
  %m = f32[4]{0} multiply(%p, %c), metadata={op_type="mul" op_name="jit(f)/mul"}
  ROOT %r = f32[4]{0} all-reduce(%m), channel_id=1, replica_groups={{0,1}}, to_apply=%add
}
HLO
"$opt" "$tmp/m.hlo" > "$tmp/ref.hlo" || no "text input"
cmp -s "$tmp/m.hlo" "$tmp/ref.hlo" || no "text round trip"
"$opt" "$tmp/m.hlo" -o "$tmp/m.pb" || no "-o X.pb"
"$opt" "$tmp/m.hlo" --emit-proto > "$tmp/m2.pb" || no "--emit-proto"
cmp -s "$tmp/m.pb" "$tmp/m2.pb" || no "-o X.pb and --emit-proto differ"
"$opt" "$tmp/m.pb" > "$tmp/back.hlo" || no "pb input detected"
cmp -s "$tmp/m.hlo" "$tmp/back.hlo" || no "text -> pb -> text"
"$opt" --format=pb - < "$tmp/m.pb" > "$tmp/back2.hlo" || no "--format=pb on stdin"
cmp -s "$tmp/m.hlo" "$tmp/back2.hlo" || no "stdin pb round trip"
"$opt" - < "$tmp/m.pb" > "$tmp/back3.hlo" || no "pb detected on stdin"
cmp -s "$tmp/m.hlo" "$tmp/back3.hlo" || no "stdin pb detection"

# wrong --format: clear errors, exit 1
"$opt" --format=pb "$tmp/m.hlo" > /dev/null 2> "$tmp/err"; rc=$?
[ $rc = 1 ] || no "--format=pb on text: exit $rc"
grep -q "not a valid binary" "$tmp/err" || no "--format=pb on text: message"
"$opt" --format=hlo "$tmp/m.pb" > /dev/null 2>&1; rc=$?
[ $rc = 1 ] || no "--format=hlo on a proto: exit $rc"
"$opt" --format=xml "$tmp/m.hlo" > /dev/null 2>&1; rc=$?
[ $rc = 2 ] || no "--format=xml: exit $rc (want 2)"

# truncated and corrupt protos: exit 1, message, -o target untouched
echo keep > "$tmp/out.pb"
size=$(wc -c < "$tmp/m.pb")
for n in 1 7 20 50 100 $((size - 1)); do
  head -c $n "$tmp/m.pb" > "$tmp/t.pb"
  "$opt" --format=pb "$tmp/t.pb" -o "$tmp/out.pb" 2> "$tmp/err"; rc=$?
  [ $rc = 1 ] || no "truncated at $n: exit $rc"
  grep -q "error" "$tmp/err" || no "truncated at $n: no error message"
done
[ "$(cat "$tmp/out.pb")" = keep ] || no "-o target changed after an error"
printf '\377\377\377\377garbage' > "$tmp/g.pb"
"$opt" --format=pb "$tmp/g.pb" > /dev/null 2>&1; rc=$?
[ $rc = 1 ] || no "garbage: exit $rc"

# protoc's raw decoding (protoc-c is the Debian protobuf-c compiler)
if command -v protoc-c > /dev/null 2>&1; then
  protoc-c --decode_raw < "$tmp/m.pb" > "$tmp/raw" 2>&1 || no "protoc-c --decode_raw failed"
  grep -q '^1: "cli_module"$' "$tmp/raw" || no "field 1 is not the module name"
  grep -q '^2: "main"$' "$tmp/raw" || no "field 2 is not the entry computation name"
  grep -q '^6: 2$' "$tmp/raw" || no "field 6 is not the entry computation id"
  grep -q '^    35: ' "$tmp/raw" || no "instruction ids are not field 35"
  grep -q '^    2: "all-reduce"$' "$tmp/raw" || no "opcode is not field 2"
else
  echo "protoc-c not installed: raw decoding checks skipped"
fi
[ $fail = 0 ] && echo "proto cli: ok"
exit $fail
