#!/usr/bin/env python3
"""tests/xla/xla_check.py: the XLA tier's driver (`make xla-check`).

Runs each sub-tier, tests/xla/<name>/run.py, with the pinned jax venv's
python (tests/xla/venv.sh), collects their result files, prints every
failure and ends with exactly one line:

  xla-check: parse P/N, run R/M bit-identical, evaluator E/K agree, models J/L ok

Exit 0 only when every fraction is whole (and each tier checked at least
its minimum when --cases is not given); 1 otherwise. A sub-tier that is
missing, crashes, times out or writes no result counts as 0/1 with the
reason listed. When jax cannot be installed every tier is reported
`skipped` (never passed) and the exit is 77. With --only, the tiers
left out are reported `NAME not run` and do not decide the exit: `make
test` runs only the tiers that are whole on main (Makefile XLA_TEST_TIERS);
`make xla-check` runs all four.

This script needs no jax: it runs under any python3.
"""

import argparse
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

# name, word after the fraction, the minimum count, time limit (s)
# of the whole tier, and the flag --suite passes it with its time limit (its
# fixed selection for make test; None: the tier runs whole in the suite too)
TIERS = [
    ("parse", "", 300, 420, None),
    ("run", "bit-identical", 200, 4800, ("--suite", 600)),
    ("evaluator", "agree", 5000, 900, None),
    ("models", "ok", 5, 480, None),
]


def venv_python():
    """(python path, None) or (None, skip reason) from venv.sh."""
    p = subprocess.run(["sh", os.path.join(HERE, "venv.sh")], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    for line in p.stderr.splitlines():
        if not line.startswith("skipped:"):
            print(line, file=sys.stderr)
    if p.returncode == 0 and p.stdout.strip():
        return p.stdout.strip().splitlines()[-1], None
    reason = [l for l in p.stderr.splitlines() if l.startswith("skipped:")]
    return None, (reason[-1][len("skipped: "):] if reason else
                  "jax not installable (venv.sh exit %d)" % p.returncode)


def run_tier(py, name, limit, suite_flag, args, outdir):
    """Run one sub-tier: its result dict (failures explain any breakage)."""
    script = os.path.join(HERE, name, "run.py")
    result = os.path.join(outdir, name + ".json")
    base = {"tier": name, "passed": 0, "total": 1, "skipped": None, "broken": True}
    if not os.path.isfile(script):
        return dict(base, failures=["tests/xla/%s/run.py is missing" % name])
    if os.path.exists(result):
        os.unlink(result)
    cmd = [py, script, "--build", args.build, "--shared", args.shared, "--result", result]
    if args.cases is not None:
        cmd.append("--cases=%d" % args.cases)
    if args.suite and suite_flag:
        cmd.append(suite_flag[0])
        limit = suite_flag[1]
    log = os.path.join(outdir, name + ".log")
    t0 = time.time()
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    with open(log, "wb") as f:
        try:
            rc = subprocess.run(cmd, stdout=f, stderr=subprocess.STDOUT, timeout=limit, env=env).returncode
        except subprocess.TimeoutExpired:
            return dict(base, failures=["%s timed out after %d s (log %s)" % (name, limit, log)])
    secs = time.time() - t0
    try:
        with open(result) as f:
            res = json.load(f)
    except (OSError, ValueError):
        tail = open(log, errors="replace").read().strip().splitlines()[-5:]
        return dict(base, failures=["%s exit %d wrote no result (log %s): %s" % (name, rc, log, " | ".join(tail))])
    res.setdefault("failures", [])
    res["seconds"] = round(secs, 1)
    if rc == 77 or res.get("skipped"):
        res["skipped"] = res.get("skipped") or "exit 77"
        return res
    if rc not in (0, 1):
        res["failures"].append("%s exited %d (log %s)" % (name, rc, log))
        res["total"] = max(res.get("total", 0), res.get("passed", 0) + 1)
    elif rc == 0 and res.get("passed") != res.get("total"):
        res["failures"].append("%s exited 0 but reports %s/%s" % (name, res.get("passed"), res.get("total")))
    elif rc == 1 and res.get("passed") == res.get("total"):
        res["failures"].append("%s exited 1 with no difference counted (log %s)" % (name, log))
        res["total"] = res.get("total", 0) + 1
    return res


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", required=True)
    ap.add_argument("--shared", required=True)
    ap.add_argument("--out", default=None, help="folder for the result files (default BUILD/xla-check)")
    ap.add_argument("--cases", type=int, default=None, help="passed to every sub-tier")
    ap.add_argument("--only", default=None, help="comma list of sub-tiers to run (others: not run)")
    ap.add_argument("--suite", action="store_true",
                    help="the sub-tiers' fixed selections for make test (run: --suite; the minimum counts still hold)")
    ap.add_argument("--python", default=None, help="python with jax (default: venv.sh)")
    ap.add_argument("--max-failures", type=int, default=40, help="failures printed per tier")
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    args.shared = os.path.abspath(args.shared)
    outdir = os.path.abspath(args.out or os.path.join(args.build, "xla-check"))
    os.makedirs(outdir, exist_ok=True)
    only = set(args.only.split(",")) if args.only else None

    py, skip = (args.python, None) if args.python else venv_python()
    results = []
    for name, word, minimum, limit, suite_flag in TIERS:
        if only is not None and name not in only:
            results.append({"tier": name, "not_run": True, "failures": []})
            continue
        if skip:
            results.append({"tier": name, "skipped": skip, "failures": []})
            continue
        print("== xla-check: %s" % name, flush=True)
        res = run_tier(py, name, limit, suite_flag, args, outdir)
        if (args.cases is None and not res.get("skipped") and not res.get("broken")
                and res.get("total", 0) < minimum):
            res["failures"].append("%s checked %d cases; the tier asks at least %d" % (name, res.get("total", 0), minimum))
            res["short"] = True
        results.append(res)

    ok = True
    parts = []
    for (name, word, minimum, _, _), res in zip(TIERS, results):
        fails = res.get("failures") or []
        if res.get("not_run"):
            parts.append("%s not run" % name)
            continue
        if res.get("skipped"):
            parts.append("%s skipped" % name)
            print("%s: skipped: %s" % (name, res["skipped"]))
            continue
        p, n = res.get("passed", 0), res.get("total", 0)
        whole = p == n and n > 0 and not fails
        ok = ok and whole
        if fails:
            print("-- %s: %d failure%s (%s)" % (name, len(fails), "" if len(fails) == 1 else "s",
                                                 os.path.join(outdir, name + ".json")))
            for f in fails[:args.max_failures]:
                print("   %s" % f.replace("\n", "\n     "))
            if len(fails) > args.max_failures:
                print("   ... %d more in %s" % (len(fails) - args.max_failures, os.path.join(outdir, name + ".json")))
        parts.append("%s %d/%d%s" % (name, p, n, " " + word if word else ""))
    line = "xla-check: " + ", ".join(parts)
    print(line, flush=True)
    if skip:
        return 77
    if any(r.get("skipped") for r in results):
        return 1 if not ok else 77
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
