#!/usr/bin/env python3
"""Mutation testing of the passes (issue 30 section 9): does the rewrite
validator catch a pass that was changed to do something else?

  mutate.py --build BUILD [--passes dce,cse] [--max N] [--corpus DIR]
            [--report FILE.json] [--smoke]

For every pass file src/transforms/PASS.c (PASS as --list-passes names
it), systematic mutants of its code are made one at a time: a comparison
or logical operator flipped (== !=, < <=, > >=, && ||), an integer
constant moved by one, a condition negated or deleted (if (X) -> if
(!(X)), if (0)), + and - swapped. Each mutant is compiled with the flags
of the release build and linked into its own hilo-opt-test (the build's
libhilo_testing.a with that one object replaced), in a scratch folder:
the checkout and the build are never touched. The mutant then runs
`--passes=PASS` on the pass's lit inputs (tests/lit/PASS/*.hlo) and, with
--corpus, on the real dumps below 4 MB:
  equivalent  its output is the unmutated pass's on every input (the
              mutation changed nothing these inputs can see);
  caught      some output differs and `--check-equivalence` fails on it
              (exit 4, the pass named);
  rejected    it crashed, looped (timeout), or hilo refused what it
              wrote (the verifier; never written out);
  escaped     some output differs and the check passed it: a wrong
              rewrite called sound, or a sound one the mutation made
              (the report lists each with its diff, for a reader to
              judge);
  no-build    it does not compile (not counted);
  declined    some output differs, the check passed it, and wherever it
              differs the mutant left the module as it was read (the pass
              rewrote less there): sound by construction;
  metadata    some output differs, the check passed it, and the outputs
              are the same once their metadata={...} is left out (op_name,
              source positions, the index tokens): metadata never carries
              meaning (docs/proof.md), so this is sound by construction;
  limit       an escape tests/mutate/limits.txt explains as a stated limit
              of the validator's model (docs/proof.md, What is not proved):
              reported with its reason, counted as not detected, not
              failing the run;
  sound       an escape tests/mutate/sound.txt explains: the mutant
              rewrites less (keeps an instruction, an output, a
              parameter) or otherwise soundly, as a reader checked; its
              key is the pass, the mutated line's text and the mutation.
The report gives per pass: mutants, equivalent, caught, rejected,
escaped, and the share of output-changing mutants caught or rejected.
Exit 1 when a mutant escaped (or, --smoke, when nothing was caught: the
harness must see something); 0 otherwise.

--smoke: the bounded run `make test` does (tests/CMakeLists.txt
mutate.smoke): the first --max sites spread over one pass, lit inputs
only.
"""

import argparse
import difflib
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
TIMEOUT = 30

# ---------------------------------------------------------------------------
# mutation sites
# ---------------------------------------------------------------------------

RELOPS = [("==", "!="), ("!=", "=="), ("<=", "<"), (">=", ">"), ("&&", "||"), ("||", "&&")]
LT = re.compile(r"(?<![<\-])<(?![<=])")   # a lone '<' (not <<, <=, ->)
GT = re.compile(r"(?<![>\-])>(?![>=])")   # a lone '>' (not >>, >=, ->)
INT = re.compile(r"(?<![\w.])(\d{1,3})(?![\w.])")
ARITH = re.compile(r"(?<=\w|\)|\]) ([+-]) (?=[\w(])")
IF = re.compile(r"\b(if|while) \(")


def code_mask(text):
    """For each character of text, whether it is code (not a comment, a
    string or character literal, or a preprocessor line)."""
    mask = [True] * len(text)
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and text[i:].lstrip(" \t").startswith("#"):
            j = text.find("\n", i)
            j = n if j < 0 else j
            while j > 0 and text[j - 1] == "\\" and j < n:
                j = text.find("\n", j + 1)
                j = n if j < 0 else j
            for k in range(i, j):
                mask[k] = False
            i = j
            continue
        line_start = c == "\n"
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                mask[k] = False
            i = j
            continue
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                mask[k] = False
            i = j
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            for k in range(i, min(j + 1, n)):
                mask[k] = False
            i = j + 1
            continue
        i += 1
    return mask


def matching_paren(text, i):
    """The index of the ')' closing the '(' at i, or -1."""
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "(":
            depth += 1
        elif text[j] == ")":
            depth -= 1
            if depth == 0:
                return j
    return -1


