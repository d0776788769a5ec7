#!/bin/sh
# Output safety (issue 14 item 1): -o and --remarks of hilo-opt and -o of
# pto-opt go through one routine (hilo_write_output). Everything happens
# inside a mktemp -d folder: the real /dev/null or any shared path is never
# touched.
#   output.sh HILO_OPT PTO_OPT PTO_INPUT REMARKS_INPUT FAULT_INJECTION(0|1) HILO_RUN
set -u
opt=$1 pto=$2 pto_in=$3 rem_in=$4 fault=$5 run=$6
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hilo_output.XXXXXX") || exit 1
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
fails=0
fail() { echo "FAIL: $*"; fails=$((fails+1)); }
ok() { echo "ok: $*"; }
cd "$tmp" || exit 1
umask 022

# a small module and its expected printed form
cat >m.hlo <<'HLO'
HloModule m

ENTRY %main (p: f32[4]) -> f32[4] {
  %p = f32[4]{0} parameter(0)
  ROOT %n = f32[4]{0} negate(f32[4]{0} %p)
}
HLO
"$opt" m.hlo >expect 2>err || { cat err; echo "FAIL: cannot print m.hlo"; exit 1; }
[ -s expect ] || { echo "FAIL: empty expected output"; exit 1; }
only() { # DIR NAMES...: the folder holds exactly these names
	d=$1; shift
	[ "$(ls -A "$d" | sort | tr '\n' ' ')" = "$(printf '%s\n' "$@" | sort | tr '\n' ' ')" ]
}

# 1. a new regular file: 0666 & ~umask, not 0600
mkdir new
"$opt" m.hlo -o new/out.hlo 2>err || fail "new file: exit $? ($(cat err))"
cmp -s expect new/out.hlo || fail "new file: wrong contents"
[ "$(stat -c %a new/out.hlo)" = 644 ] || fail "new file: mode $(stat -c %a new/out.hlo), expected 644 (umask 022)"
(umask 027; "$opt" m.hlo -o new/out027.hlo) 2>err || fail "umask 027: exit $?"
[ "$(stat -c %a new/out027.hlo)" = 640 ] || fail "umask 027: mode $(stat -c %a new/out027.hlo), expected 640"
only new out.hlo out027.hlo || fail "new file: files left: $(ls -A new)"
ok "new file"

# 2. an existing regular file: replaced, mode kept (and owner, as root)
mkdir reg
echo previous >reg/out.hlo
chmod 0604 reg/out.hlo
[ "$(id -u)" = 0 ] && chown 65534:65534 reg/out.hlo
"$opt" m.hlo -o reg/out.hlo 2>err || fail "regular: exit $? ($(cat err))"
cmp -s expect reg/out.hlo || fail "regular: wrong contents"
[ "$(stat -c %a reg/out.hlo)" = 604 ] || fail "regular: mode $(stat -c %a reg/out.hlo), expected 604"
if [ "$(id -u)" = 0 ]; then
	[ "$(stat -c %u:%g reg/out.hlo)" = 65534:65534 ] || fail "regular: owner $(stat -c %u:%g reg/out.hlo), expected 65534:65534"
fi
only reg out.hlo || fail "regular: files left: $(ls -A reg)"
ok "regular file"

# 3. a symbolic link to a file: the target is replaced, the link stays a
#    link, the target keeps its mode; a chain of relative links too
mkdir -p ln/sub
echo previous >ln/sub/target.hlo
chmod 0640 ln/sub/target.hlo
ln -s sub/target.hlo ln/link1
ln -s link1 ln/link2
"$opt" m.hlo -o ln/link2 2>err || fail "symlink: exit $? ($(cat err))"
[ -L ln/link2 ] && [ "$(readlink ln/link2)" = link1 ] || fail "symlink: link2 replaced"
[ -L ln/link1 ] && [ "$(readlink ln/link1)" = sub/target.hlo ] || fail "symlink: link1 replaced"
cmp -s expect ln/sub/target.hlo || fail "symlink: target not written"
[ "$(stat -c %a ln/sub/target.hlo)" = 640 ] || fail "symlink: target mode $(stat -c %a ln/sub/target.hlo), expected 640"
only ln link1 link2 sub && only ln/sub target.hlo || fail "symlink: files left: $(ls -AR ln)"
#    a dangling link: its target is created, the link kept
ln -s dangling.hlo ln/link3
"$opt" m.hlo -o ln/link3 2>err || fail "dangling symlink: exit $? ($(cat err))"
[ -L ln/link3 ] && cmp -s expect ln/dangling.hlo || fail "dangling symlink: target not created or link replaced"
#    a link loop is an error, nothing created
ln -s loopb ln/loopa; ln -s loopa ln/loopb
"$opt" m.hlo -o ln/loopa 2>err && fail "symlink loop: exit 0"
grep -q "ln/loopa: error: " err || fail "symlink loop: no located error ($(cat err))"
only ln link1 link2 link3 dangling.hlo loopa loopb sub || fail "symlink loop: files left: $(ls -A ln)"
ok "symbolic links"

