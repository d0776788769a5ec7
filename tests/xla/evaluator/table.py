#!/usr/bin/env python3
"""Prints the per-op table of docs/evaluator.md ("Checked against XLA CPU")
from an evaluator-tier result file:  python3 table.py RESULT.json"""
import json
import sys


def main(path):
    res = json.load(open(path))
    notes = res["notes"][0]
    per_op = notes["per_op"]
    ftz = notes.get("denormal_flushed_by_xla", {})
    nan = notes.get("nan_payload_unspecified", {})
    print("| op | cases | agree | elements | element types | NaN bits not compared | "
          "XLA flushed a denormal |")
    print("|---|---|---|---|---|---|---|")
    for op in sorted(per_op):
        st = per_op[op]
        types = st["types"]
        tys = "%d: %s" % (len(types), ", ".join(types)) if len(types) <= 6 else \
            "%d (%s ... %s)" % (len(types), ", ".join(types[:3]), types[-1])
        print("| %s | %d | %d | %d | %s | %d | %d |" % (op, st["cases"], st["passed"],
                                                       st["elements"], tys, nan.get(op, 0),
                                                       ftz.get(op, 0)))
    print("| **total** | %d | %d | %d | | %d | %d |" % (
        sum(s["cases"] for s in per_op.values()), sum(s["passed"] for s in per_op.values()),
        sum(s["elements"] for s in per_op.values()), sum(nan.values()), sum(ftz.values())))


if __name__ == "__main__":
    main(sys.argv[1])
