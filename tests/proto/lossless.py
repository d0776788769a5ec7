#!/usr/bin/env python3
"""Binary protos kept byte for byte (issue 34).

  lossless.py HILO_OPT HILO_RUN FIXTURES_DIR TMP_DIR

1. Every fixture (tests/proto/fixtures: XLA's own dumps, made by
   gen_fixtures.py with jax) is written back byte-identical by
   `hilo-opt F -o G`.
2. Hand-built HloModuleProtos, in all three forms (bare, HloProto with a
   buffer assignment, HloSnapshot with argument literals), carrying a
   schedule, input_output_alias, buffer donors, a stack-frame index,
   frontend attributes, a device assignment, a module id and unknown
   fields at the module, computation, instruction, shape, layout and
   metadata levels:
   - unmodified: byte-identical;
   - modified (dce removes an instruction, cse merges two, constant-folding
     makes a new one): every field hilo does not own is still there and
     byte-identical, unchanged instructions are their input bytes, the
     schedule is valid for the new module (every instruction once, after
     its operands) and keeps the old order, the buffer assignment is
     dropped with a warning, a snapshot keeps its arguments; the output is
     read back by hilo and written again byte-identical;
   - printed as text, the module shows is_scheduled=true,
     input_output_alias=, buffer_donor=, frontend_attributes= and the
     stack-frame tables, as XLA's printer does.
3. hilo-run replays XLA's HloSnapshot on its own arguments (the result
   equals the one XLA recorded, bit for bit) and writes one (--snapshot)
   that replays the same and is stable through hilo-opt.
The protobuf wire format is written and read here by hand (no protobuf
package needed)."""
import os
import subprocess
import sys

OPT, RUN, FIXTURES, TMP = sys.argv[1:5]
failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what)


# ---- wire format ----

def varint(v):
    v &= (1 << 64) - 1
    out = bytearray()
    while v >= 0x80:
        out.append((v & 0x7F) | 0x80)
        v >>= 7
    out.append(v)
    return bytes(out)


def tag(num, wt):
    return varint(num << 3 | wt)


def f_int(num, v):
    return tag(num, 0) + varint(v)


def f_len(num, payload):
    return tag(num, 2) + varint(len(payload)) + payload


def f_str(num, s):
    return f_len(num, s.encode() if isinstance(s, str) else s)


def packed(num, vals):
    return f_len(num, b"".join(varint(v) for v in vals))


def read_varint(b, i):
    r = s = 0
    while True:
        c = b[i]
        i += 1
        r |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return r, i


def fields(b):
    """[(num, wt, value, raw_bytes)] of a message."""
    out, i = [], 0
    while i < len(b):
        start = i
        t, i = read_varint(b, i)
        num, wt = t >> 3, t & 7
        if wt == 0:
            v, i = read_varint(b, i)
        elif wt == 1:
            v, i = b[i:i + 8], i + 8
        elif wt == 5:
            v, i = b[i:i + 4], i + 4
        elif wt == 2:
            n, i = read_varint(b, i)
            v, i = b[i:i + n], i + n
        else:
            raise ValueError("wire type %d" % wt)
        out.append((num, wt, v, b[start:i]))
    return out


def get(b, num):
    return [v for n, _, v, _ in fields(b) if n == num]


def raw(b, num):
    return [r for n, _, _, r in fields(b) if n == num]


def ints(v):
    if isinstance(v, int):
        return [v]
    out, i = [], 0
    while i < len(v):
        x, i = read_varint(v, i)
        out.append(x)
    return out


# ---- a module ----

F32 = 11
UNK_SHAPE = f_int(77, 5)        # unknown fields at each nesting level
UNK_LAYOUT = f_int(99, 1)
UNK_MD = f_str(88, "md-extra")
UNK_INSTR = f_str(800, "instr-extra")
UNK_COMP = f_int(900, 42)
UNK_MODULE = f_str(999, "module-extra") + f_int(998, 7)


def shape(dims=(4,), extra=True):
    s = f_int(2, F32) + packed(3, dims)
    s += f_len(5, packed(1, list(range(len(dims)))[::-1]) + (UNK_LAYOUT if extra else b""))
    s += packed(6, [0] * len(dims))
    return s + (UNK_SHAPE if extra else b"")


def scalar_shape():
    return f_int(2, F32) + f_len(5, b"")


