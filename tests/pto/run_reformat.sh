#!/bin/sh
# usage: run_reformat.sh PTO_OPT DIR/NAME.py
# Inputs the printer writes in another form than they were written (Python's
# one-line forms: `;` between statements, a body on its header's line), so
# they are not in the byte-for-byte round trip. run_golden.sh checks the
# output (exact NAME.out, valid Python, reads back with pto-opt byte for
# byte, verifies). For a print-only run (ARGS --passes=) the output must
# also be the same program as the input: Python's own AST of both is equal.
tool=$1 f=$2
here=$(dirname "$0")
sh "$here/run_golden.sh" "$tool" "$f" || exit 1
args=$(sed -n 's/^# ARGS: //p' "$f" | head -n 1)
case " $args " in *" --passes= "*) ;; *) exit 0;; esac
command -v python3 >/dev/null 2>&1 || exit 0
out=$(dirname "$f")/$(basename "$f" .py).out
python3 - "$f" "$out" <<'PY'
import ast, sys
a, b = (ast.dump(ast.parse(open(p).read())) for p in sys.argv[1:3])
if a != b:
    print("the printed program is not the input program (Python AST differs)")
    sys.exit(1)
PY
