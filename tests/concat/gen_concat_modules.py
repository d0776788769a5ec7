#!/usr/bin/env python3
"""Seeded generator test for the concatenation passes (seed 000: #27, #107, #108).

Builds N random HLO modules full of the patterns the passes look for --
slices / dynamic-slices of concatenates (exact windows, straddling, cropped,
strided, out-of-range starts that clamp), broadcast -> dynamic-update-slice
chains (exact tilings in random order, gaps, overlaps, extra users, clamped
starts), and simplify-concat idioms (constant selects, complementary pads,
nested concats, sums of concats, zero operands) -- and runs each through
`hilo-opt --pipeline=neuron --verify-each --check-equivalence`. Any verifier
failure (exit 3), equivalence mismatch (exit 4) or other error fails the
test. Prints how many modules ran, how many the passes changed, how many
the evaluator skipped.

usage: gen_concat_modules.py HILO_OPT [--seed=S] [--count=N] [--keep=DIR]
"""
import os
import random
import re
import subprocess
import sys
import tempfile


class Mod:
    def __init__(self, rng):
        self.rng = rng
        self.lines = []
        self.params = []
        self.outs = []
        self.n = 0

    def name(self, base):
        self.n += 1
        return "%s.%d" % (base, self.n)

    def param(self, shape):
        nm = self.name("p")
        self.lines.append("  %s = %s parameter(%d)" % (nm, shape, len(self.params)))
        self.params.append(nm)
        return nm

    def add(self, shape, text):
        nm = self.name("v")
        self.lines.append("  %s = %s %s" % (nm, shape, text))
        return nm

    def out(self, nm, shape):
        self.outs.append((nm, shape))

    def text(self):
        outs = self.outs or [(self.param("f32[]"), "f32[]")]
        body = list(self.lines)
        shp = "(%s)" % ", ".join(s for _, s in outs)
        body.append("  ROOT out = %s tuple(%s)" % (shp, ", ".join(n for n, _ in outs)))
        return "HloModule gen\n\nENTRY main {\n" + "\n".join(body) + "\n}\n"


def shp(t, dims):
    return "%s[%s]" % (t, ",".join(str(d) for d in dims))


def const(m, t, v):
    if t == "f32":
        return m.add("f32[]", "constant(%s)" % v)
    return m.add("%s[]" % t, "constant(%d)" % int(v))


