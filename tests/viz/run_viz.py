"""Tests of hilo-opt's views (docs/viz.md): the DOT golden file, --around on
a real dump, the cost model against hand-computed figures, and extraction
of sub-modules from real dumps that then evaluate with hilo-run.
Usage: run_viz.py BUILD_DIR SOURCE_DIR CORPUS_DIR"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

build, src, corpus = sys.argv[1], sys.argv[2], sys.argv[3]
opt = os.path.join(build, "hilo-opt")
run = os.path.join(build, "hilo-run")
here = os.path.join(src, "tests", "viz")
failures = 0
checks = 0


def check(cond, what):
    global failures, checks
    checks += 1
    if not cond:
        failures += 1
        print("FAIL:", what)


def hopt(*args, ok=True):
    p = subprocess.run([opt] + list(args), capture_output=True, text=True)
    if ok and p.returncode != 0:
        print(p.stderr)
    return p


# 1. DOT golden file of a small module
p = hopt(os.path.join(src, "examples", "dus_chain.hlo"), "--emit=dot")
with open(os.path.join(here, "dus_chain.dot")) as f:
    check(p.returncode == 0 and p.stdout == f.read(), "dus_chain DOT differs from tests/viz/dus_chain.dot")
if shutil.which("dot"):
    r = subprocess.run(["dot", "-Tsvg"], input=p.stdout, capture_output=True, text=True)
    check(r.returncode == 0 and "<svg" in r.stdout and r.stdout.count("<g id=\"node") == 9,
          "Graphviz renders the DOT with 9 nodes")
else:
    print("note: Graphviz 'dot' missing: rendering not checked")

# 2. --around on the bundled real dump: a readable neighbourhood
real = os.path.join(src, "examples", "neuron_04_tnx_llama_seqshard_allgather_concat_slice_rmsnorm.hlo")
p = hopt(real, "--emit=dot", "--around=dot.283", "--depth=1")
nodes = re.findall(r"^    n(\d+) \[label=\"([^\\\"]*)", p.stdout, re.M)
names = [n for _, n in nodes]
check(p.returncode == 0 and "dot.283" in names and "reshape.282" in names and len(nodes) <= 8,
      "--around=dot.283 --depth=1 draws dot.283 and its neighbours only (%s)" % names)
p = hopt(real, "--emit=dot", "--around=no-such-instr", ok=False)
check(p.returncode == 2 and p.stderr.startswith("hilo-opt: error: --around: no instruction named 'no-such-instr' in "),
      "--around with an unknown name: a usage error with the tool's prefix")
p = hopt(real, "--emit=dot")
check(p.returncode == 0 and p.stdout.count("subgraph cluster_") >= 2, "whole-module DOT has a cluster per computation")

# 3. cost model, hand-computed
p = hopt(os.path.join(here, "stats_dot.hlo"), "--stats=ops-json")
st = json.loads(p.stdout)
entry = [c for c in st["computations"] if c["entry"]][0]
# dot: 2 * (2*4 outputs) * 3 contracted = 48 (2 per multiply-accumulate);
# convolution: 2 * (1*3*3*4 outputs) * (3*3 window * 2 input features) = 1296;
# both in their own category; reduce: 8 inputs ("other")
check(entry["categories"].get("dot-convolution", {}).get("flops") == 48 + 1296, "dot+convolution FLOPs %r" % entry["categories"])
check(entry["categories"]["other"]["flops"] == 8, "reduce: one flop per input element")
# exponential: a transcendental per element, no flop
check(entry["categories"]["elementwise"]["flops"] == 0 and entry["transcendentals"] == 8,
      "exponential: 8 transcendentals, 0 flops (%r)" % entry)
check(entry["categories"]["data-movement"]["flops"] == 0, "transpose does no arithmetic")
check(entry["opcodes"]["dot"] == 1 and entry["opcodes"]["parameter"] == 4, "opcode counts")
check(entry["parameter_bytes"] == (6 + 12 + 50 + 72) * 4, "parameter bytes")
check(entry["output_bytes"] == (2 + 8 + 36) * 4, "output bytes")
# transpose reads the dot's 32 bytes and writes 32
check(entry["categories"]["data-movement"]["bytes"] == 64, "transpose bytes %r" % entry["categories"]["data-movement"])
check(st["total"]["flops"] == entry["flops"] + 1 == 1353, "module total adds the reducer's add")
check(list(st.keys()) == ["module", "total", "computations"], "JSON: the module summary first (%r)" % list(st.keys()))
# per-instruction costs, as XLA's cost analysis reports them
costs = {c["name"]: c for c in entry["costs"]}
check(costs.get("d") == {"name": "d", "opcode": "dot", "flops": 48, "transcendentals": 0,
                         "bytes_accessed": (6 + 12 + 8) * 4}, "cost of the dot: %r" % costs.get("d"))
check(costs.get("e") == {"name": "e", "opcode": "exponential", "flops": 0, "transcendentals": 8,
                         "bytes_accessed": 64}, "cost of the exponential: %r" % costs.get("e"))
check(costs.get("a", {}).get("bytes_accessed") == 0 and len(costs) == 11, "every instruction has a cost, parameters 0")
p = hopt(os.path.join(here, "stats_dot.hlo"), "--stats=ops")
lines = p.stdout.splitlines()
check(lines[0] == "module stats_dot (2 computations; static counts): 14 instructions, parameters 560 B, output 184 B",
      "text statistics open with the module summary: %r" % lines[:1])
check(lines[2] == "  cost: 1353 flops, 8 transcendentals, 920 B accessed", "module cost line: %r" % lines[2:3])
check(re.match(r"    dot-convolution +1344 flops +736 B$", lines[3]) is not None, "dot/convolution category: %r" % lines[3:4])
check("computation ENTRY main:" in p.stdout and p.stdout.index("computation ") > p.stdout.index("module "),
      "computations after the module")
# transcendentals (exponential, tanh) and bytes for people: 1 MiB values
p = hopt(os.path.join(here, "stats_trans.hlo"), "--stats=ops")
check(p.stdout.startswith("module stats_trans (1 computation; static counts): 4 instructions, parameters 1.0 MiB, "
                          "output 1.0 MiB\n"), "human-readable parameter bytes: %r" % p.stdout[:120])
check("  cost: 262144 flops, 524288 transcendentals, 7.0 MiB accessed\n" in p.stdout,
      "exp + tanh: 2 x 262144 transcendentals, add 262144 flops, 7 MiB: %r" % p.stdout)
p = hopt(os.path.join(here, "stats_trans.hlo"), "--stats=ops-json")
st = json.loads(p.stdout)
check(st["total"]["transcendentals"] == 524288 and st["total"]["bytes_accessed"] == 7 * 2 ** 20,
      "JSON keeps exact counts: %r" % st["total"])

# 3b. DOT: tuple edges carry the operand index; beyond --around's depth a stub
p = hopt(os.path.join(here, "stats_dot.hlo"), "--emit=dot")
ids = dict((n, i) for i, n in re.findall(r'^    n(\d+) \[label="(?:ROOT )?([^\\"]+)\\n', p.stdout, re.M))
for k, op in enumerate(["r", "t", "cv"]):
    check(('  n%s -> n%s [label="%d"];' % (ids.get(op), ids.get("out"), k)) in p.stdout,
          "tuple edge %s -> out labelled %d" % (op, k))
check(not re.search(r"-> n%s \[label" % ids.get("s"), p.stdout), "add (commutative): no index on its edges")
p = hopt(os.path.join(src, "examples", "dus_chain.hlo"), "--emit=dot", "--around=dus.3", "--depth=2")
stubs = dict(re.findall(r'^    s(\d+) \[label="([^"]*)", shape=box, style="dashed,rounded"', p.stdout, re.M))
ids = dict((n, i) for i, n in re.findall(r'^    n(\d+) \[label="(?:ROOT )?([^\\"]+)\\n', p.stdout, re.M))
# depth 2 from dus.3 reaches dus.2, dus.1 and (through the shared constant
# col, a user edge) dus.0: dus.1's operand a and dus.0's operands base and c
# are beyond it (the constants are in the labels, not missing)
check(stubs.get(ids.get("dus.1")) == "1 more input:\\na", "stub on dus.1 names a: %r" % stubs)
check(stubs.get(ids.get("dus.0")) == "2 more inputs:\\nbase\\nc", "stub on dus.0 names base, c: %r" % stubs)
check(len(stubs) == 2 and ("  s%s -> n%s [style=dashed" % (ids.get("dus.1"), ids.get("dus.1"))) in p.stdout,
      "exactly two stubs, each with an edge to its node")
p = hopt(os.path.join(src, "examples", "dus_chain.hlo"), "--emit=dot", "--around=dus.3", "--depth=4")
check(p.returncode == 0 and "more input" not in p.stdout, "deep enough: no stub")

# 4. extraction from real dumps, evaluated with hilo-run
files = [real]
if os.path.isdir(os.path.join(corpus, "real")):
    files += sorted(os.path.join(corpus, "real", f) for f in os.listdir(os.path.join(corpus, "real"))
                    if f.endswith(".hlo"))
else:
    print("note: no corpus at %s: extraction checked on the bundled dump only" % corpus)
tmp = tempfile.mkdtemp()
extracted = 0
for path in files:
    with open(path) as f:
        text = f.read()
    # small arithmetic instructions of the entry computation
    cands = re.findall(r"^\s+(?:ROOT )?%?([\w.\-]+) = [fs]32\[(\d*(?:,\d+)?)\][^ ]* (add|multiply|dot|reduce|select)\(",
                       text, re.M)
    cands = [c for c in cands if all(int(x or 1) <= 4096 for x in c[1].split(","))][:2]
    for name, _, _ in cands:
        out = os.path.join(tmp, "x.hlo")
        p = hopt(path, "--extract=" + name, "--height=3", "-o", out)
        if not check(p.returncode == 0, "extract %s from %s: %s" % (name, path, p.stderr[:300])) and False:
            pass
        if p.returncode != 0:
            continue
        with open(out) as f:
            x = f.read()
        check(re.search(r"ROOT %?" + re.escape(name) + r" = ", x) is not None, "extracted root keeps the name %s" % name)
        r = subprocess.run([run, out], capture_output=True, text=True)
        check(r.returncode == 0 and r.stdout.startswith("output 0:"),
              "hilo-run evaluates the extract of %s from %s: %s" % (name, os.path.basename(path), r.stderr[:300]))
        extracted += 1
check(extracted >= 2, "at least two regions extracted")
p = hopt(real, "--extract=no-such", ok=False)
check(p.returncode == 2 and p.stderr.startswith("hilo-opt: error: --extract: no instruction named 'no-such' in "),
      "--extract of an unknown name: a usage error with the tool's prefix")
shutil.rmtree(tmp)
print("viz: %d regions extracted and evaluated" % extracted)
print("%d passed, %d failed" % (checks - failures, failures))
sys.exit(1 if failures else 0)
