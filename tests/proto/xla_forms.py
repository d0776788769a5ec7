#!/usr/bin/env python3
"""tests/proto/xla_forms.py HILO_OPT: text -> proto -> text in the forms XLA
writes and reads (found by the XLA tier's shard_map program, issue 28).

xla_forms.hlo -> X.pb must hold, as XLA's own writer would:
  - the module's frontend_attributes (field 19) with the braced Shardy mesh
    value as written ({mesh = #sdy.mesh<...>});
  - the parameter's iota sharding devices=[8,1]<=[8] with one transpose
    entry per reshape dimension (XLA RET_CHECKs the sizes);
  - the scalar constant's shape and its literal's with an (empty) layout
    (XLA: "LiteralProto has no layout", and the two must be equal).
Then X.pb with hilo's private fields (numbers >= 1000) removed, i.e. as
XLA would hand it over, printed as text must read <=[8] (no T(0), which
XLA's parser rejects) and print a braced attribute value unquoted, as XLA
does, and keep the module's frontend_attributes (text and proto).
"""
import os
import subprocess
import sys
import tempfile


def varint(b, i):
    r = s = 0
    while True:
        c = b[i]
        i += 1
        r |= (c & 0x7F) << s
        s += 7
        if c < 0x80:
            return r, i


def fields(b):
    i, out = 0, []
    while i < len(b):
        start = i
        k, i = varint(b, i)
        f, t = k >> 3, k & 7
        if t == 0:
            v, i = varint(b, i)
        elif t == 2:
            n, i = varint(b, i)
            v = b[i:i + n]
            i += n
        elif t == 5:
            v, i = b[i:i + 4], i + 4
        elif t == 1:
            v, i = b[i:i + 8], i + 8
        else:
            raise ValueError("wire type %d" % t)
        out.append((f, t, v, b[start:i]))
    return out


def sub(msg, num):
    return [v for f, t, v, _ in fields(msg) if f == num and t == 2]


def packed_or_repeated(msg, num):
    vals = []
    for f, t, v, _ in fields(msg):
        if f != num:
            continue
        if t == 0:
            vals.append(v)
        else:
            i = 0
            while i < len(v):
                x, i = varint(v, i)
                vals.append(x)
    return vals


def encode_varint(n):
    out = bytearray()
    while True:
        b = n & 0x7F
        n >>= 7
        if n:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def strip_private(msg, level=0):
    """msg without fields >= 1000 (hilo's own), in the module, its
    computations (3) and their instructions (2)."""
    out = b""
    for f, t, v, raw in fields(msg):
        if f >= 1000:
            continue
        if t == 2 and ((level == 0 and f == 3) or (level == 1 and f == 2)):
            body = strip_private(v, level + 1)
            out += encode_varint((f << 3) | 2) + encode_varint(len(body)) + body
        else:
            out += raw
    return out


def main():
    opt = sys.argv[1]
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "xla_forms.hlo")
    fails = []
    with tempfile.TemporaryDirectory(prefix="hilo-xla-forms-") as tmp:
        pb = os.path.join(tmp, "a.pb")
        r = subprocess.run([opt, src, "-o", pb], stderr=subprocess.PIPE)
        if r.returncode:
            print("FAIL: hilo-opt -o a.pb exit %d: %s" % (r.returncode, r.stderr.decode()))
            return 1
        data = open(pb, "rb").read()
        fa = sub(data, 19)
        if not fa or b"{mesh = #sdy.mesh<[\"x\"=8]>}" not in fa[0]:
            fails.append("module frontend_attributes (field 19) missing or not as written: %r" % fa)
        shardings = [s for c in sub(data, 3) for i in sub(c, 2) for s in sub(i, 40)]
        if len(shardings) != 1:
            fails.append("expected one instruction sharding, found %d" % len(shardings))
        else:
            dims = packed_or_repeated(shardings[0], 9)
            perm = packed_or_repeated(shardings[0], 10)
            if dims != [8] or perm != [0]:
                fails.append("iota sharding: reshape dims %r, transpose %r (want [8], [0])" % (dims, perm))
        consts = [i for c in sub(data, 3) for i in sub(c, 2) if b"constant" in sub(i, 2)]
        if len(consts) != 1:
            fails.append("expected one constant, found %d" % len(consts))
        else:
            ishape = sub(consts[0], 3)
            lshape = [s for lit in sub(consts[0], 8) for s in sub(lit, 1)]
            if not ishape or 5 not in [f for f, _, _, _ in fields(ishape[0])]:
                fails.append("the scalar constant's shape has no layout")
            if not lshape or 5 not in [f for f, _, _, _ in fields(lshape[0])]:
                fails.append("the scalar constant's literal shape has no layout (XLA: LiteralProto has no layout)")
        stripped = strip_private(data)
        spb = os.path.join(tmp, "s.pb")
        open(spb, "wb").write(stripped)
        txt = os.path.join(tmp, "s.hlo")
        r = subprocess.run([opt, spb, "-o", txt], stderr=subprocess.PIPE)
        if r.returncode:
            fails.append("hilo-opt s.pb exit %d: %s" % (r.returncode, r.stderr.decode()))
        else:
            text = open(txt).read()
            for want in ("sharding={devices=[8,1]<=[8]}", "shape={\"a\":1}", "note=\"plain\"",
                         "frontend_attributes={xla.sdy.meshes={mesh = #sdy.mesh<[\"x\"=8]>}}"):
                if want not in text:
                    fails.append("printed proto lacks %s:\n%s" % (want, text))
        again = os.path.join(tmp, "again.pb")
        r = subprocess.run([opt, spb, "-o", again], stderr=subprocess.PIPE)
        if r.returncode or not sub(open(again, "rb").read(), 19):
            fails.append("XLA's form of the proto written back without its frontend_attributes (field 19)")
    for f in fails:
        print("FAIL: " + f)
    if not fails:
        print("ok")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