def sites(text):
    """Every mutant of text as (offset, old, new, what), in file order."""
    mask = code_mask(text)
    out = []

    def add(at, old, new, what):
        if all(mask[at:at + len(old)]):
            out.append((at, old, new, what))

    for old, new in RELOPS:
        for m in re.finditer(re.escape(old), text):
            add(m.start(), old, new, "%s -> %s" % (old, new))
    for m in LT.finditer(text):
        add(m.start(), "<", "<=", "< -> <=")
    for m in GT.finditer(text):
        add(m.start(), ">", ">=", "> -> >=")
    for m in INT.finditer(text):
        v = int(m.group(1))
        # not an array size or a case label: those do not build or do not run
        before = text[max(0, m.start() - 6):m.start()]
        if "case " in before or text[m.end():m.end() + 1] == "]":
            continue
        add(m.start(), m.group(1), str(v + 1), "%d -> %d" % (v, v + 1))
        if v > 0:
            add(m.start(), m.group(1), str(v - 1), "%d -> %d" % (v, v - 1))
    for m in ARITH.finditer(text):
        op = m.group(1)
        add(m.start(1), op, "-" if op == "+" else "+", "%s -> %s" % (op, "-" if op == "+" else "+"))
    for m in IF.finditer(text):
        o = m.end() - 1
        c = matching_paren(text, o)
        if c < 0 or not all(mask[m.start():m.start() + 2]):
            continue
        cond = text[o + 1:c]
        if "\n" in cond and len(cond) > 400:
            continue
        out.append((o, text[o:c + 1], "(!(" + cond + "))", "%s (X) -> %s (!(X))" % (m.group(1), m.group(1))))
        if m.group(1) == "if":
            out.append((o, text[o:c + 1], "(0)", "if (X) -> if (0)"))
    out.sort(key=lambda s: (s[0], s[3]))
    return out


def line_of(text, at):
    return text.count("\n", 0, at) + 1


# ---------------------------------------------------------------------------
# building a mutant
# ---------------------------------------------------------------------------

def make_vars(path):
    """C_DEFINES, C_INCLUDES, C_FLAGS of a CMake flags.make."""
    v = {}
    for line in open(path):
        m = re.match(r"(C_DEFINES|C_INCLUDES|C_FLAGS) = (.*)", line)
        if m:
            v[m.group(1)] = m.group(2)
    return v


class Builder:
    def __init__(self, build, scratch):
        self.build = os.path.abspath(build)
        self.scratch = scratch
        flags = make_vars(os.path.join(self.build, "CMakeFiles", "hilo_obj.dir", "flags.make"))
        cc = None
        link = shlex.split(open(os.path.join(self.build, "tests", "CMakeFiles", "hilo-opt-test.dir",
                                             "link.txt")).read())
        cc = link[0]
        # the mutant's flags: the release build's, without -Werror (a
        # mutant that only warns still runs)
        self.cflags = [cc] + shlex.split(flags.get("C_DEFINES", "")) + shlex.split(flags.get("C_INCLUDES", "")) + \
            [f for f in shlex.split(flags.get("C_FLAGS", "")) if f != "-Werror"]
        self.archive = os.path.join(self.build, "tests", "libhilo_testing.a")
        self.link = link
        self.link_dir = os.path.join(self.build, "tests")

    def build_mutant(self, src_path, text):
        """The path of a hilo-opt-test with src_path's code replaced by
        text, or None when it does not build."""
        name = os.path.basename(src_path)
        mdir = os.path.join(self.scratch, "m")
        shutil.rmtree(mdir, ignore_errors=True)
        os.makedirs(mdir)
        csrc = os.path.join(mdir, name)
        open(csrc, "w").write(text)
        obj = os.path.join(mdir, name + ".o")
        inc = ["-I" + os.path.dirname(src_path)]
        r = subprocess.run(self.cflags + inc + ["-c", csrc, "-o", obj], capture_output=True, text=True)
        if r.returncode != 0:
            return None
        arch = os.path.join(mdir, "libhilo_testing.a")
        shutil.copyfile(self.archive, arch)
        if subprocess.run(["ar", "r", arch, obj], capture_output=True).returncode != 0:
            return None
        exe = os.path.join(mdir, "hilo-opt-test")
        cmd = []
        skip = False
        for k, a in enumerate(self.link):
            if skip:
                skip = False
                continue
            if a == "-o":
                cmd += ["-o", exe]
                skip = True
            elif a == "libhilo_testing.a" or a.endswith("/libhilo_testing.a"):
                cmd.append(arch)
            else:
                cmd.append(a)
        r = subprocess.run(cmd, cwd=self.link_dir, capture_output=True, text=True)
        return exe if r.returncode == 0 else None


# ---------------------------------------------------------------------------
# running
# ---------------------------------------------------------------------------

def run(exe, inp, args, out):
    try:
        r = subprocess.run([exe, inp] + args + ["-o", out], capture_output=True, text=True, errors="replace", timeout=TIMEOUT)
        return r.returncode, r.stderr
    except subprocess.TimeoutExpired:
        return "timeout", ""


