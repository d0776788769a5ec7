"""The comparison form of a printed HLO module, for parse parity.

Two prints of one module may differ in what is not meaning: instruction
and computation order (XLA prints post order, hilo the input's order), the
names XLA gives when it makes names unique module-wide (x -> x.4, an inline
computation `_` -> `_.1`), the header comment and blank lines (XLA prints
none), the numbering of the StackFrames tables (XLA renumbers them), the
spacing of entry_computation_layout in older dumps. canon() removes exactly
those differences and keeps everything else: every instruction line with
its shape, opcode, operands and attributes, the computation signatures and
the module header.

How: instructions are numbered by a depth-first post-order walk from each
computation's ROOT over their operand references (unreached ones after, in
text order), computations by the order the entry's walk calls them; every
%name is then replaced by its number. stack_frame_id=N is replaced by the
frame chain it names (file, function, line, column up to the root frame).
Names are compared separately (names_differ): a name may change only where
XLA's uniquifier explains it.
"""

import re

REF = re.compile(r"%([A-Za-z_][\w.\-]*)")
INDEX = re.compile(r"/\*index=\d+\*/")
TABLES = ("FileNames", "FunctionNames", "FileLocations", "StackFrames")


class Parsed:
    def __init__(self):
        self.header = []
        self.tables = {t: {} for t in TABLES}
        self.comps = []  # [name, is_entry, signature line, [(name, line)]]


def parse(text):
    p = Parsed()
    cur = None
    table = None
    for raw in text.splitlines():
        s = raw.strip()
        if cur is None:
            if not s or s.startswith("//"):
                table = None if not s else table
                continue
            if s in TABLES:
                table = s
                continue
            if table:
                m = re.match(r"(\d+) (.*)$", s)
                if m:
                    p.tables[table][m.group(1)] = m.group(2)
                    continue
                table = None
            if s.endswith("{") and not s.startswith("HloModule"):
                entry = s.startswith("ENTRY ")
                m = re.match(r"(?:ENTRY )?%?([A-Za-z_][\w.\-]*)", s)
                cur = [m.group(1) if m else s, entry, s, []]
                p.comps.append(cur)
            else:
                p.header.append(s)
            continue
        if s == "}" or s.startswith("}, execution_thread="):
            # `}, execution_thread="t"`: XLA prints the thread its parser
            # gives a computation an async op on that thread calls (the
            # async op's async_execution_thread, compared there)
            cur[3] = default_outfeed_shapes(cur[3])
            cur = None
            continue
        if s and not s.startswith("//"):  # XLA drops comments
            m = re.match(r"(?:ROOT )?%?([A-Za-z_][\w.\-]*) = ", s)
            cur[3].append((m.group(1) if m else s, s))
    return p


LINE = re.compile(r"(?:ROOT )?%?([A-Za-z_][\w.\-]*) = (.*?) ([a-z][\w\-]*)\(")


def default_outfeed_shapes(instrs):
    """The instructions without an outfeed_shape= that only repeats the
    shape of the outfeed's data operand: XLA's printer always writes it,
    and its parser takes the operand's shape when it is absent (the same
    instruction)."""
    if not any(" outfeed(" in l for _, l in instrs):
        return instrs
    shapes = {}
    for n, l in instrs:
        m = LINE.match(l)
        if m:
            shapes[m.group(1)] = _unspaced(m.group(2))
    out = []
    for n, l in instrs:
        m = LINE.match(l)
        k = l.find(", outfeed_shape=")
        if m and m.group(3) == "outfeed" and k >= 0:
            ops = REF.findall(l[m.end():])
            start = k + len(", outfeed_shape=")
            rest = l[start:]
            value = top_level_split(rest)[0]
            if ops and shapes.get(ops[0]) == _unspaced(value.strip()):
                l = l[:k] + rest[len(value):]
        out.append((n, l))
    return out


