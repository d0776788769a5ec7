#!/usr/bin/env python3
"""XLA tier, parse parity (issue 28 section 1).

XLA's parser must accept every module hilo writes, and hilo must read back
what XLA prints of it. For each source module (every corpus file, example
and lit input) hilo writes:

  style:auto|default|long|short  the module printed in each print style
  proto                           `-o X.pb`, read by from_serialized_hlo_module_proto
  pipeline:neuron                 after --pipeline=neuron
  flow:unrolled                   after the unrolled flow (while-loop-unroller ... dce)
  pass:P                          after each XLA cleanup pass P
  extract:NAME                    --extract=NAME --height=2 of an entry instruction

(hilo's library, python/hilo over BUILD/libhilo.so, prints and runs the
passes in this process; hilo-opt writes the protos and the extracts.)

and each distinct text (or proto) it writes is one case, with these checks:

  accept   XLA parses it (text) or reads it (proto).
  same     for the unmodified module: XLA's print of what hilo wrote equals
           XLA's print of the source (XLA as the canonicaliser: nothing XLA
           understands was lost or changed); the short style is compared in
           XLA's short form (it drops metadata by design).
  back     the other way: hilo reads XLA's print (default form; short form
           for the short style) and hilo's canonical print of it equals
           hilo's canonical print of what it wrote (same instructions,
           shapes, attributes, names).

Sources XLA itself rejects: files XLA's own parser refuses as given (newer
syntax than jaxlib 0.10.2's, or a construct XLA's printer writes but its
parser refuses) are judged against XLA's verdict on the source: hilo's
output must be refused with the same message (so nothing was dropped), and
DEPARTURES lists the constructs XLA's printer writes but its parser refuses,
which are taken out of hilo's output (and counted in notes) so the rest is
still judged. Files hilo rejects are judged by XLA: if XLA accepts one, hilo
is wrong to reject it (a failure).
"""

import os
import re
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import xlalib as X  # noqa: E402
import canon as C  # noqa: E402

CLEANUP = ["dce", "call-inliner", "tuple-simplifier", "constant-folding", "cse"]
UNROLLED_FLOW = ("while-loop-unroller,neuron-dus-ds-index-simplifier,dynamic-slice-mover,"
                 "slice-of-concat-optimizer,neuron_repeated_dus_to_concat,dce")

# Constructs XLA's printer writes but its parser refuses (documented in
# docs/xla-departures.md with the XLA source lines): removed from hilo's
# output before XLA parses it, only when the source itself carried them.
DEPARTURES = [
    # HloCustomCallInstruction prints api_version= for every version but
    # ORIGINAL; the parser's api_version attribute refuses UNSPECIFIED.
    ("api_version=API_VERSION_UNSPECIFIED",
     re.compile(r", api_version=API_VERSION_UNSPECIFIED")),
]

BIG = 400_000  # bytes: a real dump; fewer variants (time budget)
MAX_TEXT = 48 << 20  # bytes: a print larger than this is not parsed (memory)


def error_kind(err):
    """XLA's error message without positions and source excerpts."""
    if not err:
        return ""
    lines = [l for l in err.splitlines() if "error:" in l]
    msg = lines[0] if lines else err.splitlines()[0]
    msg = re.sub(r"^.*?error: ", "", msg)
    return re.sub(r"\d+:\d+", "L:C", msg).strip()