def pass_inputs(pname, corpus):
    lit = os.path.join(REPO, "tests", "lit", pname)
    ins = sorted(os.path.join(lit, f) for f in os.listdir(lit) if f.endswith(".hlo")) if os.path.isdir(lit) else []
    if corpus and os.path.isdir(corpus):
        ins += sorted(os.path.join(corpus, f) for f in os.listdir(corpus)
                      if f.endswith(".hlo") and os.path.getsize(os.path.join(corpus, f)) < (4 << 20))
    return ins


def baselines(exe, pname, inputs, scratch):
    """input -> (the unmutated pass's output text, the input printed
    unchanged), for the inputs the pass takes."""
    out = {}
    for k, inp in enumerate(inputs):
        o = os.path.join(scratch, "base%d.hlo" % k)
        rc, _ = run(exe, inp, ["--passes=" + pname], o)
        if rc != 0 or not os.path.exists(o):
            continue
        want = open(o, errors="replace").read()
        rc, _ = run(exe, inp, [], o)
        out[inp] = (want, open(o, errors="replace").read() if rc == 0 else None)
    return out


def judge(exe, pname, base, scratch):
    """(verdict, detail) of one built mutant."""
    changed = []
    for k, (inp, (want, _)) in enumerate(sorted(base.items())):
        o = os.path.join(scratch, "mut%d.hlo" % k)
        if os.path.exists(o):
            os.unlink(o)
        rc, err = run(exe, inp, ["--passes=" + pname], o)
        if rc == "timeout":
            return "rejected", "%s: timeout" % os.path.basename(inp)
        if rc != 0:
            return "rejected", "%s: exit %s: %s" % (os.path.basename(inp), rc, err.strip().splitlines()[-1][:200] if err.strip() else "")
        got = open(o, errors="replace").read() if os.path.exists(o) else ""
        if got != want:
            changed.append((inp, want, got))
    if not changed:
        return "equivalent", ""
    for inp, want, got in changed:
        o = os.path.join(scratch, "chk.hlo")
        rc, err = run(exe, inp, ["--passes=" + pname, "--check-equivalence"], o)
        if rc == 4 and ("pass '%s'" % pname) in err:
            return "caught", os.path.basename(inp)
        if rc == "timeout" or (rc != 0 and rc != 4):
            return "rejected", "%s: --check-equivalence exit %s" % (os.path.basename(inp), rc)
    if all(got == base[inp][1] for inp, _, got in changed):
        return "declined", os.path.basename(changed[0][0])
    if all(strip_metadata(got) == strip_metadata(want) for _, want, got in changed):
        return "metadata", os.path.basename(changed[0][0])
    inp, want, got = changed[0]
    diff = "".join(list(difflib.unified_diff(want.splitlines(True), got.splitlines(True), n=0))[:12])
    return "escaped", "%s:\n%s" % (os.path.basename(inp), diff)


def strip_metadata(text):
    """text without its metadata={...} attributes (braces and strings
    matched): what is left is what a pass's output means."""
    out, at = [], 0
    while True:
        k = text.find(", metadata={", at)
        if k < 0:
            out.append(text[at:])
            return "".join(out)
        out.append(text[at:k])
        j, depth, quoted = k + len(", metadata="), 0, False
        while j < len(text):
            c = text[j]
            if quoted:
                if c == "\\":
                    j += 1
                elif c == '"':
                    quoted = False
            elif c == '"':
                quoted = True
            elif c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    j += 1
                    break
            j += 1
        at = j


def sound_list(name="sound.txt"):
    """{(pass, line text, mutation): why} from tests/mutate/NAME (sound.txt,
    limits.txt): PASS | LINE | MUTATION | WHY, one per line, '#' comments."""
    out = {}
    path = os.path.join(HERE, name)
    if not os.path.exists(path):
        return out
    for raw in open(path):
        if not raw.strip() or raw.lstrip().startswith("#"):
            continue
        parts = [p.strip() for p in raw.rstrip("\n").split(" | ")]
        if len(parts) == 4:
            out[tuple(parts[:3])] = parts[3]
    return out


def line_text(text, at):
    a = text.rfind("\n", 0, at) + 1
    b = text.find("\n", at)
    return text[a:b if b >= 0 else len(text)].strip()