def frame_chain(p, fid, depth=0):
    """The stack frame N as text: file:function:line:col <- parent ..."""
    memo = p.__dict__.setdefault("frames", {})
    if fid in memo:
        return memo[fid]
    if depth > 64:
        return "..."
    memo[fid] = _frame_chain(p, fid, depth)
    return memo[fid]


def _frame_chain(p, fid, depth):
    f = p.tables["StackFrames"].get(fid)
    if f is None:
        return None
    m = re.search(r"file_location_id=(\d+)", f)
    par = re.search(r"parent_frame_id=(\d+)", f)
    loc = p.tables["FileLocations"].get(m.group(1), "") if m else ""

    def look(table, key):
        k = re.search(key + r"=(\d+)", loc)
        return p.tables[table].get(k.group(1), "?") if k else "?"

    here = "%s:%s:%s" % (look("FileNames", "file_name_id"), look("FunctionNames", "function_name_id"),
                         re.sub(r"\w+_name_id=\d+ ?", "", loc))
    if par and par.group(1) != fid and not self_parented(p, par.group(1)):
        # (a parent that is its own parent XLA's parser drops from the
        # chain: its print of a dump that has one, as in the torax dump,
        # loses that frame; docs/xla-departures.md)
        up = frame_chain(p, par.group(1), depth + 1)
        if up:
            here += " <- " + up
    return here


def self_parented(p, fid):
    f = p.tables["StackFrames"].get(fid)
    m = re.search(r"parent_frame_id=(\d+)", f or "")
    return bool(m) and m.group(1) == fid


def header(p):
    """The module header as one line (a dump may break it over several)
    with its attributes in sorted order (hilo keeps the input's order, XLA
    prints its own), and the other lines before the computations."""
    head = [h for h in p.header if h.startswith("HloModule")]
    if not head:
        return p.header
    i = p.header.index(head[0])
    j = i + 1
    while j < len(p.header) and not p.header[j - 1].rstrip().endswith("}") and \
            p.header[j - 1].rstrip().endswith(","):
        j += 1
    line = " ".join(h.strip() for h in p.header[i:j])
    m = re.match(r"(HloModule\s+[^\s,]+)\s*,?\s*(.*)$", line)
    if m and m.group(2):
        attrs = sorted(_unspaced(a.strip()) for a in top_level_split(m.group(2)) if a.strip())
        line = m.group(1) + "," + ",".join(attrs)
    return p.header[:i] + [line] + p.header[j:]


def elide_constants(line):
    """constant(<array literal>) -> constant({...}): for modules whose source
    elided constants (XLA fills those with arbitrary values when it parses)."""
    k = line.find(" constant({")
    if k < 0:
        return line
    i = k + len(" constant(")
    depth = 0
    for j in range(i, len(line)):
        c = line[j]
        if c in "({":
            depth += 1
        elif c in ")}":
            depth -= 1
            if depth == 0:
                return line[:i] + "{...}" + line[j + 1:]
    return line


def _code_chars(s, start=0):
    """(index, character) of s from start, outside its string literals
    ("..." with backslash escapes)."""
    quote, i, n = False, start, len(s)
    while i < n:
        c = s[i]
        if quote:
            if c == "\\":
                i += 1
            elif c == '"':
                quote = False
        elif c == '"':
            quote = True
        else:
            yield i, c
        i += 1


def top_level_split(s):
    """s split at the commas outside brackets and strings."""
    parts, depth, start = [], 0, 0
    for i, c in _code_chars(s):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(s[start:i])
            start = i + 1
    parts.append(s[start:])
    return parts


def _unspaced(s):
    """s without the blanks after commas outside strings ({a, b} = {a,b})."""
    drop = set()
    for i, c in _code_chars(s):
        if c == ",":
            j = i + 1
            while j < len(s) and s[j] == " ":
                drop.add(j)
                j += 1
    return "".join(c for i, c in enumerate(s) if i not in drop)


PRED_CONSTANT = re.compile(r"(= pred\[[^\]]*\](?:\{[^}]*\})? constant\()([^)]*)\)")


