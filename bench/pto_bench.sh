#!/bin/sh
# pto_bench.sh BUILD_DIR [SHARED_DIR] - SPEC §9: pto-opt legalizes a generated
# 10k-statement Graph program in under 100 ms (release build, single core).
# Prints the best of 5 runs beside a physical floor (reading the same bytes).
build=${1:-build}
tool=$build/pto-opt
[ -x "$tool" ] || { echo "pto_bench: $tool not built" >&2; exit 1; }
tmp=${TMPDIR:-/tmp}/pto_bench.$$
mkdir -p "$tmp" || exit 1
python3 - "$tmp/prog.py" <<'PY'
import sys
T = "pl.Tensor[[128, 128], pl.FP32]"; W = "pl.Tensor[[4096, 128], pl.FP32]"; I = "pl.Scalar[pl.INDEX]"
L = ["# pypto.program: Bench", "import pypto.language as pl", "", "@pl.program", "class Bench:"]
inc = "    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)"
L += [inc, f"    def kern(x: {T}, off: {I}, c: pl.InOut[{T}]) -> {T}:", "        return c"]
L += ["    @pl.function(type=pl.FunctionType.Graph, level=pl.Level.CHIP, role=pl.Role.Orchestrator)",
      f"    def layer(self, w: {W}, c: pl.InOut[{T}], idx: {I}) -> {T}:"]
b = []
for k in range(16):                      # Step A: derived scalars
    b.append(f"d{k}: {I} = idx * {k + 1} + {k}")
for k in range(16):                      # Step B: hoisted views
    b.append(f"v{k}: {T} = pl.tensor.slice(w, [128, 128], [d{k}, 0])")
    b.append(f"c_v{k}: {T} = self.kern(v{k}, d{k}, c)")
b.append(f"tmp: {T} = pl.tensor.create([128, 128], dtype=pl.FP32, layout=pl.TensorLayout.ND)")  # Step C
for k in range(1000):                    # replay-invariant: boundary dims
    b.append(f"m{k}: {I} = pl.tensor.dim(w, 0) + {k}")
b.append("for j in pl.range(2):")
for k in range(8000):                    # replay-invariant: constant-trip loop
    b.append(f"    o{k}: {I} = j * {k} + m{k % 1000}")
    if k % 20 == 0:
        b.append(f"    c_o{k}: {T} = self.kern(tmp, o{k}, c)")
L += ["        " + s for s in b] + ["        return c"]
L += ["    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)",
      f"    def main(self, w: {W}, c: pl.InOut[{T}]) -> {T}:",
      "        for i in pl.range(8):"]
for k in range(40):
    L.append(f"            c_{k}: {T} = self.layer(w, c, i + {k})")
L.append("        return c")
open(sys.argv[1], "w").write("\n".join(L) + "\n")
PY
stmts=$(grep -c '^        ' "$tmp/prog.py")
bytes=$(wc -c <"$tmp/prog.py")
python3 - "$tool" "$tmp" "$stmts" "$bytes" <<'PY'
import resource, subprocess, sys, time
tool, tmp, stmts, nbytes = sys.argv[1:5]
def run(cmd):
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    wall = (time.perf_counter() - t0) * 1000
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = ((r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)) * 1000
    return p.returncode, wall, cpu, p.stderr
best_wall = best_cpu = floor = 1e9
for _ in range(5):
    rc, wall, cpu, err = run([tool, "--runtime=host_build_graph", tmp + "/prog.py", "-o", tmp + "/out.py"])
    if rc != 0:
        sys.stderr.write("pto_bench: pto-opt failed:\n" + err.decode(errors="replace"))
        sys.exit(1)
    best_wall, best_cpu = min(best_wall, wall), min(best_cpu, cpu)
    floor = min(floor, run(["cat", tmp + "/prog.py"])[1])