# 4. a FIFO with a reader: written in place, still a FIFO
mkfifo fifo
cat fifo >fifo.got &
reader=$!
"$opt" m.hlo -o fifo 2>err || { fail "fifo: exit $? ($(cat err))"; [ -p fifo ] && : >fifo; }
wait $reader
[ -p fifo ] || fail "fifo: no longer a FIFO"
cmp -s expect fifo.got || fail "fifo: reader got the wrong bytes"
ok "FIFO"

# 5. a read-only folder: an error, the old file untouched, nothing left.
#    Root ignores directory permissions: run the tool as nobody then.
mkdir ro
echo previous >ro/out.hlo
chmod 0644 ro/out.hlo m.hlo
chmod 0555 ro
chmod 0755 "$tmp"
as_user=""
if [ "$(id -u)" = 0 ]; then
	if command -v setpriv >/dev/null 2>&1; then
		as_user="setpriv --reuid=65534 --regid=65534 --clear-groups"
	else
		as_user=skip
	fi
fi
if [ "$as_user" = skip ]; then
	echo "note: read-only folder case skipped (root without setpriv)"
else
	$as_user "$opt" "$tmp/m.hlo" -o "$tmp/ro/out.hlo" 2>err; rc=$?
	[ $rc = 1 ] || fail "read-only folder: exit $rc, expected 1 ($(cat err))"
	grep -q "ro/out.hlo: error: cannot create a temporary file" err || fail "read-only folder: message: $(cat err)"
	[ "$(cat ro/out.hlo)" = previous ] || fail "read-only folder: target modified"
	only ro out.hlo || fail "read-only folder: files left: $(ls -A ro)"
	ok "read-only folder"
fi
chmod 0755 ro