def instr_names(text, limit):
    """A few instruction names of the entry computation of a default print."""
    m = re.search(r"^ENTRY .*?\{\n(.*?)^\}", text, flags=re.M | re.S)
    if not m:
        return []
    names = re.findall(r"^  (?:ROOT )?%?([\w.\-]+) = ", m.group(1), flags=re.M)
    if len(names) < 3:
        return []
    picks = [names[len(names) // 2], names[-1]]
    return list(dict.fromkeys(picks))[:limit]


class Parity:
    def __init__(self, tier, args):
        self.tier = tier
        self.args = args
        self.lock = threading.Lock()
        self.local = threading.local()
        self.seen = set()
        self.departed = {}
        self.refusals = {}
        self.desugared = set()
        self.own_proto = 0  # protos equal to XLA's own proto of the source only
        self.xla_form = 0  # back checks equal only as XLA reads them (XLA's own form)
        self.workers = []
        self.hilo = X.hilo_lib(args.build)

    def xla(self):
        if not hasattr(self.local, "xla"):
            self.local.xla = X.Xla(timeout=120)
            with self.lock:
                self.workers.append(self.local.xla)
        return self.local.xla

    def check(self, ok, what, detail=""):
        with self.lock:
            return self.tier.check(bool(ok), what, detail)

    def fresh(self, data):
        """True the first time this exact output is met (one case per text)."""
        d = X.digest(data)
        with self.lock:
            if d in self.seen:
                return False
            self.seen.add(d)
            return True

    def cli(self, src, args, suffix=".hlo"):
        return X.hilo_opt(self.args.build, src, args, out_suffix=suffix, timeout=120)

    def lib(self, text, passes=None, style="default"):
        """(text, None) of hilo's print of `text` (after `passes`), or
        (None, error) when hilo refuses it."""
        try:
            m = self.hilo.Module.from_text(text)
            if passes:
                m.run_passes(passes)
            return m.to_text(style), None
        except self.hilo.HiloError as e:
            return None, str(e)

    def depart(self, src_text, text, count=True):
        """Take the departures the source carried out of hilo's text."""
        for name, rx in DEPARTURES:
            if rx.search(src_text):
                text, n = rx.subn("", text)
                if n and count:
                    with self.lock:
                        self.departed[name] = self.departed.get(name, 0) + n
        return text

    # -- one source module ---------------------------------------------------

    def source(self, name, text):
        xla = self.xla()
        src = xla.parse_text(self.depart(text, text, count=False))
        if src.get("stage") == "crash":
            self.check(False, "%s: source" % name, "XLA crashed on the source itself: " + src["error"])
            return
        ctext, err = self.lib(text)
        if ctext is None:
            self.refused(name, text, src, err)
            return
        src_rejected = None if src["ok"] else error_kind(src["error"])
        big = len(text) > BIG

        # the unmodified module in every style, and as a proto (`-o X.pb`)
        for style in ("auto", "default", "long", "short"):
            out = ctext if style == "default" else self.lib(text, style=style)[0]
            self.judge_text(name, "style:" + style, text, out, ctext, src, src_rejected,
                            same=True, short=(style == "short"))
        r = self.cli(text, [], suffix=".pb")
        if self.check(r.rc == 0 and r.out, "%s: -o X.pb" % name, r.brief()):
            self.judge_proto(name, text, r.out, ctext, src, src_rejected)
        if src["ok"] and src.get("proto") and not big:
            self.judge_foreign(name, text, src)

        # after passes
        producers = [("pipeline:neuron", ["pipeline:neuron"])]
        if not big:
            # unrolled, a real dump's scanned layers become a module tens of
            # times its size (GBs of XLA and hilo memory): the flow is judged
            # on every other module
            producers.append(("flow:unrolled", UNROLLED_FLOW.split(",")))
        producers += [("pass:" + p, [p]) for p in (CLEANUP if not big else ["dce", "cse"])]
        for label, passes in producers:
            out, err = self.lib(text, passes)
            if out is None:
                # a pass may refuse a module (an unsupported construct); that
                # is the pass tests' business, not a print XLA could judge.
                with self.lock:
                    self.refusals[label] = self.refusals.get(label, 0) + 1
                continue
            self.judge_text(name, label, text, out, out, src, src_rejected, same=False, short=False)
        if not big:
            for n in instr_names(ctext, 1):
                r = self.cli(text, ["--extract=" + n, "--height=2", "--print-style=default"])
                if self.check(r.rc == 0, "%s: extract:%s" % (name, n), r.brief()):
                    out = r.text()
                    self.judge_text(name, "extract:" + n, text, out, out, src, src_rejected,
                                    same=False, short=False)

    def refused(self, name, text, src, err):
        """hilo refuses the source: XLA decides whether it should. XLA's
        parser does not verify, so a module it parses is also compiled; XLA
        agrees when the compiler refuses it at the instruction hilo names."""
        what = "%s: hilo refuses" % name
        if not src["ok"]:
            self.check(True, what)
            return
        m = re.search(r"instruction '([^']+)'", err or "")
        res = self.xla()._safe("xla_compile_error", text)
        if isinstance(res, dict):
            res = res.get("error")
        # XLA's compiler names it with '.' and '-' as '_' (MLIR locations)
        flat = lambda t: re.sub(r"[.\-]", "_", t)
        if res and m and flat(m.group(1)) in flat(res):
            with self.lock:
                self.tier.notes.append("%s: XLA's parser accepts, its compiler refuses %s as hilo does"
                                       % (name, m.group(1)))
            self.check(True, what)
            return
        if res is None and m and "output_to_operand_aliasing" in (err or "") and \
                re.search(r"^\s*(?:ROOT )?%?" + re.escape(m.group(1)) + r" = .* fusion\(", text, re.M):
            # a fusion's aliasing reaches XLA's CPU compiler through
            # StableHLO (mhlo.fusion output_operand_aliasing), which does
            # not verify it; XLA's HloVerifier (CheckFusionInstruction)
            # refuses the same pairs hilo does. Not decidable here: not
            # counted, listed
            with self.lock:
                self.tier.notes.append("%s: a fusion's output_to_operand_aliasing hilo refuses (as XLA's "
                                       "HloVerifier does); XLA's CPU path does not verify it (not counted)" % name)
            return
        self.check(False, what, "XLA accepts what hilo refuses: %s | XLA compile: %s"
                   % ((err or "").splitlines()[0][:300], (res or "compiles")[:200]))

    def judge_text(self, name, label, src_text, out, canon_text, src, src_rejected, same, short):
        what = "%s: %s" % (name, label)
        if not self.check(out is not None, what, "hilo cannot print it"):
            return
        if not self.fresh(out):
            return
        if len(out) > MAX_TEXT:
            with self.lock:
                self.tier.notes.append("%s: %d MB of text, not given to XLA (not counted)" % (what, len(out) >> 20))
            return
        given = self.depart(src_text, out)
        got = self.xla().parse_text(given)
        if src_rejected is not None and not got["ok"]:
            # XLA refuses the source too: the same refusal means hilo kept
            # what XLA objects to.
            self.check(error_kind(got["error"]) == src_rejected, what + " (XLA refuses the source)",
                       "source: %s; hilo's output: %s" % (src_rejected, error_kind(got["error"])))
            return
        if not self.check(got["ok"], what + " accept", error_kind(got.get("error"))):
            return
        if src_rejected is not None:
            with self.lock:
                self.desugared.add(name)
        elide = "{...}" in src_text
        if same and src["ok"] and given == out:
            key = "short" if short else ("default" if elide else "full")
            d = compare(src[key], got[key], elide)
            self.check(d is None, what + " same", d)
        # hilo reads XLA's print (its short print after a short one) and
        # prints it in the default style, where every name is a %reference
        # the comparison can number: XLA's short print renames what its
        # uniquifier renames (x -> x.4), which only the numbered form
        # tells from a real difference
        # (the short style leaves out what XLA's does: the want is hilo's
        # own short print read back the same way)
        want = canon_text
        if short:
            # XLA's short form leaves control dependencies out
            # (HloPrintOptions::ShortParsable: print_control_dependencies
            # false), so what it reads back has none
            want = CONTROL_PREDS.sub("", self.lib(out, style="default")[0] or canon_text)
        self.back(what, got["short"] if short else got["default" if elide else "full"],
                  self.depart(src_text, want, count=False), "default", elide)

    def judge_proto(self, name, src_text, data, canon_text, src, src_rejected):
        what = "%s: -o X.pb" % name
        if not self.fresh(data):
            return
        got = self.xla().parse_proto(data)
        if not got["ok"] and src_rejected is not None:
            # XLA refuses the source text too: the proto must be refused
            # for the same reason (its reader's message is part of the
            # parser's: "Unknown opcode: collective-reduce")
            why = re.sub(r"^[A-Z_]+: ", "", error_kind(got["error"]))
            self.check(why and why in src_rejected, what + " (XLA refuses the source)",
                       "source: %s; hilo's proto: %s" % (src_rejected, why))
            return
        if not got["ok"] and src.get("proto"):
            # XLA's reader refuses its own proto of the source the same
            # way (collective-reduce: its text parser knows the opcode, its
            # proto reader does not): hilo's proto is refused for what the
            # module is, not for how hilo wrote it
            own = self.xla().parse_proto(src["proto"])
            if not own["ok"] and error_kind(own["error"]) == error_kind(got["error"]):
                with self.lock:
                    self.tier.notes.append("%s: XLA refuses its own proto of the source as it refuses hilo's (%s)"
                                           % (what, error_kind(got["error"])[:120]))
                self.check(True, what + " accept (XLA refuses its own proto too)")
                return
        if not self.check(got["ok"], what + " accept", error_kind(got.get("error"))):
            return
        elide = "{...}" in src_text
        key = "default" if elide else "full"
        # XLA prints what it read from the proto as it prints the source:
        # the departures come out of both. The proto carries exact values,
        # so XLA's reading of the source text (its two literal departures)
        # is compared with the proto's print read the same way; the module
        # config is not in an HloModuleProto (CONFIG_ONLY).
        printed = self.depart(src_text, got[key], count=False)
        want = without_config(self.depart(src_text, canon_text, count=False))
        if src["ok"]:
            d = compare(without_config(src[key]), as_xla_reads(printed), elide)
            if d is not None:
                # what no HloModuleProto can carry (channel_id=0: proto3
                # has no zero; the module config) XLA's own proto of the
                # source loses too: equal to XLA's print of that is equal
                own = self.xla().parse_proto(src["proto"])
                if own["ok"] and compare(own[key], as_xla_reads(printed), elide) is None:
                    d = None
                    with self.lock:
                        self.own_proto += 1
                    # and hilo reads XLA's print of hilo's proto as it
                    # reads XLA's print of XLA's own
                    want = self.lib(own[key])[0] or want
            self.check(d is None, what + " same", d)
        if src_rejected is not None:
            # XLA refuses the source over an attribute it does not model
            # (newer syntax than jaxlib 0.10.2's): no HloModuleProto field
            # carries it to XLA (docs/xla-departures.md), so XLA's print of
            # hilo's proto lacks that attribute, and only that one
            want = without_refused(want, src_rejected)
        self.back(what, printed, want, "default", elide, from_text=False)

    def judge_foreign(self, name, src_text, src):
        """hilo reads XLA's own proto of the source (what an XLA dump with
        --xla_dump_hlo_as_proto holds) losing nothing: written back
        unchanged it is the same bytes; its text print, read by XLA, is the
        module XLA reads from the proto; and so is its proto print."""
        what = "%s: xla-proto" % name
        data = src["proto"]
        try:
            m = self.hilo.Module.from_proto(data)
            out, pb = m.to_text("default"), m.to_proto()
        except self.hilo.HiloError as e:
            self.check(False, what + " read", "hilo refuses XLA's proto: %s" % str(e).splitlines()[0][:300])
            return
        self.check(pb == data, what + " bytes", "written back as %d bytes, not the %d read" % (len(pb), len(data)))
        own = self.xla().parse_proto(data)
        if not own["ok"]:
            return
        elide = "{...}" in src_text
        key = "default" if elide else "full"
        got = self.xla().parse_text(self.depart(src_text, out, count=False))
        if self.check(got["ok"], what + " text accept", error_kind(got.get("error"))):
            d = compare(as_xla_reads(self.depart(src_text, own[key], count=False)),
                        self.depart(src_text, got[key], count=False), elide)
            self.check(d is None, what + " text same", d)

    def back(self, what, xla_text, want, style, elide, from_text=True):
        """hilo reads XLA's print and prints it as it printed `want`; XLA's
        text reading departs from the print (as_xla_reads) only when XLA
        read hilo's text, not its proto."""
        got, err = self.lib(xla_text, style=style)
        if got is None:
            # a print XLA's own parser refuses too (its short form writes a
            # keyword name such as `true` without the '%' its lexer needs):
            # hilo refusing it agrees with XLA
            own = self.xla().parse_text(xla_text)
            if not own["ok"]:
                with self.lock:
                    self.tier.notes.append("%s: XLA's parser refuses XLA's own print (%s); hilo refuses it too"
                                           % (what, error_kind(own.get("error"))[:120]))
            self.check(not own["ok"], what + " back", "hilo refuses XLA's print: %s" % err)
            return
        want = xla_prints_unescaped(constant_shapes_as_xla_reads(want))
        d = compare(as_xla_reads(want) if from_text else want, got, elide)
        if d is not None:
            # XLA prints some modules in another form than the one hilo
            # keeps (an explicit async-start whose computation wraps one
            # call prints as call-start sugar): hilo lost nothing when XLA
            # reads hilo's print of XLA's print as the module it printed
            mine, theirs = self.xla().parse_text(got), self.xla().parse_text(xla_text)
            if mine["ok"] and theirs["ok"] and compare(theirs["full"], mine["full"], elide) is None:
                with self.lock:
                    self.xla_form += 1
                d = None
        self.check(d is None, what + " back", d)

    # -- run -------------------------------------------------------------------

    def close(self):
        for w in self.workers:
            w.close()


# Where XLA's parser reads a literal differently from what its printer wrote
# (docs/xla-departures.md): the hilo side of a comparison with an XLA parse
# is given the same treatment.
#  - a NaN real part of a complex literal is written into the imaginary part
#    too (hlo_parser.cc SetValueInLiteralHelper:
#    `handle_nan(parsed_real_value, &literal_imag_value)`);
#  - "-0" lexes as the integer 0 (hlo_lexer.cc LexNumberOrPattern: the float
#    pattern needs a '.' or an exponent), so a float constant -0 becomes +0.
XLA_COMPLEX_NAN = re.compile(r"\((-?nan(?:\(0x[0-9a-f]+\))?), [^()]+?\)")
XLA_NEG_ZERO = re.compile(r"(?<![\w.])-0(?![\w.])")


# The header attributes of the module config (HloModuleConfig), which an
# HloModuleProto does not carry: XLA's print of a module it read from a
# proto has none of them.
CONFIG_ONLY = re.compile(r",\s*(?:alias_passthrough_params=\w+|replica_count=\d+|num_partitions=\d+|"
                         r"allow_spmd_sharding_propagation_to_(?:parameters|output)=\{[^{}]*\})")


SCHEDULING_NAME = re.compile(r'scheduling_name="((?:[^"\\]|\\.)*)"')


def xla_prints_unescaped(text):
    """hilo's print as XLA prints it back: XLA's printer writes a
    metadata scheduling_name (and an origin_recovery_table's modules)
    without escaping it (OpMetadataToString puts
    the value between quotes as it is, where op_name is CEscape'd), so a
    backslash it read as `\\\\` it prints as `\\`."""
    text = SCHEDULING_NAME.sub(lambda m: 'scheduling_name="%s"' % re.sub(r"\\(.)", r"\1", m.group(1)), text)
    # an origin_recovery_table's recovery module is printed between quotes
    # as the module prints (OriginalValueRecoveryTable::ToString), its own
    # quotes and backslashes not escaped
    return RECOVERY_TABLE.sub(lambda m: re.sub(r'\\(["\\])', r"\1", m.group(0)), text)


RECOVERY_TABLE = re.compile(r"origin_recovery_table=\{\n.*?\n\}", re.S)


CONTROL_PREDS = re.compile(r", control-predecessors=\{[^{}]*\}")
CONSTANT_ELEMENT_SIZE = re.compile(r"^(\s*(?:ROOT )?%?[\w.\-]+ = \w+\[[^\]]*\])(\{[^{}]*\})( constant\()", re.M)


def constant_shapes_as_xla_reads(text):
    """A constant's shape as XLA reads it, from text or proto: the shape of
    its literal, which has no element size (`s4[2]{0:E(4)} constant(...)`
    becomes `s4[2]{0}`, a scalar's `{:E(4)}` no layout at all;
    hlo_parser.cc ParseInstruction kConstant and
    HloConstantInstruction take the literal's shape)."""
    def fix(m):
        lay = re.sub(r":E\(\d+\)", "", m.group(2))
        if lay == m.group(2):
            return m.group(0)
        return m.group(1) + ("" if lay == "{}" else lay) + m.group(3)
    return CONSTANT_ELEMENT_SIZE.sub(fix, text)


REFUSED_ATTR = re.compile(r'^unexpected attribute "([\w-]+)"')


def without_refused(text, refusal):
    """The text without the attribute XLA's refusal of the source names
    (`, name=value`, the value up to the next ',' outside brackets and
    quotes, or the end of its line); the text as given for any other
    refusal."""
    m = REFUSED_ATTR.match(refusal or "")
    if not m:
        return text
    rx = re.compile(r",\s*" + re.escape(m.group(1)) + "=")
    out, at = [], 0
    for hit in rx.finditer(text):
        if hit.start() < at:
            continue
        k, depth, quote = hit.end(), 0, False
        while k < len(text):
            c = text[k]
            if quote:
                if c == "\\":
                    k += 1
                elif c == '"':
                    quote = False
            elif c == '"':
                quote = True
            elif c in "{([":
                depth += 1
            elif c in "})]":
                if depth == 0:
                    break
                depth -= 1
            elif depth == 0 and (c == "," or c == "\n"):
                break
            k += 1
        out.append(text[at:hit.start()])
        at = k
    out.append(text[at:])
    return "".join(out)


def without_config(text):
    """The module text without its config-only header attributes."""
    return re.sub(r"^HloModule[^\n]*", lambda m: CONFIG_ONLY.sub("", m.group(0)), text, count=1, flags=re.M)


def as_xla_reads(text):
    """hilo's print as XLA's parser will read it (the two departures)."""
    text = XLA_COMPLEX_NAN.sub(lambda m: "(%s, %s)" % (m.group(1), m.group(1)), text)
    out = []
    for line in text.splitlines():
        k = line.find(" constant(")
        if k >= 0 and re.search(r"= \(?[fbc]\w*\[", line):
            line = line[:k] + XLA_NEG_ZERO.sub("0", line[k:])
        out.append(line)
    return "\n".join(out)


def compare(want, got, elide=False, names=True):
    """None when the two prints are one module (canon.py), else the first
    difference."""
    if C.quick(want, elide) == C.quick(got, elide):
        return None
    (a, an), (b, bn) = C.canon(want, elide), C.canon(got, elide)
    if a != b:
        return first_diff(a, b)
    return C.names_differ(an, bn) if names else None


def first_diff(a, b):
    if a == b:
        return ""
    al, bl = a.splitlines(), b.splitlines()
    for i, (x, y) in enumerate(zip(al, bl)):
        if x != y:
            return "line %d: want %r got %r" % (i + 1, x[:300], y[:300])
    return "line %d: want %d lines, got %d" % (min(len(al), len(bl)) + 1, len(al), len(bl))


def sources(args, tier):
    out = []
    corpus = os.path.join(args.shared, "corpus")
    if os.path.isdir(corpus):
        for name, path in X.corpus_inputs(args.shared):
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            if "/lit/" in "/" + name and "// -----" in text:
                for i, m in enumerate(X.split_modules(text)):
                    out.append(("%s#%d" % (name, i), m))
            else:
                out.append((name, text))
    else:
        tier.notes.append("no corpus at %s: its files not checked (not counted)" % corpus)
    for name, path in X.example_inputs():
        with open(path, encoding="utf-8") as f:
            out.append((name, f.read()))
    out += X.lit_inputs()
    if args.only:
        out = [s for s in out if re.search(args.only, s[0])]
    if args.cases is not None:
        out = out[:args.cases]
    return out


def main():
    args = X.tier_args("parse")
    tier = X.Tier("parse", args)
    todo = sources(args, tier)
    par = Parity(tier, args)
    jobs = int(os.environ.get("HILO_XLA_JOBS", "2"))
    # biggest first, so the long ones overlap the many small ones
    todo.sort(key=lambda s: -len(s[1]))
    try:
        with ThreadPoolExecutor(max_workers=jobs) as pool:
            for fut in [pool.submit(par.source, n, t) for n, t in todo]:
                fut.result()
    finally:
        par.close()
    tier.notes.append("%d source modules, %d distinct outputs judged" % (len(todo), len(par.seen)))
    for k, v in sorted(par.refusals.items()):
        tier.notes.append("%s refused %d source modules (not printed, not counted)" % (k, v))
    if par.desugared:
        tier.notes.append("XLA refuses %d sources as given but accepts hilo's print of them (newer syntax "
                          "hilo desugars): %s" % (len(par.desugared), ", ".join(sorted(par.desugared))))
    if par.own_proto:
        tier.notes.append("%d protos print as XLA's own proto of the source does, not as its text "
                          "(what no HloModuleProto carries: channel_id=0, the module config)" % par.own_proto)
    if par.xla_form:
        tier.notes.append("%d back checks: hilo's print of XLA's print differs from hilo's own in form only "
                          "(XLA reads it as the module it printed: sugar XLA prints for an explicit form)"
                          % par.xla_form)
    for k, v in sorted(par.departed.items()):
        tier.notes.append("departure %s taken out %d times before XLA parsed (docs/xla-departures.md)" % (k, v))
    for n in tier.notes:
        print("note: " + n)
    return tier.finish()


if __name__ == "__main__":
    sys.exit(main())