def instr(name, op, iid, operands=(), shp=None, param=None, frame=0, literal=None):
    b = f_str(1, name) + f_str(2, op) + f_len(3, shp if shp is not None else shape())
    md = f_str(2, "jit(f)/" + name)
    if frame:
        md += f_int(15, frame)
    b += f_len(7, md + UNK_MD)
    if literal is not None:
        b += f_len(8, literal)
    if param is not None and param:
        b += f_int(9, param)
    b += f_int(35, iid)
    if operands:
        b += packed(36, operands)
    return b + UNK_INSTR


BASE = 1 << 32  # XLA's ids: computation in the high bits


def module(constants=False, comp_name="main", dead_name="dead"):
    P0, P1, ADD, DUP, DEAD, C1, C2, CADD, ROOT = (BASE + k for k in range(9))
    ins = [instr("p0", "parameter", P0, param=0, frame=1),
           instr("p1", "parameter", P1, param=1, frame=1),
           instr("add", "add", ADD, (P0, P1), frame=2),
           instr("dup", "add", DUP, (P0, P1), frame=2),
           instr(dead_name, "multiply", DEAD, (P0, P0), frame=3)]
    seq = [P0, P1, ADD, DUP, DEAD]
    root_ops = [ADD, DUP]
    if constants:
        lit = f_len(1, shape()) + f_len(8, b"\x00\x00\x80\x3f" * 4)
        ins += [instr("c1", "constant", C1, literal=lit),
                instr("c2", "constant", C2, literal=lit),
                instr("cadd", "add", CADD, (C1, C2))]
        seq += [C1, C2, CADD]
        root_ops.append(CADD)
    tup = f_int(2, 13) + b"".join(f_len(4, shape(extra=False)) for _ in root_ops) + UNK_SHAPE
    ins.append(instr("root", "tuple", ROOT, root_ops, shp=tup))
    seq.append(ROOT)
    pshape = f_len(1, shape()) + f_len(1, shape()) + f_len(2, tup) + f_str(3, "p0") + f_str(3, "p1")
    comp = (f_str(1, comp_name) + b"".join(f_len(2, i) for i in ins) + f_len(4, pshape) +
            f_int(5, 1) + f_int(6, ROOT) + UNK_COMP)
    sched = f_len(1, f_int(1, 1) + f_len(2, packed(1, seq)))
    alias = f_len(1, packed(1, [0]) + f_int(2, 0) + f_int(4, 1))
    donor = f_len(1, f_int(1, 1))
    frames = (f_str(1, "model.py") + f_str(2, "main") + f_str(2, "layer") +
              f_len(3, f_int(1, 1) + f_int(2, 1) + f_int(3, 10) + f_int(4, 2) + f_int(5, 10) + f_int(6, 9)) +
              f_len(3, f_int(1, 1) + f_int(2, 2) + f_int(3, 20) + f_int(4, 4) + f_int(5, 21) + f_int(6, 5)) +
              f_len(4, f_int(1, 1)) + f_len(4, f_int(1, 2) + f_int(2, 1)) + f_len(4, f_int(1, 2) + f_int(2, 2)))
    fa = f_len(1, f_str(1, "fingerprint_before_lhs") + f_str(2, "abc123"))
    devices = f_int(1, 1) + f_int(2, 1) + f_len(3, packed(1, [0]))
    return (f_str(1, "lossless") + f_str(2, "main") + f_len(3, comp) + f_len(4, pshape) +
            f_int(5, 17) + f_int(6, 1) + f_len(7, sched) + f_len(8, alias) + f_len(15, devices) +
            f_len(17, frames) + f_len(18, donor) + f_len(19, fa) + UNK_MODULE)


def wrap(form, mod):
    if form == "module":
        return mod
    hp = f_len(1, mod) + f_len(3, b"\x0a\x02\x08\x01") + f_int(7, 3)  # buffer assignment, unknown
    if form == "hloproto":
        return hp
    arg = f_len(1, shape()) + f_len(8, b"\x00\x00\x00\x40" * 4)
    return f_len(1, hp) + f_len(2, arg) + f_len(2, arg) + f_str(4, "Host")


def module_of(form, b):
    if form == "module":
        return b
    hp = b if form == "hloproto" else get(b, 1)[0]
    return get(hp, 1)[0]


def run(args, name):
    p = subprocess.run([OPT] + args, capture_output=True)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def write(name, data):
    path = os.path.join(TMP, name)
    with open(path, "wb") as fh:
        fh.write(data)
    return path