lines = sum(1 for _ in open(tmp + "/out.py"))
# Judged on CPU time (user+sys): on a loaded machine wall time mostly measures
# waiting for a core; on an idle one the two agree.
verdict = "ok" if best_cpu < 100 else "OVER BUDGET (100 ms)"
print(f"pto-opt legalize+verify+print: {best_wall:.0f} ms wall, {best_cpu:.0f} ms cpu for {stmts} "
      f"statements ({nbytes} bytes), {lines} lines out; floor (cat same bytes): {floor:.0f} ms wall; {verdict}")
PY
rc=$?
[ $rc -eq 0 ] || { rm -rf "$tmp"; exit $rc; }
# Issue 20 section 3: scalar alias chains (linear, was quadratic: roots are
# memoized) and peak RSS against input + output size on 100k-statement
# programs, and a program of 4000 small functions (every function's analysis
# table is held at once: their per-table cost). Each run is measured alone. Peak RSS comes from GNU time's %M
# when /usr/bin/time exists: a child forked from this script starts with
# the script's resident pages (the generated program text, tens of MB), and
# the kernel's maxrss for it keeps them across the exec, so os.wait4's
# figure reads the script's size whenever pto-opt needs less. Without GNU
# time the wait4 figure is printed, marked as an upper bound.
python3 - "$tool" "$tmp" <<'PY'
import os, subprocess, sys, time
tool, tmp = sys.argv[1:3]
import sys
T = "pl.Tensor[[128, 128], pl.FP32]"; W = "pl.Tensor[[4096, 128], pl.FP32]"; I = "pl.Scalar[pl.INDEX]"
def head(L):
    L += ["# pypto.program: Bench", "import pypto.language as pl", "", "@pl.program", "class Bench:"]
    inc = "    @pl.function(type=pl.FunctionType.InCore, level=pl.Level.CHIP_DIE, role=pl.Role.SubWorker)"
    L += [inc, f"    def kern(x: {T}, off: {I}, c: pl.InOut[{T}]) -> {T}:", "        return c"]
    L += ["    @pl.function(type=pl.FunctionType.Graph, level=pl.Level.CHIP, role=pl.Role.Orchestrator)",
          f"    def layer(self, w: {W}, c: pl.InOut[{T}], idx: {I}) -> {T}:"]
def tail(L, sites):
    L += ["    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)",
          f"    def main(self, w: {W}, c: pl.InOut[{T}]) -> {T}:", "        for i in pl.range(8):"]
    for k in range(sites):
        L.append(f"            c_{k}: {T} = self.layer(w, c, i + {k})")
    L.append("        return c")
