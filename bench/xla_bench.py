#!/usr/bin/env python3
"""bench/xla_bench.py BUILD FILE... : hilo against XLA on the same files,
in the same run (SPEC section 9: parse >= 10x, print >= 5x faster).

Run by bench/xla_bench.sh with the pinned jax venv's python. For each file,
one after the other so both meet the same machine load:
  hilo   BUILD/hilo-bench --tsv (best of several runs per phase: parse,
         print, proto write, proto read)
  XLA    jaxlib 0.10.2, best of several runs (at least 3, until 0.2 s):
         parse  jax._src.lib.hlo.hlo_module_from_text(text)
         print  module.to_string()  (XLA's default HloPrintOptions)
         write  module.as_serialized_hlo_module_proto()
         read   HloModule.from_serialized_hlo_module_proto(bytes)
Prints MB/s of the text for both and the speed ratio hilo/XLA (XLA's time
over hilo's) per file and in total (sum of times), and appends the totals
to BUILD/bench.tsv. A file in a printer style XLA's parser no longer reads
is timed, for both, as hilo prints it in XLA's default style (said so). Exit 0 unless a tool fails.
"""

import os
import subprocess
import sys
import tempfile
import time

GOALS = {"parse": 10.0, "print": 5.0}


def best_of(fn, min_time=0.2, min_runs=3, max_runs=50):
    best = float("inf")
    t_start = time.perf_counter()
    for run in range(max_runs):
        t0 = time.perf_counter()
        fn()
        t = time.perf_counter() - t0
        best = min(best, t)
        if run + 1 >= min_runs and time.perf_counter() - t_start >= min_time:
            break
    return best


def hilo_times(build, path):
    """{parse, print, write, read} seconds from hilo-bench (best runs)."""
    with tempfile.TemporaryDirectory(prefix="hilo-xla-bench-") as tmp:
        tsv = os.path.join(tmp, "t.tsv")
        p = subprocess.run([os.path.join(build, "hilo-bench"), "--min-time=0.2", "--tsv=" + tsv, path],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if p.returncode != 0 or not os.path.exists(tsv):
            raise RuntimeError("hilo-bench exit %d: %s" % (p.returncode, p.stderr.decode()[-300:]))
        row = open(tsv).read().strip().splitlines()[-1].split("\t")
    # file bytes instrs read copy parse verify print rss roundtrip pb_bytes pb_write pb_read
    return {"parse": float(row[5]), "print": float(row[7]), "write": float(row[11]),
            "read": float(row[12])}


def xla_times(hlo, text):
    m = hlo.hlo_module_from_text(text)
    pb = m.as_serialized_hlo_module_proto()
    return {
        "parse": best_of(lambda: hlo.hlo_module_from_text(text)),
        "print": best_of(lambda: m.to_string()),
        "write": best_of(lambda: m.as_serialized_hlo_module_proto()),
        "read": best_of(lambda: hlo.HloModule.from_serialized_hlo_module_proto(pb)),
    }


def main():
    if len(sys.argv) < 3:
        print("usage: xla_bench.py BUILD FILE...", file=sys.stderr)
        return 2
    build, files = sys.argv[1], sys.argv[2:]
    import jax  # noqa: F401
    from jax._src.lib import hlo
    phases = ("parse", "print", "write", "read")
    tot_h = dict.fromkeys(phases, 0.0)
    tot_x = dict.fromkeys(phases, 0.0)
    tot_bytes = 0
    rc = 0
    print("   %-50s %8s  %s" % ("file", "MB", "  ".join("%-22s" % ("%s hilo/XLA MB/s" % p) for p in phases)))
    tmp = tempfile.TemporaryDirectory(prefix="hilo-xla-bench-")
    for path in files:
        name = os.path.basename(path)
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        try:
            hlo.hlo_module_from_text(text)
        except Exception:
            # an older printer style XLA no longer reads (operand shapes,
            # ...): both are timed on the same module as hilo prints it in
            # XLA's default style
            conv = os.path.join(tmp.name, name)
            p = subprocess.run([os.path.join(build, "hilo-opt"), path, "--print-style=default", "-o", conv],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
            if p.returncode != 0:
                print("   %-50s hilo-opt --print-style=default exit %d" % (name, p.returncode))
                rc = 1
                continue
            path, name = conv, name + " (default style)"
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
        n = len(text.encode())
        try:
            h = hilo_times(build, path)
        except RuntimeError as e:
            print("   %-50s hilo failed: %s" % (name, e))
            rc = 1
            continue
        try:
            x = xla_times(hlo, text)
        except Exception as e:  # XLA's parser rejects even that
            print("   %-50s XLA does not parse it (%s): left out" % (name, str(e).strip().splitlines()[0][:100]))
            continue
        tot_bytes += n
        cells = []
        for p in phases:
            tot_h[p] += h[p]
            tot_x[p] += x[p]
            cells.append("%6.1fx %6.0f/%-6.0f" % (x[p] / h[p], n / h[p] / 1e6, n / x[p] / 1e6))
        print("   %-50s %8.2f  %s" % (name[:50] if len(name) <= 50 else name[:33] + "..." + name[-14:], n / 1e6, "  ".join("%-22s" % c for c in cells)), flush=True)
    tmp.cleanup()
    if not tot_bytes:
        print("   no file both parse")
        return rc
    print("   %-50s %8.2f  %s" % ("total", tot_bytes / 1e6, "  ".join(
        "%-22s" % ("%6.1fx %6.0f/%-6.0f" % (tot_x[p] / tot_h[p], tot_bytes / tot_h[p] / 1e6,
                                          tot_bytes / tot_x[p] / 1e6)) for p in phases)))
    for p, goal in GOALS.items():
        r = tot_x[p] / tot_h[p]
        print("   %s: hilo %.1fx XLA's speed, %s the %gx goal" % (p, r, "meets" if r >= goal else "BELOW", goal))
    tsv = os.path.join(build, "bench.tsv")
    if os.path.exists(tsv):
        with open(tsv, "a") as f:
            for p in phases:
                f.write("xla_ratio_%s\t%.2f\tx XLA\n" % (p, tot_x[p] / tot_h[p]))
                f.write("xla_%s\t%.1f\tMB/s\n" % (p, tot_bytes / tot_x[p] / 1e6))
    return rc


if __name__ == "__main__":
    sys.exit(main())