def read(path):
    with open(path, "rb") as fh:
        return fh.read()


def check_schedule(mod, what):
    """The schedule names every instruction of its computation once, after
    its operands; returns the sequence of the one computation."""
    comps = {get(c, 5)[0] if get(c, 5) else 0: c for c in get(mod, 3)}
    (sched,) = get(mod, 7)
    seqs = {}
    for e in get(sched, 1):
        key = get(e, 1)[0] if get(e, 1) else 0
        ids = []
        for s in get(e, 2):
            for v in get(s, 1):
                ids += ints(v)
        seqs[key] = ids
        check(key in comps, "%s: schedule names computation %d, which exists" % (what, key))
        if key not in comps:
            continue
        c = comps[key]
        have = {}
        for i in get(c, 2):
            iid = get(i, 35)[0] if get(i, 35) else 0
            ops = []
            for v in get(i, 36):
                ops += ints(v)
            have[iid] = ops
        check(sorted(ids) == sorted(have), "%s: the sequence holds each instruction once" % what)
        pos = {iid: k for k, iid in enumerate(ids)}
        for iid, ops in have.items():
            for o in ops:
                check(o in pos and iid in pos and pos[o] < pos[iid],
                      "%s: operand %d scheduled before %d" % (what, o, iid))
    return seqs


XLA_READS = '''
import sys
sys.path.insert(0, sys.argv[1])
import xlalib
# modified modules: XLA reads each (its schedule verified on load)
n = int(sys.argv[2])
for path in sys.argv[3:3 + n]:
    r = xlalib.xla_parse_proto(open(path, "rb").read())
    assert r["ok"], (path, r["error"])
    assert "is_scheduled=true" in r["default"], r["default"][:200]
    print("ok", path)
# pairs (original, modified): XLA runs both, outputs bit for bit the same
rest = sys.argv[3 + n:]
for a, b in zip(rest[0::2], rest[1::2]):
    ra = xlalib.xla_run(open(a, "rb").read(), seed=1)
    rb = xlalib.xla_run(open(b, "rb").read(), inputs=ra.get("inputs"))
    assert ra["ok"] and rb["ok"], (a, ra.get("error"), b, rb.get("error"))
    d = xlalib.compare_bits(ra["outputs"], rb["outputs"])
    assert d is None, (b, d)
    print("same", b)
'''
xla_inputs = []