def gen_slice_of_concat(m, rng):
    t = rng.choice(["f32", "s32"])
    rank = rng.randint(1, 3)
    cdim = rng.randrange(rank)
    other = [rng.randint(1, 3) for _ in range(rank)]
    widths = [rng.randint(1, 4) for _ in range(rng.randint(2, 4))]
    ops = []
    for w in widths:
        dims = list(other)
        dims[cdim] = w
        ops.append(m.param(shp(t, dims)))
    cdims = list(other)
    cdims[cdim] = sum(widths)
    cat = m.add(shp(t, cdims), "concatenate(%s), dimensions={%d}" % (", ".join(ops), cdim))
    bounds = [sum(widths[:k]) for k in range(len(widths) + 1)]
    for _ in range(rng.randint(1, 3)):
        k = rng.randrange(len(widths))
        start = [0] * rank
        limit = list(other)
        stride = [1] * rank
        start[cdim], limit[cdim] = bounds[k], bounds[k + 1]
        kind = rng.random()
        if kind < 0.15:      # straddle / shifted window
            s = rng.randint(0, cdims[cdim] - 1)
            start[cdim], limit[cdim] = s, rng.randint(s + 1, cdims[cdim])
        elif kind < 0.25 and rank > 1:   # cropped off-axis
            d = rng.choice([x for x in range(rank) if x != cdim])
            if other[d] > 1:
                limit[d] -= 1
        elif kind < 0.32:    # strided
            stride[cdim] = 2
        if rng.random() < 0.6:
            dims = [(limit[d] - start[d] + stride[d] - 1) // stride[d] for d in range(rank)]
            sl = ", ".join("[%d:%d%s]" % (start[d], limit[d], ":%d" % stride[d] if stride[d] != 1 else "")
                           for d in range(rank))
            v = m.add(shp(t, dims), "slice(%s), slice={%s}" % (cat, sl))
        else:
            sizes = [limit[d] - start[d] for d in range(rank)]
            idx = []
            for d in range(rank):
                s = start[d]
                r = rng.random()
                if r < 0.15:
                    s = rng.choice([-5, -1, cdims[d] + 3, 100])   # clamps
                idx.append(const(m, rng.choice(["s32", "s64", "u32"]) if s >= 0 else "s32", s))
            v = m.add(shp(t, sizes), "dynamic-slice(%s, %s), dynamic_slice_sizes={%s}"
                      % (cat, ", ".join(idx), ",".join(str(x) for x in sizes)))
            dims = sizes
        m.out(v, shp(t, dims))
    if rng.random() < 0.3:
        m.out(cat, shp(t, cdims))


def gen_dus_chain(m, rng):
    t = rng.choice(["f32", "s32"])
    rank = rng.randint(1, 3)
    axis = rng.randrange(rank)
    other = [rng.randint(1, 3) for _ in range(rank)]
    widths = [rng.randint(1, 3) for _ in range(rng.randint(2, 5))]
    base_dims = list(other)
    base_dims[axis] = sum(widths)
    z = const(m, t, rng.choice([0, 1, 7]))
    base = m.add(shp(t, base_dims), "broadcast(%s), dimensions={}" % z)
    offs = [sum(widths[:k]) for k in range(len(widths))]
    order = list(range(len(widths)))
    rng.shuffle(order)
    perturb = rng.random()
    cur = base
    links = []
    for pos, k in enumerate(order):
        dims = list(other)
        dims[axis] = widths[k]
        u = m.param(shp(t, dims))
        starts = [0] * rank
        starts[axis] = offs[k]
        if perturb < 0.1 and pos == 0:
            starts[axis] += 1                   # overlap / gap
        elif perturb < 0.2 and pos == len(order) - 1 and offs[k] + widths[k] == base_dims[axis]:
            starts[axis] = 1000                 # clamps back into place
        idx = [const(m, "s32", s) for s in starts]
        cur = m.add(shp(t, base_dims), "dynamic-update-slice(%s, %s, %s)" % (cur, u, ", ".join(idx)))
        links.append(cur)
    if perturb > 0.9 and len(links) > 1:
        m.out(links[0], shp(t, base_dims))     # extra user of an intermediate link
    if perturb > 0.8 and perturb <= 0.9 and len(order) > 2:
        # drop the last link: a gap
        m.lines.pop()
        cur = links[-2]
    m.out(cur, shp(t, base_dims))


def gen_simplify(m, rng):
    t = rng.choice(["f32", "s32"])
    n = rng.randint(1, 4)
    a_w, b_w, k = rng.randint(1, 3), rng.randint(1, 3), rng.randint(1, 2)
    kind = rng.randrange(5)
    if kind == 0:
        a = m.param(shp(t, [n]))
        b = m.param(shp(t, [n]))
        vals = rng.choice([["true"] * n, ["false"] * n, [rng.choice(["true", "false"]) for _ in range(n)]])
        p = m.add(shp("pred", [n]), "constant({%s})" % ", ".join(vals))
        m.out(m.add(shp(t, [n]), "select(%s, %s, %s)" % (p, a, b)), shp(t, [n]))
    elif kind == 1:
        a = m.param(shp(t, [k, a_w]))
        b = m.param(shp(t, [k, b_w]))
        zv = rng.choice(["0", "-0", "1"]) if t == "f32" else rng.choice(["0", "0", "2"])
        z = m.add("%s[]" % t, "constant(%s)" % zv)
        lo_b = a_w + rng.choice([0, 0, 0, -1, 1])
        lo_b = max(0, min(lo_b, a_w + b_w - b_w))
        pa = m.add(shp(t, [k, a_w + b_w]), "pad(%s, %s), padding=0_0x0_%d" % (a, z, b_w))
        pb = m.add(shp(t, [k, a_w + b_w]), "pad(%s, %s), padding=0_0x%d_%d" % (b, z, lo_b, a_w - lo_b))
        l, r = (pa, pb) if rng.random() < 0.5 else (pb, pa)
        m.out(m.add(shp(t, [k, a_w + b_w]), "add(%s, %s)" % (l, r)), shp(t, [k, a_w + b_w]))
    elif kind == 2:
        xs = [m.param(shp(t, [k, w])) for w in (a_w, b_w, 1)]
        d_in = rng.choice([0, 1])
        if d_in == 1:
            inner = m.add(shp(t, [k, a_w + b_w]), "concatenate(%s, %s), dimensions={1}" % (xs[0], xs[1]))
            m.out(m.add(shp(t, [k, a_w + b_w + 1]), "concatenate(%s, %s), dimensions={1}" % (inner, xs[2])),
                  shp(t, [k, a_w + b_w + 1]))
        else:
            y = m.param(shp(t, [k, a_w]))
            inner = m.add(shp(t, [2 * k, a_w]), "concatenate(%s, %s), dimensions={0}" % (xs[0], y))
            m.out(m.add(shp(t, [2 * k, a_w + 1]), "concatenate(%s, %s), dimensions={1}"
                        % (inner, m.param(shp(t, [2 * k, 1])))), shp(t, [2 * k, a_w + 1]))
    elif kind == 3:
        w2 = rng.choice([b_w, b_w + 1])
        a1, a2 = m.param(shp(t, [a_w, k])), m.param(shp(t, [b_w, k]))
        b1, b2 = m.param(shp(t, [a_w + b_w - w2, k])) if a_w + b_w - w2 > 0 else None, m.param(shp(t, [w2, k]))
        if b1 is None:
            return
        ca = m.add(shp(t, [a_w + b_w, k]), "concatenate(%s, %s), dimensions={0}" % (a1, a2))
        cb = m.add(shp(t, [a_w + b_w, k]), "concatenate(%s, %s), dimensions={0}" % (b1, b2))
        m.out(m.add(shp(t, [a_w + b_w, k]), "add(%s, %s)" % (ca, cb)), shp(t, [a_w + b_w, k]))
    else:
        zv = rng.choice(["0", "-0"]) if t == "f32" else "0"
        z = m.add("%s[]" % t, "constant(%s)" % zv)
        parts, total = [], 0
        for _ in range(rng.randint(2, 5)):
            w = rng.randint(1, 3)
            if rng.random() < 0.5:
                parts.append(m.add(shp(t, [k, w]), "broadcast(%s), dimensions={}" % z))
            else:
                parts.append(m.param(shp(t, [k, w])))
            total += w
        m.out(m.add(shp(t, [k, total]), "concatenate(%s), dimensions={1}" % ", ".join(parts)), shp(t, [k, total]))


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    opt = args[0]
    seed, count, keep = 1, 300, None
    for a in args[1:]:
        if a.startswith("--seed="):
            seed = int(a[7:])
        elif a.startswith("--count="):
            count = int(a[8:])
        elif a.startswith("--keep="):
            keep = a[7:]
    rng = random.Random(seed)
    work = keep or tempfile.mkdtemp(prefix="hilo_concat_gen_")
    os.makedirs(work, exist_ok=True)
    changed = skipped = failed = 0
    for i in range(count):
        m = Mod(rng)
        for _ in range(rng.randint(1, 3)):
            rng.choice([gen_slice_of_concat, gen_dus_chain, gen_simplify])(m, rng)
        path = os.path.join(work, "gen_%04d.hlo" % i)
        with open(path, "w") as f:
            f.write(m.text())
        p = subprocess.run([opt, path, "--pipeline=neuron", "--verify-each", "--check-equivalence=2",
                            "--seed=%d" % (seed + i), "--stats"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        if p.returncode != 0:
            failed += 1
            print("FAIL %s (exit %d)\n%s" % (path, p.returncode, p.stderr[-2000:]))
            continue
        if "equivalence: skipped" in p.stderr:
            skipped += 1
        mt = re.search(r"^\s*total\s+\S+\s+\d+\s+\d+\s+(\d+)", p.stderr, re.M)
        if mt and int(mt.group(1)) > 0:
            changed += 1
    print("concat generator: seed %d, %d modules, %d changed by the pipeline, %d equivalence-skipped, %d failed"
          % (seed, count, changed, skipped, failed))
    if not keep and failed == 0:
        for fn in os.listdir(work):
            os.unlink(os.path.join(work, fn))
        os.rmdir(work)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