# 6. a write failure (the stand-in for a full disk): a file-size limit
#    makes write(2) fail with EFBIG; the target is untouched, no temporary
#    is left. SIGXFSZ is ignored so that the failure comes back as EFBIG.
{
	echo "HloModule big"
	echo ""
	echo "ENTRY %main (p: f32[4]) -> f32[4] {"
	echo "  %p = f32[4]{0} parameter(0)"
	i=0; prev=p
	while [ $i -lt 400 ]; do
		echo "  %n$i = f32[4]{0} negate(f32[4]{0} %$prev)"
		prev=n$i; i=$((i+1))
	done
	echo "  ROOT %r = f32[4]{0} negate(f32[4]{0} %$prev)"
	echo "}"
} >big.hlo
mkdir full
echo previous >full/out.hlo
(trap '' XFSZ; ulimit -f 8; exec "$opt" big.hlo -o full/out.hlo) 2>err; rc=$?
[ $rc = 1 ] || fail "write failure: exit $rc, expected 1"
grep -q "full/out.hlo: error: cannot write: " err || fail "write failure: message: $(cat err)"
[ "$(cat full/out.hlo)" = previous ] || fail "write failure: target modified"
only full out.hlo || fail "write failure: files left: $(ls -A full)"
ok "write failure (file-size limit)"
#    the same through the fault-injection hook of the output routine
if [ "$fault" = 1 ]; then
	for k in 1 2; do
		HILO_FAIL_WRITE=$k "$opt" m.hlo -o full/out.hlo 2>err; rc=$?
		[ $k = 1 ] && [ $rc != 1 ] && fail "HILO_FAIL_WRITE=1: exit $rc, expected 1"
		[ $k = 2 ] && [ $rc != 0 ] && fail "HILO_FAIL_WRITE=2 (no second write): exit $rc"
	done
	HILO_FAIL_WRITE=1 "$opt" m.hlo -o full/out.hlo 2>err
	grep -q "cannot write: Input/output error" err || fail "HILO_FAIL_WRITE: message: $(cat err)"
	echo previous >full/out.hlo
	HILO_FAIL_WRITE=1 "$opt" m.hlo -o full/out.hlo 2>/dev/null
	[ "$(cat full/out.hlo)" = previous ] || fail "HILO_FAIL_WRITE: target modified"
	only full out.hlo || fail "HILO_FAIL_WRITE: files left: $(ls -A full)"
	ok "write failure (HILO_FAIL_WRITE)"
	# every tool and every output of a tool: HILO_FAIL_WRITE=K fails the
	# K-th output write of the run; the run exits 1 naming the file, that
	# file (and every later one) keeps its previous contents and no
	# temporary is left. fw NAME K FILES... -- CMD...: FILES are the
	# outputs in the order the tool writes them, each pre-filled.
	fw() {
		_n=$1 _k=$2; shift 2
		rm -rf fw; mkdir fw
		_files=""
		while [ "$1" != -- ]; do
			echo "previous $1" >"fw/$1"; _files="$_files $1"; shift
		done
		shift
		HILO_FAIL_WRITE=$_k "$@" >fw.stdout 2>fw.err; _rc=$?
		[ $_rc = 1 ] || { fail "$_n HILO_FAIL_WRITE=$_k: exit $_rc, expected 1 ($(head -c 300 fw.err))"; return; }
		_i=0 _failed=""
		for _f in $_files; do
			_i=$((_i + 1))
			[ $_i = "$_k" ] && _failed=$_f
			if [ $_i -ge "$_k" ]; then
				[ "$(cat "fw/$_f")" = "previous $_f" ] || fail "$_n HILO_FAIL_WRITE=$_k: fw/$_f modified"
			else
				[ "$(cat "fw/$_f")" != "previous $_f" ] || fail "$_n HILO_FAIL_WRITE=$_k: fw/$_f (written before the failure) not written"
			fi
		done
		grep -q "fw/$_failed: error: cannot write: Input/output error" fw.err ||
			fail "$_n HILO_FAIL_WRITE=$_k: message: $(head -c 300 fw.err)"
		only fw $_files || fail "$_n HILO_FAIL_WRITE=$_k: files left: $(ls -A fw)"
		ok "$_n: HILO_FAIL_WRITE=$_k leaves fw/$_failed untouched"
	}
	fw "hilo-opt --remarks" 1 rem.jsonl out.hlo -- "$opt" "$rem_in" --passes=while-loop-unroller --remarks=fw/rem.jsonl -o fw/out.hlo
	fw "hilo-opt -o after --remarks" 2 rem.jsonl out.hlo -- "$opt" "$rem_in" --passes=while-loop-unroller --remarks=fw/rem.jsonl -o fw/out.hlo
	fw "hilo-opt --report" 1 rep.html out.hlo -- "$opt" "$rem_in" --passes=while-loop-unroller --check-equivalence --report=fw/rep.html -o fw/out.hlo
	fw "hilo-opt --emit-proto" 1 out.pb -- "$opt" m.hlo --emit-proto -o fw/out.pb
	fw "pto-opt -o" 1 out.py -- "$pto" --runtime=host_build_graph "$pto_in" -o fw/out.py
	fw "hilo-run -o" 1 out.txt -- "$run" m.hlo -o fw/out.txt
	fw "hilo-run --output-dir" 2 out.txt output_0.npy -- "$run" m.hlo -o fw/out.txt --output-dir=fw
	#    standard output too: exit 1 with the message, nothing half written
	HILO_FAIL_WRITE=1 "$run" m.hlo >fw.stdout 2>fw.err; rc=$?
	[ $rc = 1 ] && grep -q "error: cannot write: Input/output error" fw.err && [ ! -s fw.stdout ] ||
		fail "hilo-run to stdout, HILO_FAIL_WRITE=1: exit $rc ($(head -c 300 fw.err))"
	HILO_FAIL_WRITE=1 "$opt" m.hlo -o - >fw.stdout 2>fw.err; rc=$?
	[ $rc = 1 ] && grep -q "error: cannot write: Input/output error" fw.err && [ ! -s fw.stdout ] ||
		fail "hilo-opt -o -, HILO_FAIL_WRITE=1: exit $rc ($(head -c 300 fw.err))"
	ok "standard output: HILO_FAIL_WRITE=1 is an error"
