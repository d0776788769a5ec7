#!/usr/bin/env python3
"""tests/proto/async_wrapper.py HILO_OPT: an async sugar start
(custom-call-start, call-start) goes to the proto as XLA's reader requires
it (found by the XLA parse tier: "Async start instruction should have 1
called computation but sees 0"): an async-start calling one computation
written before its caller, whose parameters are the start's operands and
whose root is the wrapped op with its attributes (custom_call_target,
to_apply), with the start's thread, and in a scheduled module a schedule
sequence of its own. hilo reads its proto back to the sugar, byte for byte
the same text; as XLA hands it over (hilo's fields >= 1000 removed) hilo
reads the explicit form."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from xla_forms import fields, sub, packed_or_repeated, strip_private  # noqa: E402


def strs(msg, num):
    return [bytes(v).decode() for v in sub(msg, num)]


def ints(msg, num):
    return [v for f, t, v, _ in fields(msg) if f == num and t == 0]


def main():
    opt = sys.argv[1]
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "async_wrapper.hlo")
    fails = []
    with tempfile.TemporaryDirectory(prefix="hilo-async-wrapper-") as tmp:
        pb, back = os.path.join(tmp, "a.pb"), os.path.join(tmp, "back.hlo")
        first = os.path.join(tmp, "first.hlo")
        for args in ([src, "-o", pb], [pb, "-o", back], [src, "-o", first]):
            r = subprocess.run([opt] + args, stderr=subprocess.PIPE)
            if r.returncode:
                print("FAIL: hilo-opt %s: %s" % (" ".join(args), r.stderr.decode()))
                return 1
        data = open(pb, "rb").read()
        comps = sub(data, 3)
        by_id = {(ints(c, 5) or [0])[0]: (k, c) for k, c in enumerate(comps)}
        entry_pos = next(k for k, c in enumerate(comps) if strs(c, 1) == ["main"])
        starts = [i for i in sub(comps[entry_pos], 2) if strs(i, 2) == ["async-start"]]
        if len(starts) != 2:
            fails.append("expected two async-start instructions, found %d" % len(starts))
        want_roots = [("custom-call", 1), ("call", 2)]
        for s, (root_op, nparams) in zip(starts, want_roots):
            called = packed_or_repeated(s, 38)
            if len(called) != 1 or called[0] not in by_id:
                fails.append("%s: called computations %r, not one that exists" % (strs(s, 1), called))
                continue
            pos, w = by_id[called[0]]
            if pos > entry_pos:
                fails.append("%s: its wrapper comes after its caller (XLA reads callees first)" % strs(s, 1))
            instrs = sub(w, 2)
            params = [i for i in instrs if strs(i, 2) == ["parameter"]]
            root_id = (ints(w, 6) or [None])[0]
            root = [i for i in instrs if (ints(i, 35) or [None])[0] == root_id]
            if len(params) != nparams or not root or strs(root[0], 2) != [root_op]:
                fails.append("%s: wrapper has %d parameters and root %r (want %d, %s)"
                             % (strs(s, 1), len(params), root and strs(root[0], 2), nparams, root_op))
            elif root_op == "custom-call" and strs(root[0], 28) != ["foo"]:
                fails.append("wrapped custom-call without custom_call_target foo: %r" % strs(root[0], 28))
            elif root_op == "call":
                if len(packed_or_repeated(root[0], 38)) != 1:
                    fails.append("wrapped call without its to_apply computation")
                if strs(w, 8) != ["t"]:
                    fails.append("call-start's wrapper without the thread t: %r" % strs(w, 8))
            seqs = [e for sch in sub(data, 7) for e in sub(sch, 1)]
            if not any(ints(e, 1) == [called[0]] for e in seqs):
                fails.append("%s: the scheduled module has no sequence for its wrapper" % strs(s, 1))
        if open(back).read() != open(first).read():
            fails.append("text -> proto -> text is not the text: the sugar was not read back")
        spb, stxt = os.path.join(tmp, "s.pb"), os.path.join(tmp, "s.hlo")
        open(spb, "wb").write(strip_private(data))
        r = subprocess.run([opt, spb, "--print-style=default", "-o", stxt], stderr=subprocess.PIPE)
        if r.returncode:
            fails.append("XLA's form refused: %s" % r.stderr.decode())
        else:
            text = open(stxt).read()
            for want in ("async-start(%p0), calls=", "custom-call(", "custom_call_target=\"foo\"",
                         "to_apply=%add"):
                if want not in text:
                    fails.append("XLA's form printed without %s:\n%s" % (want, text))
    for f in fails:
        print("FAIL: " + f)
    if not fails:
        print("ok")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