def pred_values(line):
    """A pred array constant's values as 0/1: XLA prints {1, 0}, the text
    may say {true, false}; the same values."""
    return PRED_CONSTANT.sub(lambda m: m.group(1) + re.sub(r"\btrue\b", "1",
                             re.sub(r"\bfalse\b", "0", m.group(2))) + ")", line)


def sorted_attrs(line):
    """An instruction line with its attributes (after the operand list) in
    sorted order: XLA and hilo may print them in different orders, which is
    not meaning. A pred constant's values are compared as 0/1."""
    line = pred_values(line)
    k = line.find(" = ")
    if k < 0:
        return line
    depth, i, n = 0, k + 3, len(line)
    while i < n:  # the opcode's '(' : the first at depth 0 after a word
        c = line[i]
        if c in "[{" or (c == "(" and not (line[i - 1].isalnum() or line[i - 1] in "-_")):
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "(" and depth == 0:
            break
        i += 1
    if i >= n:
        return line
    depth = 0
    for j, c in _code_chars(line, i):  # its matching ')'
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                break
    else:
        return line
    rest = line[j + 1:]
    if not rest.startswith(","):
        return line
    attrs = sorted(a for a in (window_fields(a) for a in (_unspaced(a.strip()) for a in top_level_split(rest[1:]))
                               if a and a not in FALSE_DEFAULTS and not EMPTY_DIMS.match(a))
                   if a not in EMPTY_STRINGS)
    return line[:j + 1] + (", " + ", ".join(attrs) if attrs else "")


# Boolean attributes whose absence means false: XLA's printer writes them
# only when true, so an explicit =false is the same instruction.
FALSE_DEFAULTS = frozenset("%s=false" % k for k in (
    "use_global_device_ids", "constrain_layout", "is_host_transfer", "indices_are_sorted",
    "unique_indices", "custom_call_has_side_effect", "is_stable"))


# Attributes that say nothing: an empty backend_config, metadata with no
# field left (XLA prints neither).
EMPTY_STRINGS = frozenset(['backend_config=""', "metadata={}"])

# A dot's dimension lists that are empty: XLA prints the contracting
# ones always, hilo only those the input had; {} is their absence.
EMPTY_DIMS = re.compile(r"^[lr]hs_(?:batch|contracting)_dims=\{\}$")


META_FIELD = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\{[^{}]*\}|\[(?:[^\]"]|"(?:[^"\\]|\\.)*")*\]|[^\s}]+)')


def _unescaped(text):
    """A quoted attribute value's characters (C escapes undone)."""
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)


def window_fields(attr):
    """window={...} or metadata={...} with its fields in sorted order (XLA
    prints them in its order, a test may write them in any), and a
    backend_config string holding JSON as XLA prints it, unquoted
    (backend_config="{\"k\":1}" is backend_config={"k":1})."""
    if attr.startswith("metadata={") and attr.endswith("}"):
        # an empty string field is no field (proto3: XLA prints none)
        fields = [f for f in META_FIELD.findall(attr[len("metadata={"):-1]) if f[1] != '""']
        return "metadata={" + " ".join(sorted("%s=%s" % f for f in fields)) + "}"
    if attr.startswith('backend_config="{') and attr.endswith('"'):
        return "backend_config=" + _unescaped(attr[len('backend_config="'):-1])
    return _window_fields(attr)


def _window_fields(attr):
    if not attr.startswith("window={") or not attr.endswith("}"):
        return attr
    return "window={" + " ".join(sorted(attr[len("window={"):-1].split())) + "}"


_MEMO = {}