def aliases(n):
    L = []; head(L)
    b = [f"a0: {I} = idx", f"d0: {I} = idx * 2", f"e0: {I} = d0"]
    for k in range(1, n):
        b.append(f"a{k}: {I} = a{k-1}")
    for k in range(1, n // 2):
        b.append(f"e{k}: {I} = e{k-1}")
    b.append(f"t: {T} = pl.tensor.slice(w, [128, 128], [e{n//2 - 1}, 0])")
    b.append(f"c_1: {T} = self.kern(t, a{n-1}, c)")
    b.append(f"c_2: {T} = self.kern(t, e{n//2 - 1}, c)")
    L += ["        " + s for s in b] + ["        return c"]
    tail(L, 40)
    return L
def funcs(n):
    # n small orchestration functions calling one Graph: each function's
    # analysis table is held at once (SSA check through host control)
    L = []; head(L)
    L += [f"        d0: {I} = idx * 2", f"        v0: {T} = pl.tensor.slice(w, [128, 128], [d0, 0])",
          f"        c_1: {T} = self.kern(v0, d0, c)", "        return c"]
    for k in range(n):
        L += ["    @pl.function(type=pl.FunctionType.Orchestration, level=pl.Level.CHIP, role=pl.Role.Orchestrator)",
              f"    def main{k}(self, w: {W}, c: pl.InOut[{T}]) -> {T}:",
              f"        c_{k}: {T} = self.layer(w, c, {k})", "        return c"]
    return L
def big(scale):
    L = []; head(L)
    b = []
    for k in range(16):
        b.append(f"d{k}: {I} = idx * {k + 1} + {k}")
    for k in range(16):
        b.append(f"v{k}: {T} = pl.tensor.slice(w, [128, 128], [d{k}, 0])")
        b.append(f"c_v{k}: {T} = self.kern(v{k}, d{k}, c)")
    b.append(f"tmp: {T} = pl.tensor.create([128, 128], dtype=pl.FP32, layout=pl.TensorLayout.ND)")
    for k in range(1000):
        b.append(f"m{k}: {I} = pl.tensor.dim(w, 0) + {k}")
    b.append("for j in pl.range(2):")
    for k in range(scale):
        b.append(f"    o{k}: {I} = j * {k} + m{k % 1000}")
        if k % (20 * scale // 8000) == 0:
            b.append(f"    c_o{k}: {T} = self.kern(tmp, o{k}, c)")
    L += ["        " + s for s in b] + ["        return c"]
    tail(L, 40)
    return L

gnu_time = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None
def run_once(src, out):
    """(cpu s, wall s, peak RSS bytes) of one pto-opt run."""
    cmd = [tool, "--runtime=host_build_graph", src, "-o", out]
    if gnu_time:
        cmd = [gnu_time, "-f", "%M", "-o", f"{tmp}/rss"] + cmd
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    err = p.stderr.read()
    _, status, ru = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    if status != 0:
        sys.stderr.write("pto_bench: pto-opt failed:\n" + err.decode(errors="replace"))
        sys.exit(1)
    rss = ru.ru_maxrss * 1024
    if gnu_time:
        rss = int(open(f"{tmp}/rss").read().split()[-1]) * 1024
    return ru.ru_utime + ru.ru_stime, wall, rss
bound = "" if gnu_time else " (upper bound: no /usr/bin/time)"
# the process baseline (binary, libc, first arena chunks): what pto-opt
# costs on a program with nothing in it; each figure below also says its
# ratio above it, since on the small programs that fixed cost is most of it
src, out = f"{tmp}/empty.py", f"{tmp}/empty.out"
open(src, "w").write("# pypto.program: Empty\nimport pypto.language as pl\n\n@pl.program\nclass Empty:\n    pass\n")
base_rss = min(run_once(src, out)[2] for _ in range(3))
def measure(kind, n):
    src = f"{tmp}/{kind}{n}.py"
    out = f"{tmp}/{kind}{n}.out"
    L = aliases(n) if kind == "alias" else funcs(n) if kind == "funcs" else big(n)
    open(src, "w").write("\n".join(L) + "\n")
    nlines = len(L)
    del L
    best = None
    for _ in range(3):
        r = run_once(src, out)
        best = r if best is None or r[0] < best[0] else best
    ib, ob = os.path.getsize(src), os.path.getsize(out)
    cpu, wall, rss = best
    what = f"{n} aliases" if kind == "alias" else f"{n} functions" if kind == "funcs" else f"{nlines} statements"
    # issue 20's target: peak RSS at most 3x input + output
    target = 3 * (ib + ob)
    verdict = "within" if rss <= target else f"{(rss - target) / 1e6:.1f} MB over"
    print(f"pto-opt {what}: {cpu * 1000:.0f} ms cpu, {wall * 1000:.0f} ms wall, peak RSS {rss / 1e6:.1f} MB "
          f"= {rss / (ib + ob):.1f}x input+output ({ib / 1e6:.2f} + {ob / 1e6:.2f} MB; "
          f"{(rss - base_rss) / (ib + ob):.1f}x above the process baseline); "
          f"3x target {target / 1e6:.1f} MB: {verdict}{bound}")
for n in (10000, 40000, 100000):
    measure("alias", n)
measure("big", 98000)
measure("funcs", 4000)
print(f"pto-opt empty program (process baseline): peak RSS {base_rss / 1e6:.1f} MB{bound}")
PY
rc=$?
rm -rf "$tmp"
exit $rc