fi

# 7. "-" is standard output, for -o and --remarks; no file named "-"
mkdir dash
(cd dash && "$opt" ../m.hlo -o - >../dash.out 2>../err) || fail "-o -: exit $?"
cmp -s expect dash.out || fail "-o -: stdout differs"
(cd dash && "$opt" "$rem_in" --passes=while-loop-unroller --remarks=- -o ../rem.hlo >../dash.rem 2>../err) || fail "--remarks=-: exit $?"
grep -q '"pass"' dash.rem || fail "--remarks=-: no remarks on stdout"
[ -z "$(ls -A dash)" ] || fail "-: files created: $(ls -A dash)"
#    --remarks=FILE through the same routine: a symlink stays a link
mkdir rem
echo previous >rem/target.jsonl
ln -s target.jsonl rem/link.jsonl
"$opt" "$rem_in" --passes=while-loop-unroller --remarks=rem/link.jsonl -o rem.hlo 2>err || fail "--remarks link: exit $?"
[ -L rem/link.jsonl ] || fail "--remarks: link replaced"
cmp -s dash.rem rem/target.jsonl || fail "--remarks: target differs from --remarks=- output"
ok "- and --remarks"

# 8. a folder as the output: refused, untouched
mkdir dir
"$opt" m.hlo -o dir 2>err; rc=$?
[ $rc = 1 ] && [ -d dir ] && grep -q "is a directory" err || fail "folder output: exit $rc ($(cat err))"
ok "folder output refused"

# 9. a Unix socket with a listener: written in place
if command -v python3 >/dev/null 2>&1; then
	python3 - "$tmp/sock" "$tmp/sock.got" <<'PY' &
import os, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1]); s.listen(1)
open(sys.argv[1] + ".ready", "w").close()
s.settimeout(20)
c, _ = s.accept()
with open(sys.argv[2], "wb") as f:
    while True:
        b = c.recv(65536)
        if not b:
            break
        f.write(b)
PY
	server=$!
	n=0; while [ ! -e sock.ready ] && [ $n -lt 100 ]; do sleep 0.1; n=$((n+1)); done
	"$opt" m.hlo -o sock 2>err || { fail "socket: exit $? ($(cat err))"; kill $server; }
	wait $server
	[ -S sock ] || fail "socket: no longer a socket"
	cmp -s expect sock.got || fail "socket: listener got the wrong bytes"
	ok "socket"
fi

# 10. a character device (root only): a node made here with /dev/null's
#     numbers (1,3) is written in place and stays a device; one with
#     /dev/full's numbers (1,7) makes the write fail and stays a device
if [ "$(id -u)" = 0 ] && mknod chr c 1 3 2>/dev/null; then
	"$opt" m.hlo -o chr 2>err || fail "char device: exit $? ($(cat err))"
	[ -c chr ] && [ "$(stat -c %t,%T chr)" = 1,3 ] || fail "char device: replaced ($(ls -l chr))"
	"$pto" --passes= "$pto_in" -o chr 2>err || fail "pto-opt char device: exit $? ($(cat err))"
	[ -c chr ] || fail "pto-opt char device: replaced"
	mknod fullchr c 1 7
	"$opt" m.hlo -o fullchr 2>err; rc=$?
	[ $rc = 1 ] && grep -q "fullchr: error: cannot write: No space left on device" err ||
		fail "full char device: exit $rc ($(cat err))"
	[ -c fullchr ] || fail "full char device: replaced"
	ok "character device"
else
	echo "note: character device case skipped (not root, or mknod not permitted)"
fi