def quick(text, elide=False):
    """The cheap form: names kept, computations and instructions sorted,
    stack frames resolved. Equal quick forms are equal canonical forms."""
    key = (hash(text), len(text), elide, "q")
    hit = _MEMO.get(key)
    if hit is not None and hit[0] == text:
        return hit[1]
    p = parse(text)
    has_frames = bool(p.tables["StackFrames"])
    out = [re.sub(r"\s+", " ", INDEX.sub("", h)).replace(", ", ",") for h in header(p)]
    for comp in sorted(p.comps, key=lambda c: c[0]):
        out.append(comp[2])
        lines = []
        for _, line in comp[3]:
            line = INDEX.sub("", line)
            if elide:
                line = elide_constants(line)
            if "stack_frame_id=" in line:
                line = re.sub(r" ?stack_frame_id=(\d+)", lambda m: (
                    " stack=[%s]" % (frame_chain(p, m.group(1)) or "dangling")) if has_frames else "", line)
            lines.append(sorted_attrs(re.sub(r"\s+", " ", line)))
        out.extend(sorted(lines))
    res = "\n".join(out)
    if len(_MEMO) > 64:
        _MEMO.clear()
    _MEMO[key] = (text, res)
    return res


def canon(text, elide=False):
    """(canonical text, {canonical id: original name}). elide: array
    constants compared as {...}. Memoised: one tier compares the same
    prints many times (every style of a module against one canonical print)."""
    key = (hash(text), len(text), elide)
    hit = _MEMO.get(key)
    if hit is not None and hit[0] == text:
        return hit[1]
    res = _canon(text, elide)
    if len(_MEMO) > 64:
        _MEMO.clear()
    _MEMO[key] = (text, res)
    return res


def _canon(text, elide):
    p = parse(text)
    names = {}
    comp_ids = {}
    order = []
    by_name = {c[0]: c for c in p.comps}

    def visit_comp(cname):
        if cname in comp_ids or cname not in by_name:
            return
        comp_ids[cname] = "c%d" % len(comp_ids)
        names[comp_ids[cname]] = cname
        order.append(by_name[cname])
        for _, line in walk(by_name[cname])[1]:
            for ref in REF.findall(line.split(" = ", 1)[-1]):
                if ref in by_name:
                    visit_comp(ref)

    walked = {}

    def walk(comp):
        """The computation's instructions in canonical order, numbered."""
        key = id(comp)
        if key in walked:
            return walked[key]
        instrs = {n: l for n, l in comp[3]}
        ids = {}
        seq = []
        root = next((n for n, l in comp[3] if l.startswith("ROOT ")), comp[3][-1][0] if comp[3] else None)
        # the entry's parameters first, by number
        params = sorted(((int(re.search(r"parameter\((\d+)\)", l).group(1)), n) for n, l in comp[3]
                         if re.search(r" parameter\(\d+\)", l)), key=lambda t: t[0])

        entered = set()

        def visit(n):
            # entered: an instruction named like a computation it calls
            # (`%map = ... to_apply=%map`) or a malformed cycle must not be
            # pushed again while it is being visited
            stack = [(n, False)]
            while stack:
                x, done = stack.pop()
                if x in ids or x not in instrs:
                    continue
                if done:
                    ids[x] = "i%d" % len(ids)
                    seq.append((x, instrs[x]))
                    continue
                if x in entered:
                    continue
                entered.add(x)
                stack.append((x, True))
                refs = [r for r in REF.findall(instrs[x].split(" = ", 1)[-1]) if r in instrs]
                for r in reversed(refs):
                    if r not in ids:
                        stack.append((r, False))

        for _, n in params:
            visit(n)
        if root:
            visit(root)
        # what the root does not reach (side effects, control successors):
        # from the instructions nothing uses, in the order of their
        # name-free text (XLA prints them in its post order, hilo in the
        # input's), then any left (a cycle) in text order
        rest = [n for n, _ in comp[3] if n not in ids]
        used = set()
        for n in rest:
            used.update(r for r in REF.findall(instrs[n].split(" = ", 1)[-1]) if r in instrs)
        sinks = sorted((n for n in rest if n not in used),
                       key=lambda n: REF.sub("%", instrs[n].split(" = ", 1)[-1]))
        for n in sinks:
            visit(n)
        for n, _ in comp[3]:
            visit(n)
        walked[key] = (ids, seq)
        return walked[key]

    entry = next((c for c in p.comps if c[1]), p.comps[-1] if p.comps else None)
    if entry:
        visit_comp(entry[0])
    for c in sorted(p.comps, key=lambda c: c[2]):
        visit_comp(c[0])

    has_frames = bool(p.tables["StackFrames"])

    def fix(line, ids):
        line = INDEX.sub("", line)
        if elide:
            line = elide_constants(line)

        def sub(m):
            r = m.group(1)
            if r in ids:
                return "%" + ids[r]
            if r in comp_ids:
                return "%" + comp_ids[r]
            return m.group(0)

        line = REF.sub(sub, line)

        def frame(m):
            if not has_frames:
                return ""
            return "stack=[%s]" % (frame_chain(p, m.group(1)) or "dangling")

        line = re.sub(r" ?stack_frame_id=(\d+)", lambda m: (" " + frame(m)) if has_frames else "", line)
        line = re.sub(r"\s+", " ", line).replace("( ", "(").replace(" )", ")").replace("{ ", "{").replace(" }", "}")
        return sorted_attrs(line)

    out = []
    for h in header(p):
        h = INDEX.sub("", h)
        h = re.sub(r",\s*(?=[\w(\[{])", ", ", h)
        out.append(re.sub(r"\s+", " ", h).replace(", ", ","))
    for comp in order:
        ids, seq = walk(comp)
        for n, i in ids.items():
            names["%s/%s" % (comp_ids[comp[0]], i)] = n
        sig = fix(comp[2], {**ids})
        # parameter names in the signature: `(a: f32[])`
        sig = re.sub(r"([(,]\s*)([A-Za-z_][\w.\-]*)(?=: )",
                     lambda m: m.group(1) + ("%" + ids[m.group(2)] if m.group(2) in ids else m.group(2)), sig)
        sig = re.sub(r"^(ENTRY )?%?[A-Za-z_][\w.\-]*", lambda m: (m.group(1) or "") + "%" + comp_ids[comp[0]], sig)
        out.append(sig)
        for n, line in seq:
            out.append("  " + fix(line, ids))
        out.append("}")
    return "\n".join(out) + "\n", names


