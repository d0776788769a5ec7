"""hilo-run with NumPy files: .npy inputs and --output-dir outputs compared
with numpy's own results (f32 dot + add, s32 arithmetic, pred, f16, bf16
as raw bits, tuple outputs), binary proto modules, -o, and the located
errors for a wrong shape, a wrong dtype and a Fortran-order file.
Usage: npy_test.py BUILD_DIR"""
import os
import subprocess
import sys
import tempfile

import numpy as np

build = sys.argv[1]
run = os.path.join(build, "hilo-run")
opt = os.path.join(build, "hilo-opt")
t = tempfile.mkdtemp()
fails = checks = 0


def check(c, what):
    global fails, checks
    checks += 1
    if not c:
        fails += 1
        print("FAIL:", what)


def hrun(*a):
    return subprocess.run([run] + list(a), capture_output=True, text=True)


mod = os.path.join(t, "m.hlo")
with open(mod, "w") as f:
    f.write("""HloModule npy

ENTRY main {
  a = f32[2,3] parameter(0)
  b = f32[3,4] parameter(1)
  i = s32[4] parameter(2)
  h = f16[3] parameter(3)
  w = bf16[2] parameter(4)
  d = f32[2,4] dot(a, b), lhs_contracting_dims={1}, rhs_contracting_dims={0}
  ic = f32[4] convert(i)
  bi = f32[2,4] broadcast(ic), dimensions={1}
  s = f32[2,4] add(d, bi)
  i2 = s32[4] multiply(i, i)
  z = s32[4] constant({0, 0, 0, 0})
  p = pred[4] compare(i, z), direction=GT
  h2 = f16[3] add(h, h)
  nw = bf16[2] negate(w)
  ROOT r = (f32[2,4], (s32[4], pred[4]), f16[3], bf16[2]) tuple(s, (s32[4], pred[4]) tuple(i2, p), h2, nw)
}
""")
rng = np.random.default_rng(0)
a = rng.integers(-4, 5, (2, 3)).astype(np.float32)
b = rng.integers(-4, 5, (3, 4)).astype(np.float32)
i = np.array([-2, 0, 3, 7], np.int32)
h = np.array([0.5, -1.25, 3.0], np.float16)
w = np.array([0x3f80, 0x4000], np.uint16)  # bf16 1.0, 2.0 as raw bits
names = []
for k, arr in enumerate([a, b, i, h, w]):
    names.append(os.path.join(t, "in%d.npy" % k))
    np.save(names[k], arr)
outdir = os.path.join(t, "out")
os.mkdir(outdir)
p = hrun(mod, *["--input=" + n for n in names], "--output-dir=" + outdir, "-o", os.path.join(t, "summary.txt"))
check(p.returncode == 0, "hilo-run with .npy inputs: %s" % p.stderr)
check("inputs from files: f32[2,3], f32[3,4], s32[4], f16[3], bf16[2]" in p.stderr, "stderr names the inputs: %s" % p.stderr)
check(p.stdout == "" and open(os.path.join(t, "summary.txt")).read().startswith("output 0: f32[2,4]"), "-o gets the summary")
if p.returncode == 0:
    got = np.load(os.path.join(outdir, "output_0.npy"))
    check(got.dtype == np.float32 and (got == a @ b + i.astype(np.float32)).all(), "dot + broadcast add matches numpy")
    got = np.load(os.path.join(outdir, "output_1_0.npy"))
    check(got.dtype == np.int32 and (got == i * i).all(), "s32 multiply matches numpy")
    got = np.load(os.path.join(outdir, "output_1_1.npy"))
    check(got.dtype == np.bool_ and (got == (i > 0)).all(), "pred compare matches numpy")
    got = np.load(os.path.join(outdir, "output_2.npy"))
    check(got.dtype == np.float16 and (got == h + h).all(), "f16 add matches numpy")
    got = np.load(os.path.join(outdir, "output_3.npy"))
    check(got.dtype == np.uint16 and list(got) == [0xbf80, 0xc000], "bf16 negate as raw bits")

# a binary proto module gives the same result
pb = os.path.join(t, "m.pb")
q = subprocess.run([opt, mod, "-o", pb], capture_output=True, text=True)
check(q.returncode == 0, "hilo-opt writes the proto: %s" % q.stderr)
p1 = hrun(mod, "--seed=4")
p2 = hrun(pb, "--seed=4")
check(p1.returncode == 0 and p1.stdout == p2.stdout and "random inputs (seed 4)" in p2.stderr,
      "a binary proto module evaluates like its text")
p3 = hrun(mod, "--seed=4", "--print")
check("input 0: f32[2,3]" in p3.stderr, "--print shows the generated inputs")

# errors
np.save(os.path.join(t, "bad_shape.npy"), np.zeros((3, 2), np.float32))
p = hrun(mod, "--input=" + os.path.join(t, "bad_shape.npy"), *["--input=" + n for n in names[1:]])
check(p.returncode == 1 and "the array has shape (3, 2), the parameter is f32[2,3]" in p.stderr, "wrong shape: %s" % p.stderr)
np.save(os.path.join(t, "bad_type.npy"), np.zeros((2, 3), np.float64))
p = hrun(mod, "--input=" + os.path.join(t, "bad_type.npy"), *["--input=" + n for n in names[1:]])
check(p.returncode == 1 and "'<f8' elements" in p.stderr and "bad_type.npy" in p.stderr, "wrong dtype: %s" % p.stderr)
np.save(os.path.join(t, "fortran.npy"), np.asfortranarray(a))
p = hrun(mod, "--input=" + os.path.join(t, "fortran.npy"), *["--input=" + n for n in names[1:]])
check(p.returncode == 1 and "Fortran-order" in p.stderr, "Fortran order refused: %s" % p.stderr)
with open(os.path.join(t, "trunc.npy"), "wb") as f:
    f.write(open(names[0], "rb").read()[:-5])
p = hrun(mod, "--input=" + os.path.join(t, "trunc.npy"), *["--input=" + n for n in names[1:]])
check(p.returncode == 1 and "bytes" in p.stderr, "truncated data refused: %s" % p.stderr)
print("%d passed, %d failed" % (checks - fails, fails))
sys.exit(1 if fails else 0)