def spread(items, n):
    """n of items, evenly spaced (all when n >= len)."""
    if n <= 0 or n >= len(items):
        return list(items)
    return [items[(k * len(items)) // n] for k in range(n)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", required=True)
    ap.add_argument("--passes", default="")
    ap.add_argument("--max", type=int, default=40, help="mutants per pass (spread over its sites)")
    ap.add_argument("--corpus", default="")
    ap.add_argument("--report", default="")
    ap.add_argument("--smoke", action="store_true")
    a = ap.parse_args()
    build = os.path.abspath(a.build)
    exe0 = os.path.join(build, "hilo-opt-test")
    listed = subprocess.run([exe0, "--list-passes"], capture_output=True, text=True).stdout.split()
    tdir = os.path.join(REPO, "src", "transforms")
    files = {os.path.splitext(f)[0]: os.path.join(tdir, f) for f in os.listdir(tdir) if f.endswith(".c")}
    names = [p for p in a.passes.split(",") if p] or sorted(p for p in files if p in listed)
    scratch = tempfile.mkdtemp(prefix="hilo-mutate-")
    report = {"passes": {}}
    sound = sound_list()
    limits = sound_list("limits.txt")
    failed = False
    try:
        b = Builder(build, scratch)
        for pname in names:
            if pname not in files:
                print("mutate: no pass file src/transforms/%s.c" % pname, file=sys.stderr)
                return 2
            src = files[pname]
            text = open(src).read()
            inputs = pass_inputs(pname, None if a.smoke else a.corpus)
            base = baselines(exe0, pname, inputs, scratch)
            all_sites = sites(text)
            chosen = spread(all_sites, a.max)
            counts = {"sites": len(all_sites), "mutants": 0, "no-build": 0, "equivalent": 0, "caught": 0,
                      "rejected": 0, "declined": 0, "metadata": 0, "sound": 0, "limit": 0, "escaped": 0,
                      "inputs": len(base)}
            escapes = []
            for at, old, new, what in chosen:
                mt = text[:at] + new + text[at + len(old):]
                exe = b.build_mutant(src, mt)
                counts["mutants"] += 1
                if not exe:
                    counts["no-build"] += 1
                    continue
                v, detail = judge(exe, pname, base, scratch)
                if v == "escaped" and (pname, line_text(text, at), what) in sound:
                    v = "sound"
                elif v == "escaped" and (pname, line_text(text, at), what) in limits:
                    v = "limit"
                    print("  LIMIT %s:%d %s: %s" % (os.path.relpath(src, REPO), line_of(text, at), what,
                                                    limits[(pname, line_text(text, at), what)]))
                counts[v] += 1
                if v == "escaped":
                    escapes.append({"line": line_of(text, at), "text": line_text(text, at), "mutation": what,
                                    "detail": detail})
            # sound ones aside; a limit is a wrong output the check passed
            changing = counts["caught"] + counts["rejected"] + counts["escaped"] + counts["limit"]
            counts["detected_share"] = round((counts["caught"] + counts["rejected"]) / changing, 4) if changing else None
            report["passes"][pname] = {"counts": counts, "escapes": escapes}
            print("mutate %-38s %3d mutants (%d sites): %3d no-build, %3d equivalent, %3d caught, %3d rejected, "
                  "%3d declined, %3d metadata, %3d sound, %3d limit, %3d escaped"
                  % (pname, counts["mutants"], counts["sites"], counts["no-build"], counts["equivalent"],
                     counts["caught"], counts["rejected"], counts["declined"], counts["metadata"], counts["sound"],
                     counts["limit"], counts["escaped"]))
            for e in escapes:
                print("  ESCAPED %s:%d %s\n    key: %s | %s | %s\n    %s"
                      % (os.path.relpath(src, REPO), e["line"], e["mutation"], pname, e["text"], e["mutation"],
                         e["detail"].replace("\n", "\n    ")))
            failed = failed or bool(escapes)
            if a.smoke and not counts["caught"] + counts["rejected"]:
                print("mutate: the smoke run caught nothing: the harness sees no mutant", file=sys.stderr)
                failed = True
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    tot = {k: sum(p["counts"][k] for p in report["passes"].values())
           for k in ("mutants", "no-build", "equivalent", "caught", "rejected", "declined", "metadata", "sound",
                     "limit", "escaped")}
    report["total"] = tot
    ch = tot["caught"] + tot["rejected"] + tot["escaped"] + tot["limit"]
    print("mutate: %d mutants, %d no-build, %d equivalent, %d caught, %d rejected, %d declined, %d metadata, "
          "%d sound, %d limit, %d escaped%s" % (tot["mutants"], tot["no-build"], tot["equivalent"], tot["caught"],
                                                tot["rejected"], tot["declined"], tot["metadata"], tot["sound"],
                                                tot["limit"], tot["escaped"],
                                                ", %.1f%% of the unsound output-changing mutants detected"
             % (100.0 * (ch - tot["escaped"] - tot["limit"]) / ch) if ch else ""))
    if a.report:
        with open(a.report, "w") as f:
            json.dump(report, f, indent=1)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
