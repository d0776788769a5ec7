#!/bin/sh
# Resource limits (issue 14 item 6): hostile sizes get a clear located
# error (or are handled in linear time), never an absurd allocation, an
# integer overflow or a stack overflow. The big inputs are generated here
# (awk, python3), inside a mktemp -d folder, never committed.
#   limits.sh HILO_OPT HILO_RUN
set -u
opt=$1 run=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hilo_limits.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }
ok() { echo "ok: $*"; }
T=60 # per command: a hang or a quadratic blow-up fails instead of stalling

# bad FILE RC REGEX ARGS...: the tool exits RC (1 by default) within T
# seconds, prints nothing on stdout, and its first stderr line matches
# REGEX (FILE:LINE:COL: error: ... for located errors)
bad() {
	_f=$1 _want=$2 _re=$3; shift 3
	timeout $T "$@" >out 2>err; _rc=$?
	[ $_rc = "$_want" ] || { fail "$_f: exit $_rc, expected $_want: $(head -c 300 err)"; return; }
	[ -s out ] && { fail "$_f: output on stdout"; return; }
	# (hilo-run names its random inputs on stderr first: not a diagnostic)
	grep -v '^hilo-run: random inputs' err | head -n 1 >first
	grep -qE "$_re" first || { fail "$_f: first diagnostic: $(cat first)"; return; }
	ok "$_f: $(cat first)"
}
# good FILE ARGS...: exit 0 within T seconds
good() {
	_f=$1; shift
	timeout $T "$@" >out 2>err; _rc=$?
	[ $_rc = 0 ] || { fail "$_f: exit $_rc: $(head -c 300 err)"; return 1; }
	return 0
}
mod() { printf 'HloModule m\n\nENTRY e {\n  %s\n}\n' "$2" >"$1"; }

# 1. shapes whose element count or byte size overflows int64
mod elems.hlo 'ROOT p = f32[2147483648,2147483648,2147483648]{2,1,0} parameter(0)'
bad elems.hlo 1 '^elems.hlo:4:12: error: shape has too many elements' "$opt" elems.hlo
mod bytes.hlo 'ROOT p = c128[1073741824,1073741824]{1,0} parameter(0)'
bad bytes.hlo 1 '^bytes.hlo:4:12: error: shape size in bytes overflows int64' "$opt" bytes.hlo
mod bytes_tuple.hlo 'ROOT p = (f32[], c128[1073741824,1073741824]{1,0}) parameter(0)'
bad bytes_tuple.hlo 1 '^bytes_tuple.hlo:4:20: error: shape size in bytes overflows int64' "$opt" bytes_tuple.hlo
#    the same in a binary proto: c64[2^40,2^18] (2^61 bytes) written by
#    hilo-opt, then its second dimension patched to 2^21-1 (a varint of the
#    same length): 2^61 elements fit int64, their 2^64 bytes do not
mod fits.hlo 'ROOT p = c64[1099511627776,262144]{1,0} parameter(0)'
if good fits.hlo "$opt" fits.hlo --emit-proto -o fits.pb && command -v python3 >/dev/null 2>&1; then
	python3 - <<'PY'
d = open("fits.pb", "rb").read()
old = bytes([0x80, 0x80, 0x80, 0x80, 0x80, 0x20, 0x80, 0x80, 0x10])  # varints 2^40, 2^18
new = bytes([0x80, 0x80, 0x80, 0x80, 0x80, 0x20, 0xff, 0xff, 0x7f])  # 2^40, 2^21-1
assert old in d, "packed dimensions not found"
open("bytes.pb", "wb").write(d.replace(old, new))
PY
	bad bytes.pb 1 '^bytes.pb: error: .*shape size in bytes overflows int64' "$opt" bytes.pb
fi

# 2. a constant literal claiming billions of elements; a parameter that big
#    given to the evaluator
mod const.hlo 'ROOT c = f32[4000000000]{0} constant({1, 2})'
bad const.hlo 1 '^const.hlo:4:40: error: constant too large \(4000000000 elements\)' "$opt" const.hlo
mod const1.hlo 'ROOT c = f32[4000000000]{0} constant(1)'
bad const1.hlo 1 '^const1.hlo:4:40: error: constant too large' "$opt" const1.hlo
mod param.hlo 'ROOT p = f32[4000000000]{0} parameter(0)'
bad param.hlo 1 '^param.hlo:4:3: error: evaluator: the inputs of e are over the evaluation budget' "$run" param.hlo
good param-equiv "$opt" param.hlo --passes=dce --check-equivalence=module && grep -q "equivalence: skipped" err ||
	fail "param.hlo --check-equivalence=module: not reported as skipped ($(cat err))"

# 3. 10^6 operands (one 10 MB line): parse, verify, print, the neuron
#    pipeline, a proto round trip, all in linear time
awk 'BEGIN{n=1000000; printf "HloModule m\n\nENTRY e {\n  p = f32[] parameter(0)\n  ROOT t = (";
  for(i=0;i<n;i++) printf "%sf32[]", i?", ":""; printf ") tuple(";
  for(i=0;i<n;i++) printf "%sp", i?", ":""; printf ")\n}\n"}' >ops.hlo