UNIQ = re.compile(r"^(.*?)(?:\.\d+)*$")
TYPE_NAMES = frozenset(["pred", "s1", "s2", "s4", "s8", "s16", "s32", "s64", "u1", "u2", "u4", "u8", "u16",
                        "u32", "u64", "f16", "bf16", "f32", "f64", "c64", "c128", "token", "opaque"] +
                       ["f8e5m2", "f8e4m3fn", "f8e4m3b11fnuz", "f8e5m2fnuz", "f8e4m3fnuz", "f8e4m3",
                        "f8e3m4", "f8e8m0fnu", "f4e2m1fn"])


def sanitized(name):
    """The name XLA's NameUniquer gives a computation it reads
    (GetSanitizedName): a primitive type name gets a '_' (s32 -> s32_), a
    reserved leading "__" becomes "a_"."""
    if name in TYPE_NAMES:
        return name + "_"
    if name.startswith("__") and not name.startswith("__xla_"):
        return "a" + name[1:]
    return name


def names_differ(want_names, got_names):
    """The first name that changed without XLA's uniquifier explaining it
    (a name x printed as x.N or x.N as x, x.0.N as x.M: XLA renames names
    that are not unique module-wide one way reading text, another reading
    a proto; or one that was not unique), or None."""
    counts = {}
    for n in want_names.values():
        counts[n] = counts.get(n, 0) + 1
    for key, w in want_names.items():
        g = got_names.get(key)
        if g is None or g == w or counts[w] > 1:
            continue
        if UNIQ.match(w).group(1) == UNIQ.match(g).group(1) or g == sanitized(w):
            continue
        return "%s: %r became %r" % (key, w, g)
    return None