def main():
    os.makedirs(TMP, exist_ok=True)
    # 1. XLA's own dumps
    n = 0
    for name in sorted(os.listdir(FIXTURES)):
        if not name.endswith(".pb"):
            continue
        n += 1
        src = os.path.join(FIXTURES, name)
        out = os.path.join(TMP, "fx_" + name)
        rc, _, err = run([src, "-o", out], name)
        check(rc == 0, "%s: read and written (%s)" % (name, err.strip()))
        check(rc == 0 and read(out) == read(src), "%s: written back byte-identical" % name)
    check(n >= 5, "fixtures found (%d)" % n)

    # 2. hand-built modules in each form
    for form in ("module", "hloproto", "snapshot"):
        for constants in (False, True):
            data = wrap(form, module(constants))
            tagname = "%s%s" % (form, "_c" if constants else "")
            src = write("in_%s.pb" % tagname, data)
            out = os.path.join(TMP, "out_%s.pb" % tagname)
            rc, _, err = run([src, "-o", out], tagname)
            check(rc == 0 and read(out) == data, "%s: unmodified, byte-identical (%s)" % (tagname, err.strip()))
            passes = ["dce", "cse"] + (["constant-folding"] if constants else [])
            for ps in passes:
                what = "%s --passes=%s" % (tagname, ps)
                out = os.path.join(TMP, "out_%s_%s.pb" % (tagname, ps))
                rc, _, err = run([src, "--passes=" + ps, "-o", out], what)
                check(rc == 0, "%s: exit 0 (%s)" % (what, err.strip()))
                if rc != 0:
                    continue
                got = read(out)
                check(got != data, "%s: the module changed" % what)
                m_in, m_out = module_of(form, data), module_of(form, got)
                for num in (5, 8, 15, 17, 18, 19, 998, 999):
                    check(raw(m_out, num) == raw(m_in, num), "%s: module field %d kept byte for byte" % (what, num))
                (c_in,), (c_out,) = get(m_in, 3), get(m_out, 3)
                check(raw(c_out, 900) == raw(c_in, 900), "%s: the computation's unknown field kept" % what)
                ins_in = {bytes(r) for r in raw(c_in, 2)}
                ins_out = raw(c_out, 2)
                names_out = {get(i, 1)[0].decode(): i for i in get(c_out, 2)}
                for nm in ("p0", "p1", "add"):
                    check(nm in names_out and f_len(2, names_out[nm]) in ins_in,
                          "%s: unchanged instruction %s is its input bytes" % (what, nm))
                for i in get(c_out, 2):
                    check(raw(i, 800) == [UNK_INSTR] or get(i, 1)[0] in (b"root", b"constant", b"cadd")
                          or get(i, 2)[0] == b"constant",
                          "%s: instruction %s keeps its unknown field" % (what, get(i, 1)[0]))
                if ps == "cse":
                    # the root was rewritten (its operands changed): its shape,
                    # unchanged, keeps its input bytes (unknown field included)
                    names_in = {get(i, 1)[0].decode(): i for i in get(c_in, 2)}
                    check(f_len(2, names_out["root"]) not in ins_in and
                          raw(names_out["root"], 3) == raw(names_in["root"], 3),
                          "%s: the rewritten root keeps its shape's input bytes" % what)
                gone = {"dce": "dead", "cse": "dup", "constant-folding": "cadd"}[ps]
                check(gone not in names_out, "%s: %s is gone" % (what, gone))
                seqs = check_schedule(m_out, what)
                old = [BASE + k for k in range(9)]
                kept = [i for i in seqs.get(1, []) if i in old]
                check(kept == sorted(kept), "%s: the schedule keeps the old order" % what)
                if form == "hloproto" or form == "snapshot":
                    hp_out = got if form == "hloproto" else get(got, 1)[0]
                    check(get(hp_out, 3) == [], "%s: the buffer assignment is dropped" % what)
                    check("buffer assignment" in err and "dropped" in err, "%s: ... with a warning" % what)
                    check(raw(hp_out, 7) == [f_int(7, 3)], "%s: HloProto's unknown field kept" % what)
                if form == "snapshot":
                    check(raw(got, 2) == raw(data, 2) and raw(got, 4) == raw(data, 4),
                          "%s: the snapshot's arguments and platform kept" % what)
                xla_inputs.append(write("xla_%s_%s.pb" % (tagname, ps), m_out))
                again = os.path.join(TMP, "again_%s_%s.pb" % (tagname, ps))
                rc, _, err = run([out, "-o", again], what)
                check(rc == 0 and read(again) == got, "%s: read back and written again byte-identical (%s)" % (what, err.strip()))

    # 3. text shows what XLA's printer shows
    src = os.path.join(TMP, "in_hloproto.pb")
    rc, text, err = run([src], "text")
    head = text.split("\n", 1)[0]
    check(rc == 0, "text print (%s)" % err.strip())
    for want in ("HloModule lossless, is_scheduled=true", "input_output_alias={ {0}: (0, {}, may-alias) }",
                 "buffer_donor={ (1, {}) }", 'frontend_attributes={fingerprint_before_lhs="abc123"}'):
        check(want in head, "the HloModule line shows %s: %s" % (want, head))
    for want in ("FileNames\n1 \"model.py\"", "FunctionNames\n1 \"main\"\n2 \"layer\"",
                 "FileLocations\n1 {file_name_id=1 function_name_id=1 line=10 end_line=10 column=2 end_column=9}",
                 "StackFrames\n1 {file_location_id=1 parent_frame_id=1}\n2 {file_location_id=2 parent_frame_id=2}",
                 "stack_frame_id=3}", "ENTRY %main (p0: f32[4], p1: f32[4]) -> (f32[4], f32[4]) {"):
        check(want in text, "the text shows %r" % want)

    # 3c. text-format protos (.pbtxt): binary -> text -> binary byte-identical
    for name in sorted(os.listdir(FIXTURES)):
        if not name.endswith(".pb"):
            continue
        src = os.path.join(FIXTURES, name)
        txt = os.path.join(TMP, name + "txt")
        back = os.path.join(TMP, "back_" + name)
        rc1, _, e1 = run([src, "-o", txt], name)
        rc2, _, e2 = run([txt, "-o", back], name)
        check(rc1 == 0 and rc2 == 0 and read(back) == read(src),
              "%s -> .pbtxt -> .pb byte-identical (%s %s)" % (name, e1.strip(), e2.strip()))
        rc3, _, _ = run([txt, "--emit=pbtxt", "-o", txt + "2"], name)
        check(rc3 == 0 and read(txt + "2") == read(txt), "%s: .pbtxt written back the same" % name)
    # the other spellings of the text format read the same
    with open(os.path.join(TMP, "relu_matmul.module.pbtxt")) as fh:
        canon = fh.read()
    alt = "# a comment\n" + canon.replace("computations {", "computations: <", 1)
    i = alt.index("computations: <")
    j = alt.index("\n}\n", i)  # the first top-level message's end
    alt = alt[:j] + "\n>\n" + alt[j + 3:]
    alt = alt.replace("id: ", "id : ", 3)
    rc, _, err = run([write("alt.pbtxt", alt.encode()), "-o", os.path.join(TMP, "alt.pb")], "alt")
    check(rc == 0 and read(os.path.join(TMP, "alt.pb")) == read(os.path.join(FIXTURES, "relu_matmul.module.pb")),
          "comments, '<...>' and 'name : value' read as the canonical text does (%s)" % err.strip())
    bad = canon.replace("opcode:", "opcod:", 1)
    rc, _, err = run([write("bad.pbtxt", bad.encode())], "bad")
    line = canon[:canon.index("opcode:")].count("\n") + 1
    check(rc == 1 and ("bad.pbtxt:%d:" % line) in err and "has no field 'opcod'" in err,
          "an unknown field name is FILE:LINE:COL: %s" % err.strip())

    # 3d. the stack-frame tables of HLO text go to the typed
    # stack_frame_index when written as a proto (XLA resolves stack_frame_id
    # by it): XLA's proto -> text -> proto gives XLA's field back exactly
    for name in ("matmul_after.hloproto.pb", "scan_before.hloproto.pb"):
        src = os.path.join(FIXTURES, name)
        txt = os.path.join(TMP, "frames_" + name + ".hlo")
        back = os.path.join(TMP, "frames_" + name)
        rc1, text, _ = run([src], name)
        with open(txt, "w") as fh:
            fh.write(text)
        rc2, _, err = run([txt, "-o", back], name)
        want = get(module_of("hloproto", read(src)), 17)
        check(rc1 == 0 and rc2 == 0 and want and get(read(back), 17) == want,
              "%s -> text -> proto: stack_frame_index as XLA wrote it (%s)" % (name, err.strip()))

    # 3a. another form on request: the module as read, in or out of wrappers
    for name, form, inner in (("matmul_after.hloproto.pb", "module", 1), ("scan.snapshot.pb", "module", 2),
                              ("scan.snapshot.pb", "hlo-proto", 1), ("relu_matmul.module.pb", "snapshot", -2),
                              ("relu_matmul.module.pb", "hlo-proto", -1)):
        src = os.path.join(FIXTURES, name)
        out = os.path.join(TMP, "form_%s_%s.pb" % (form, name))
        rc, _, err = run([src, "--proto-form=" + form, "-o", out], name)
        want = read(src)
        for _ in range(max(inner, 0)):
            want = get(want, 1)[0]
        for _ in range(max(-inner, 0)):
            want = f_len(1, want)
        check(rc == 0 and read(out) == want, "%s --proto-form=%s: the module as read, %s" % (name, form, err.strip()))

    # 3b. snapshots: hilo-run replays XLA's on its arguments, writes its own
    snap = os.path.join(FIXTURES, "scan.snapshot.pb")
    mine = os.path.join(TMP, "replay.snapshot.pb")
    p = subprocess.run([RUN, snap, "--print", "--snapshot=" + mine], capture_output=True)
    err = p.stderr.decode(errors="replace")
    check(p.returncode == 0 and "inputs from the snapshot" in err, "hilo-run replays the snapshot: %s" % err)
    if p.returncode == 0:
        theirs, ours = read(snap), read(mine)
        lit_values = lambda lit: [v for n, _, v, _ in fields(lit) if n != 1]
        check([lit_values(a) for a in get(ours, 2)] == [lit_values(a) for a in get(theirs, 2)],
              "the written snapshot holds the arguments used")
        check(get(theirs, 3) and lit_values(get(ours, 3)[0]) == lit_values(get(theirs, 3)[0]),
              "hilo-run's result equals the one XLA recorded, bit for bit")
        check(get(get(ours, 1)[0], 1) == get(get(theirs, 1)[0], 1), "the written snapshot holds the module as read")
        q = subprocess.run([RUN, mine, "--print"], capture_output=True)
        check(q.returncode == 0 and q.stdout == p.stdout, "hilo-run replays its own snapshot the same")
        again = os.path.join(TMP, "replay_again.pb")
        rc, _, e2 = run([mine, "-o", again], "snapshot")
        check(rc == 0 and read(again) == ours, "hilo-opt writes hilo-run's snapshot back byte-identical (%s)" % e2)

    # 4. names the text form cannot hold are refused at their byte (a fuzz
    # finding: a module name with a newline and invalid UTF-8 was read,
    # printed raw into the HloModule line and written back as a proto hilo
    # then rejected); fuzz/corpus_proto/name_newline_utf8.pb pins it
    seed = read(os.path.join(os.path.dirname(FIXTURES), "..", "..", "fuzz", "corpus_proto",
                             "name_newline_utf8.pb"))
    cases = [("module", seed, "the module name \"m\\x0a\\xffx\" has byte 0x0a"),
             ("computation", module(comp_name="ma in"), "a computation name \"ma in\" has byte 0x20"),
             ("instruction", module(dead_name="de:ad"), 'instruction name "de:ad" cannot be printed')]
    for what, data, want in cases:
        src = write("bad_name_%s.pb" % what, data)
        out = os.path.join(TMP, "bad_name_%s.out" % what)
        if os.path.exists(out):
            os.remove(out)
        rc, text, err = run([src, "-o", out], what)
        check(rc == 1 and want in err and (what == "instruction" or "at byte" in err) and not os.path.exists(out),
              "a %s name that is no HLO identifier is refused (at its byte), nothing written: rc=%d %s" %
              (what, rc, err.strip()))
        rc, text, err = run([src], what)
        check(rc == 1 and text == "", "... and not printed (rc=%d)" % rc)

    # 5. XLA (tests/xla/xlalib.py, the XLA tier's helper) reads every
    # modified module and runs XLA's own dumps before and after hilo's
    # passes to the same bits
    pairs = []
    runs = [(name, ps) for name in ("scan_before.hloproto.pb", "matmul_before.hloproto.pb", "relu_matmul.module.pb")
            for ps in ("cse", "dce", "while-loop-unroller")]
    # XLA-optimized and scheduled: the while (wrapped compare and add fusions,
    # in a call) unrolled into four calls, each a new scheduled computation
    runs.append(("scan_after.hloproto.pb", "call-inliner,while-loop-unroller"))
    for name, ps in runs:
        if True:
            src = os.path.join(FIXTURES, name)
            out = os.path.join(TMP, "run_%s_%s.pb" % (ps.replace(",", "_"), name))
            rc, _, err = run([src, "--passes=" + ps, "--proto-form=module", "-o", out], name)
            check(rc == 0, "%s --passes=%s (%s)" % (name, ps, err.strip()))
            if rc == 0:
                orig = read(src)
                while name.endswith("hloproto.pb") and orig == read(src):
                    orig = get(orig, 1)[0]
                pairs += [write("orig_%s_%s.pb" % (ps.replace(",", "_"), name), orig), out]
    xla_py = os.environ.get("HILO_XLA_PYTHON")
    if not xla_py:
        import glob
        stamps = sorted(glob.glob(os.path.expanduser("~/.cache/hilo/venv-jax-0.10.2-*/.hilo-complete")))
        xla_py = os.path.join(os.path.dirname(stamps[0]), "bin", "python") if stamps else ""
    xlalib_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "xla")
    if xla_py and os.path.exists(xla_py) and os.path.exists(os.path.join(xlalib_dir, "xlalib.py")):
        script = write("xla_reads.py", XLA_READS.encode())
        p = subprocess.run([xla_py, script, xlalib_dir, str(len(xla_inputs))] + xla_inputs + pairs,
                           capture_output=True)
        out = p.stdout.decode(errors="replace")
        check(p.returncode == 0 and out.count("ok ") == len(xla_inputs) and out.count("same ") == len(pairs) // 2,
              "XLA reads the %d modified modules and runs %d modified dumps to the same bits: %s %s" %
              (len(xla_inputs), len(pairs) // 2, out, p.stderr.decode(errors="replace")[-1500:]))
        print("XLA read %d modified modules; %d modified XLA dumps ran bit-identical to the originals" %
              (out.count("ok "), out.count("same ")))
    else:
        print("XLA check not run: no jax venv of the XLA tier (tests/xla/venv.sh); set HILO_XLA_PYTHON")

    print("lossless: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