# 11. pto-opt: same routine (symlink, FIFO, "-", mode of a new file)
"$pto" --passes= "$pto_in" >pto.expect 2>err || { cat err; fail "pto-opt: cannot print"; }
mkdir pto
echo previous >pto/target.py
chmod 0600 pto/target.py
ln -s target.py pto/link.py
"$pto" --passes= "$pto_in" -o pto/link.py 2>err || fail "pto-opt symlink: exit $?"
[ -L pto/link.py ] && cmp -s pto.expect pto/target.py || fail "pto-opt symlink: link replaced or target differs"
[ "$(stat -c %a pto/target.py)" = 600 ] || fail "pto-opt symlink: mode changed"
"$pto" --passes= "$pto_in" -o pto/new.py 2>err || fail "pto-opt new: exit $?"
[ "$(stat -c %a pto/new.py)" = 644 ] || fail "pto-opt new file: mode $(stat -c %a pto/new.py), expected 644"
(cd pto && "$pto" --passes= "$pto_in" -o - >../pto.dash) || fail "pto-opt -o -: exit $?"
cmp -s pto.expect pto.dash || fail "pto-opt -o -: stdout differs"
mkfifo pto/fifo
cat pto/fifo >pto.fifo.got &
reader=$!
"$pto" --passes= "$pto_in" -o pto/fifo 2>err || { fail "pto-opt fifo: exit $?"; [ -p pto/fifo ] && : >pto/fifo; }
wait $reader
[ -p pto/fifo ] && cmp -s pto.expect pto.fifo.got || fail "pto-opt fifo"
only pto fifo link.py new.py target.py || fail "pto-opt: files left: $(ls -A pto)"
ok "pto-opt"

# 12a. pto-opt streams its output (written as printed, 64 KiB at a time):
#      a program of ~300 KB prints back exactly to a file (with and without
#      a final newline: the last byte is held back until the end), and a
#      failing second write leaves the target as it was, no temporary
#      behind (a buffered output has only one write to fail)
mkdir stream
{ cat "$pto_in"; i=0; while [ $i -lt 4000 ]; do echo "# padding line $i of a program streamed in several writes"; i=$((i + 1)); done; } >stream.py
printf '%s' "$(cat stream.py)" >stream_nonl.py
for f in stream.py stream_nonl.py; do
	"$pto" --passes= $f -o stream/out.py 2>err || fail "pto-opt streamed $f: exit $? ($(cat err))"
	cmp -s $f stream/out.py || fail "pto-opt streamed $f: output differs from the input"
done
only stream out.py || fail "pto-opt streamed: files left: $(ls -A stream)"
if [ "$fault" = 1 ]; then
	echo previous >stream/out.py
	HILO_FAIL_WRITE=2 "$pto" --passes= stream.py -o stream/out.py 2>err; rc=$?
	[ $rc = 1 ] && grep -q "stream/out.py: error: cannot write: Input/output error" err ||
		fail "pto-opt streamed, HILO_FAIL_WRITE=2: exit $rc ($(head -c 300 err))"
	[ "$(cat stream/out.py)" = previous ] || fail "pto-opt streamed, HILO_FAIL_WRITE=2: target modified"
	only stream out.py || fail "pto-opt streamed, HILO_FAIL_WRITE=2: files left: $(ls -A stream)"
fi
ok "pto-opt streamed output"

# 12. --split-input-file with --emit-proto (or -o X.pb): a usage error,
#     nothing written (one binary proto holds one module)
mkdir split
printf '%s\n' "$(cat m.hlo)" "// -----" "$(cat m.hlo)" >split.hlo
"$opt" --split-input-file --emit-proto split.hlo -o split/out 2>err; rc=$?
[ $rc = 2 ] && grep -q "split-input-file cannot be combined with --emit-proto" err || fail "split+proto: exit $rc ($(cat err))"
"$opt" --split-input-file split.hlo -o split/out.pb 2>err; rc=$?
[ $rc = 2 ] || fail "split + -o X.pb: exit $rc"
[ -z "$(ls -A split)" ] || fail "split+proto: files written: $(ls -A split)"
"$opt" --split-input-file split.hlo -o split/out.hlo 2>err || fail "split to text: exit $?"
[ "$(grep -c '^HloModule' split/out.hlo)" = 2 ] || fail "split to text: not two modules"
ok "--split-input-file with --emit-proto refused"

[ $fails = 0 ] && echo "all output cases passed"
[ $fails = 0 ]
