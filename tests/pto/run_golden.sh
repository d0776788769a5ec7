#!/bin/sh
# usage: run_golden.sh PTO_OPT DIR/NAME.py
# Arguments come from a "# ARGS: ..." line in the input (default
# --runtime=host_build_graph). With NAME.out the output must match it
# exactly. With NAME.err the tool must exit 1, write no output file, and
# every line of NAME.err must occur in stderr (fixed strings; the input is
# run from its own folder, so diagnostics start with "NAME.py:LINE:COL").
tool=$1 f=$2
dir=$(dirname "$f") base=$(basename "$f" .py)
args=$(sed -n 's/^# ARGS: //p' "$f" | head -n 1)
[ -n "$args" ] || args=--runtime=host_build_graph
tmp=${TMPDIR:-/tmp}/pto_golden.$$
rm -f "$tmp.out"
cd "$dir" || exit 1
# shellcheck disable=SC2086
"$tool" $args "$base.py" -o "$tmp.out" 2>"$tmp.err"
rc=$?
status=0
if [ -f "$base.out" ]; then
  if [ $rc -ne 0 ]; then echo "exit $rc, expected 0"; cat "$tmp.err"; status=1
  elif ! cmp -s "$base.out" "$tmp.out"; then echo "output differs:"; diff "$base.out" "$tmp.out"; status=1
  else
    # the output is valid Python, and pto-opt reads it back: it prints back
    # byte for byte and, legalized for host_build_graph, verifies
    if command -v python3 >/dev/null 2>&1 &&
       ! python3 -c 'import ast,sys; ast.parse(sys.stdin.read())' <"$tmp.out"; then
      echo "output is not valid Python"; status=1
    fi
    if ! "$tool" --passes= "$tmp.out" -o "$tmp.re" 2>"$tmp.err2" || ! cmp -s "$tmp.out" "$tmp.re"; then
      echo "output does not read back with pto-opt"; cat "$tmp.err2"; status=1
    fi
    case " $args " in
    *" --runtime=host_build_graph "*)
      case " $args " in *" --passes="*) ;; *)
        if ! "$tool" --runtime=host_build_graph --passes=verify-graph-boundary "$tmp.out" -o "$tmp.re" 2>"$tmp.err2"; then
          echo "output does not verify when read back"; cat "$tmp.err2"; status=1
        fi;;
      esac;;
    esac
  fi
elif [ -f "$base.err" ]; then
  if [ $rc -ne 1 ]; then echo "exit $rc, expected 1"; status=1; fi
  if [ -e "$tmp.out" ]; then echo "an output file was written on error"; status=1; fi
  while IFS= read -r line; do
    [ -z "$line" ] && continue
    grep -qF -- "$line" "$tmp.err" || { echo "missing in stderr: $line"; status=1; }
  done < "$base.err"
  grep -q "Segmentation\|Assertion\|AddressSanitizer\|runtime error" "$tmp.err" && { echo "crash"; status=1; }
  [ $status -ne 0 ] && cat "$tmp.err"
else
  echo "no $base.out or $base.err"; status=1
fi
rm -f "$tmp.out" "$tmp.err" "$tmp.re" "$tmp.err2"
exit $status