if good ops.hlo "$opt" ops.hlo -o ops.out && good ops.hlo "$opt" ops.hlo --pipeline=neuron --verify-each -o ops.neuron &&
   good ops.hlo "$opt" ops.hlo -o ops.pb && good ops.pb "$opt" ops.pb -o ops.back; then
	cmp -s ops.out ops.back || fail "ops.hlo: proto round trip differs"
	[ "$(grep -o ', p' ops.out | wc -l)" = 999999 ] || fail "ops.hlo: operands lost in printing"
	ok "10^6 operands: parse, print, pipeline, proto round trip"
fi
awk 'BEGIN{n=1000000; printf "HloModule m\n\nENTRY e {\n  p = f32[1]{0} parameter(0)\n  ROOT c = f32[%d]{0} concatenate(", n;
  for(i=0;i<n;i++) printf "%sp", i?", ":""; printf "), dimensions={0}\n}\n"}' >cat.hlo
good cat.hlo "$opt" cat.hlo --pipeline=neuron --verify-each --check-equivalence=1 -o cat.out && ok "10^6-operand concatenate: pipeline, equivalence"

# 4. depth: a 10^5-long chain of instructions and 10^5 nested calls walk
#    every recursive structure (parser, verifier, printer, clone, post
#    order, proto, evaluator, inliner)
awk 'BEGIN{n=100000; print "HloModule m\n\nENTRY e {\n  x0 = f32[2]{0} constant({1, 2})";
  for(i=1;i<n;i++) printf "  x%d = f32[2]{0} negate(x%d)\n", i, i-1; printf "  ROOT r = f32[2]{0} negate(x%d)\n}\n", n-1}' >chain.hlo
if good chain.hlo "$opt" chain.hlo --passes=cse,dce,constant-folding --verify-each --check-equivalence=1 -o chain.out &&
   good chain.hlo "$opt" chain.hlo --pipeline=neuron -o chain.pb && good chain.pb "$opt" chain.pb -o chain.back &&
   good chain.hlo "$run" chain.hlo --print; then
	[ "$(cat out)" = 'output 0: f32[2]{0} {1, 2}' ] || fail "chain.hlo: hilo-run result $(cat out)"
	grep -q 'ROOT [a-z0-9.]* = f32\[2\]{0} constant({1, 2})' chain.out || fail "chain.hlo: not folded"
	ok "10^5-deep instruction chain: passes, equivalence, proto, evaluator"
fi
awk 'BEGIN{n=100000; print "HloModule m\n"; print "k0 {\n  x = f32[2]{0} parameter(0)\n  ROOT r = f32[2]{0} negate(x)\n}\n";
  for(i=1;i<n;i++) printf "k%d {\n  x = f32[2]{0} parameter(0)\n  ROOT r = f32[2]{0} call(x), to_apply=k%d\n}\n\n", i, i-1;
  printf "ENTRY e {\n  p = f32[2]{0} parameter(0)\n  ROOT r = f32[2]{0} call(p), to_apply=k%d\n}\n", n-1}' >calls.hlo
if good calls.hlo "$opt" calls.hlo --pipeline=neuron --verify-each -o calls.pb && good calls.pb "$opt" calls.pb -o calls.back &&
   good calls.hlo "$opt" calls.hlo --passes=call-inliner,dce --verify-each -o calls.inl; then
	[ "$(grep -c 'negate' calls.inl)" = 1 ] && ! grep -q 'call(' calls.inl || fail "calls.hlo: not inlined to one negate"
	ok "10^5 nested calls: pipeline, proto, inliner"
fi
bad calls.hlo 1 '^calls.hlo:[0-9]+:[0-9]+: error: evaluating r \(call\): .*nested deeper than' "$run" calls.hlo
good calls-equiv "$opt" calls.hlo --passes=dce --check-equivalence=module && grep -q "equivalence: skipped" err ||
	fail "calls.hlo --check-equivalence=module: not reported as skipped ($(cat err))"
#    10^5-deep nesting inside one instruction: tuple shapes, inline
#    operands, literals, attribute braces: a located error, no stack overflow
awk 'BEGIN{n=100000; printf "HloModule m\n\nENTRY e {\n  ROOT p = "; for(i=0;i<n;i++) printf "("; printf "f32[]";
  for(i=0;i<n;i++) printf ")"; printf " parameter(0)\n}\n"}' >tuple_shape.hlo
bad tuple_shape.hlo 1 '^tuple_shape.hlo:4:[0-9]+: error: shape nested too deeply' "$opt" tuple_shape.hlo
awk 'BEGIN{n=100000; printf "HloModule m\n\nENTRY e {\n  p = f32[] parameter(0)\n  ROOT r = f32[] negate("; for(i=0;i<n;i++) printf "f32[] negate(";
  printf "p"; for(i=0;i<=n;i++) printf ")"; printf "\n}\n"}' >inline.hlo
