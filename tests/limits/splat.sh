#!/bin/sh
# No allocation the input did not ask for (issue 31 goal 2): a splat
# constant, f32[961974200]{0} constant(0) (a 100-byte module declaring
# 3.8 GB of zeros), is kept as one element and a shape, so reading it, running the
# Neuron pipeline over it and printing it back takes under a second and
# a few MB. Each run is capped by ulimit -v (virtual memory, 256 MB: the
# expanded array alone is 3.8 GB) and a wall-clock limit, and its output
# must be byte for byte the input.
# And a PyPTO text larger than a quarter of the machine's memory (a
# sparse file: billions of blank lines would be as big) is refused before
# it is read.
#   splat.sh HILO_OPT PTO_OPT
set -u
opt=$1 pto=$2
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hilo_splat.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }
ok() { echo "ok: $*"; }
T=10     # seconds per run (the expanding reader took 13 s)
MEM=262144 # KiB of virtual memory per run

# capped OUTNAME ARGS...: runs hilo-opt ARGS under the caps; stderr in err
capped() {
	(ulimit -v $MEM; exec timeout $T "$opt" "$@") 2>err; _rc=$?
	[ $_rc = 0 ] || { fail "$*: exit $_rc: $(head -c 300 err)"; return 1; }
	return 0
}
# same IN OUT WHAT: OUT is IN byte for byte
same() { cmp -s "$1" "$2" && ok "$3" || fail "$3: output differs from the input: $(head -c 300 "$2")"; }

m() { printf 'HloModule m, entry_computation_layout={()->%s}\n\nENTRY e {\n  ROOT c = %s constant(%s)\n}\n' "$1" "$1" "$2" >"$3"; }

# (a nonzero scalar is element 0 only, the rest 0, as XLA reads it: that
# array is stored whole; f32[3,5] below)
m 'f32[961974200]{0}' 0 big.hlo
capped big.hlo -o big.out && same big.hlo big.out "f32[961974200] splat: read and print"
capped big.hlo --pipeline=neuron -o big.neuron && same big.hlo big.neuron "f32[961974200] splat: --pipeline=neuron"
capped big.hlo --pipeline=neuron --verify-each -o big.verify && same big.hlo big.verify "f32[961974200] splat: --verify-each"
# other element types and ranks that declare more than they spell out
m 'pred[40000,40000]{1,0}' false pred.hlo
capped pred.hlo -o pred.out && same pred.hlo pred.out "pred[40000,40000] splat"
m 'c64[30000,30000]{0,1}' '(0, 0)' c64.hlo
capped c64.hlo -o c64.out && same c64.hlo c64.out "c64[30000,30000]{0,1} splat"
m 's4[2000000000]{0:E(4)}' 0 s4.hlo
capped s4.hlo -o s4.out && same s4.hlo s4.out "s4[2000000000] splat"
# an elided constant: no values at all
m 'f32[2000000000]{0}' '{...}' elided.hlo
capped elided.hlo --pipeline=neuron -o elided.out && same elided.hlo elided.out "f32[2000000000] elided"
# the splat through an elementwise op and a broadcast: the Neuron pipeline
# and the printer never expand it
cat >ops.hlo <<'H'
HloModule m, entry_computation_layout={()->f32[20000,30000]{1,0}}

ENTRY e {
  c = f32[30000]{0} constant(0)
  n = f32[30000]{0} negate(c)
  ROOT b = f32[20000,30000]{1,0} broadcast(n), dimensions={1}
}
H
capped ops.hlo --pipeline=neuron -o ops.out && same ops.hlo ops.out "splat through negate and broadcast"

# one nonzero scalar: element 0 holds it, the rest 0 (XLA's parser); a
# binary proto holds every element (XLA's reader needs them) and reads
# back printed as written
m 'f32[3,5]{0,1}' 7 small.hlo
if capped small.hlo -o small.pb && capped small.pb -o small.back; then
	same small.hlo small.back "f32[3,5] splat through a binary proto"
	capped small.pb --emit=pbtxt -o small.pbtxt &&
		{ [ "$(grep -c 'f32s: 7' small.pbtxt)" = 1 ] && [ "$(grep -c 'f32s: 0' small.pbtxt)" = 14 ] &&
		  ok "the proto holds 7 and 14 zeros" ||
		  fail "the proto does not hold 7 and 14 zeros: $(grep 'f32s' small.pbtxt | sort | uniq -c)"; }
fi

# a PyPTO input twice the machine's memory: refused up front, in a moment
mem=$(awk '/^MemTotal:/ {printf "%.0f", $2 * 1024}' /proc/meminfo)
if [ -n "$mem" ] && truncate -s $((mem * 2)) huge.pto 2>/dev/null; then
	(ulimit -v $MEM; exec timeout $T "$pto" huge.pto -o huge.out) >out 2>err; rc=$?
	if [ $rc = 1 ] && [ ! -s out ] && [ ! -e huge.out ] &&
	   grep -q "^huge.pto: error: input of $((mem * 2)) bytes is larger than the PyPTO reader takes (.* bytes: a quarter of this machine's memory)$" err; then
		ok "PyPTO input of $((mem * 2)) bytes refused: $(cat err)"
	else
		fail "PyPTO input of $((mem * 2)) bytes: exit $rc: $(head -c 300 err)"
	fi
	rm -f huge.pto
fi

[ $fails = 0 ] || { echo "$fails failure(s)"; exit 1; }
echo "all passed"
