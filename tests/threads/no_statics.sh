#!/bin/sh
# no_statics.sh LIBHILO_SO - the library has no mutable static state
# (issue 14 item 4): its writable sections (.data, .bss, .tdata, .tbss)
# hold no object of its own, only the C runtime's bookkeeping. Constant
# tables (const, also those with pointers, .data.rel.ro) are fine.
# Release builds only: fault-injection counters and sanitizer coverage
# tables live there by design.
set -u
so=$1
command -v objdump >/dev/null 2>&1 || { echo "no objdump: skipped"; exit 77; }
syms=$(objdump -t "$so") || exit 1
bad=$(printf '%s\n' "$syms" | awk '$3 == "O" && ($4 == ".data" || $4 == ".bss" || $4 == ".tdata" || $4 == ".tbss") { print $NF }
	$2 == "O" && ($3 == ".data" || $3 == ".bss" || $3 == ".tdata" || $3 == ".tbss") { print $NF }' |
	grep -v -x -e 'completed\.[0-9]*' -e __dso_handle -e __TMC_END__ -e __data_start -e data_start)
if [ -n "$bad" ]; then
	echo "FAIL: mutable statics in $so:"
	echo "$bad"
	exit 1
fi
echo "ok: no mutable statics in $so"