bad inline.hlo 1 '^inline.hlo:5:[0-9]+: error: (shape|operands) nested too deeply' "$opt" inline.hlo
awk 'BEGIN{n=100000; printf "HloModule m\n\nENTRY e {\n  ROOT c = (f32[]) constant("; for(i=0;i<n;i++) printf "(";
  printf "1"; for(i=0;i<n;i++) printf ")"; printf ")\n}\n"}' >tuple_lit.hlo
bad tuple_lit.hlo 1 '^tuple_lit.hlo:4:[0-9]+: error: ' "$opt" tuple_lit.hlo
#    (an unmodelled attribute value is kept verbatim: scanned, not recursed)
awk 'BEGIN{n=100000; printf "HloModule m\n\nENTRY e {\n  ROOT p = f32[] parameter(0), frontend_attributes={a="; for(i=0;i<n;i++) printf "{";
  for(i=0;i<n;i++) printf "}"; printf "}\n}\n"}' >attr.hlo
good attr.hlo "$opt" attr.hlo -o attr.out && { sed -n 4p attr.hlo >attr.line; grep -qFf attr.line attr.out || fail "attr.hlo: not kept verbatim"; } && ok "attr.hlo: 10^5-deep braces kept verbatim"
#    and in a binary proto: 10^5 nested tuple shapes
if command -v python3 >/dev/null 2>&1; then
	python3 - <<'PY'
def varint(n):
    out = bytearray()
    while True:
        b = n & 0x7f; n >>= 7
        out.append(b | 0x80 if n else b)
        if not n: return bytes(out)
def field(num, payload): return varint((num << 3) | 2) + varint(len(payload)) + payload
shape = varint(2 << 3) + varint(11)                      # ShapeProto{element_type: F32}
for _ in range(100000):
    shape = varint(2 << 3) + varint(13) + field(4, shape)  # {TUPLE, tuple_shapes: [shape]}
instr = field(1, b"p") + field(2, b"parameter") + field(3, shape)
open("deep.pb", "wb").write(field(1, b"m") + field(3, field(1, b"e") + field(2, instr)))
PY
	bad deep.pb 1 '^deep.pb: error: .*nested too deeply' "$opt" --format=pb deep.pb
fi

# 5. a while loop with a trip count of 2^62 (and one whose induction
#    variable would overflow s64): the unroller declines within its budget,
#    the evaluator stops at its budget, nothing overflows or hangs
loop() { # FILE INIT BOUND STEP
	cat >"$1" <<HLO
HloModule m

cond {
  s = (s64[], f32[2]{0}) parameter(0)
  i = s64[] get-tuple-element(s), index=0
  n = s64[] constant($3)
  ROOT lt = pred[] compare(i, n), direction=LT
}

body {
  s = (s64[], f32[2]{0}) parameter(0)
  i = s64[] get-tuple-element(s), index=0
  one = s64[] constant($4)
  i1 = s64[] add(i, one)
  v = f32[2]{0} get-tuple-element(s), index=1
  v1 = f32[2]{0} negate(v)
  ROOT t = (s64[], f32[2]{0}) tuple(i1, v1)
}

ENTRY e {
  p = f32[2]{0} parameter(0)
  z = s64[] constant($2)
  init = (s64[], f32[2]{0}) tuple(z, p)
  ROOT w = (s64[], f32[2]{0}) while(init), condition=cond, body=body
}
HLO
}
loop trip62.hlo 0 4611686018427387904 1
loop wrap.hlo 0 9223372036854775807 2305843009213693952
loop negstep.hlo 4611686018427387904 9223372036854775807 -1
for f in trip62 wrap negstep; do
	# (a budget of 10^6 element-ops: the default 10^8 spends ~11 s a loop
	# evaluating to the budget, past T on a loaded machine; the case is the
	# skip, not how long the evaluator takes to reach it)
	if good $f.hlo "$opt" $f.hlo --passes=while-loop-unroller --verify-each --check-equivalence=module --eval-budget=1000000 --remarks=$f.rem -o $f.out; then
		grep -q 'while(init)' $f.out || fail "$f.hlo: the while was rewritten"
		grep -q 'budget exceeded: trip count above 1000' $f.rem || fail "$f.hlo: remark: $(cat $f.rem)"
		grep -q 'equivalence: skipped' err || fail "$f.hlo: equivalence not skipped: $(cat err)"
		ok "$f.hlo: unroller declined ($(grep -o 'budget exceeded[^"]*' $f.rem | head -1))"
	fi
	bad $f.hlo 1 "^$f.hlo:[0-9]+:[0-9]+: error: evaluating .*over the evaluation budget" "$run" $f.hlo --budget=1000000
done

[ $fails = 0 ] && echo "all limit cases passed"
[ $fails = 0 ]
