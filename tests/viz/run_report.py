"""The rewrite report (hilo-opt --report=FILE.html, docs/viz.md):
 - for examples/unrolled_loop.hlo and dus_chain.hlo under the neuron
   pipeline: every rewrite group is a section with a before (and, unless
   the rewrite removed code, an after) picture, each a non-empty SVG;
   sections name the pass and the verdict; no network references;
 - without Graphviz on PATH the DOT text is embedded instead, with a note;
 - headless Chromium loads the page: the DOM it builds has the same
   sections and SVG nodes, and a screenshot is written (skipped with a
   message, never passed, when Chromium is not installed: exit 77).
Usage: run_report.py BUILD_DIR SOURCE_DIR"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

build, src = sys.argv[1], sys.argv[2]
opt = os.path.join(build, "hilo-opt")
here_viz = os.path.join(src, "tests", "viz")
tmp = tempfile.mkdtemp()
failures = checks = 0


def check(cond, what):
    global failures, checks
    checks += 1
    if not cond:
        failures += 1
        print("FAIL:", what)
    return cond


def sections(html):
    return re.findall(r'<section class="rewrite".*?</section>', html, re.S)


def check_report(html, label, need_svg):
    secs = sections(html)
    check(len(secs) >= 1, "%s: at least one rewrite section" % label)
    for s in secs:
        m = re.search(r'data-pass="([^"]+)" data-verdict="([^"]+)"', s)
        check(m and m.group(2) in ("proved", "tested", "assumed"), "%s: section verdict %s" % (label, m and m.group(2)))
        figs = re.findall(r"<figure>.*?</figure>", s, re.S)
        removed = " removed &mdash;" in s
        check(len(figs) == (1 if removed else 2), "%s: %d pictures in a section (%s)" % (label, len(figs), s[:120]))
        for f in figs:
            if need_svg:
                check("<svg" in f and f.count('class="node"') >= 1, "%s: a picture is an SVG with nodes" % label)
            else:
                check('<pre class="dot">' in f and "digraph" in f, "%s: DOT text embedded" % label)
    check("http://" not in re.sub(r'xmlns(:xlink)?="http://www\.w3\.org/[^"]*"|"-//W3C//DTD[^"]*"|http://www\.w3\.org/Graphics/SVG/1\.1/DTD/svg11\.dtd', "", html)
          and "https://" not in html and "<script src" not in html and "<link" not in html,
          "%s: self-contained (no network references)" % label)
    return secs


have_dot = shutil.which("dot") is not None
for ex in ["unrolled_loop", "dus_chain"]:
    path = os.path.join(tmp, ex + ".html")
    p = subprocess.run([opt, os.path.join(src, "examples", ex + ".hlo"), "--pipeline=neuron",
                        "--report=" + path, "-o", os.path.join(tmp, ex + ".hlo")],
                       capture_output=True, text=True)
    if not check(p.returncode == 0 and os.path.exists(path), "%s: hilo-opt --report: %s" % (ex, p.stderr)):
        continue
    html = open(path).read()
    secs = check_report(html, ex, have_dot)
    m = re.search(r"equivalence: (\d+) rewrites", p.stderr)
    check(m and "equivalence: %s rewrites" % m.group(1) in html, "%s: the summary line is in the report" % ex)
    check(m and re.search(r"<p>%s rewrites? \(as the equivalence line counts them\)" % m.group(1), html),
          "%s: the report counts rewrites as the summary line does" % ex)
    check("neuron_repeated_dus_to_concat" in html or ex != "dus_chain", "dus_chain: the concat rewrite is shown")

# what the page tells a reader (issue 32 section 4), dus_chain by hand
version = subprocess.run([opt, "--version"], capture_output=True, text=True).stdout.split()[-1]
dus = os.path.join(src, "examples", "dus_chain.hlo")
path = os.path.join(tmp, "dus_chain.html")
args = [opt, dus, "--pipeline=neuron", "--report=" + path, "-o", os.path.join(tmp, "dus it's.hlo")]
p = subprocess.run(args, capture_output=True, text=True)
if check(p.returncode == 0, "dus_chain report: %s" % p.stderr):
    html = open(path).read()
    # the header: hilo's version and the command line as a shell reads it back
    check('<p id="version">hilo %s</p>' % version in html, "the header has hilo's version %s" % version)
    quoted = " ".join(args[:-1]) + " '" + os.path.join(tmp, "dus it'\\''s.hlo") + "'"
    check('<p id="command">command: <code>%s</code></p>' % quoted.replace("'", "'") in html.replace("&#39;", "'"),
          "the header has the command line %r" % quoted)
    # the legend: one swatch per category, the two border roles, the stub
    leg = re.search(r'<div id="legend">.*?</div>', html, re.S)
    check(leg and len(re.findall(r'class="sw" style="background:#', leg.group(0))) == 9
          and "dot, convolution" in leg.group(0) and "#c62828" in leg.group(0) and "#2e7d32" in leg.group(0)
          and "more inputs" in leg.group(0), "the legend: 9 categories, the border roles, the stub")
    secs = sections(html)
    conc = [x for x in secs if "replaced by concatenate" in x]
    if check(len(conc) == 1, "one concat section"):
        before = re.findall(r"<figure>.*?</figure>", conc[0], re.S)[0]
        # depth 2 around dus.3 cuts off a (operand of dus.1) and c (of dus.0)
        if have_dot:
            check(re.search(r">1 more input:</text>\s*<text[^>]*>a</text>", before) is not None,
                  "before picture: a stub names the omitted input a")
            check(re.search(r">2 more inputs:</text>\s*<text[^>]*>base</text>\s*<text[^>]*>c</text>", before)
                  is not None, "before picture: a stub names the omitted inputs base and c")
            # replaced dus.3: fill of its category (data movement), red border
            node = re.search(r'<path fill="([^"]+)" stroke="([^"]+)" stroke-width="4"[^>]*/>\s*'
                             r'<text[^>]*>ROOT dus\.3</text>', before)
            check(node and node.groups() == ("#c8e6c9", "#c62828"),
                  "replaced node: category fill, role border (%r)" % (node and node.groups(),))
            check(">REPLACED</text>" in before, "replaced node says so")
    dead = [x for x in secs if "constant removed" in x]
    if check(len(dead) == 1, "one removed-constant section") and have_dot:
        # the removed constant 'zero' is a node (not folded into broadcast's label), marked
        check(re.search(r">zero</text>\s*<text[^>]*>constant</text>\s*<text[^>]*>f32\[\]</text>\s*"
                        r"<text[^>]*>REMOVED</text>", dead[0]) is not None, "the removed constant is drawn, marked REMOVED")
    # metadata-only rewrites: the index simplifier's four tokens
    meta = re.search(r'<table id="metadata-rewrites">.*?</table>', html, re.S)
    rows = re.findall(r"<tr><td>neuron-dus-ds-index-simplifier</td><td>(dus\.\d)</td><td>wrote dusidxnow= tokens "
                      r"for 2 dimension\(s\)</td><td>([^<]*)</td></tr>", meta.group(0) if meta else "")
    check(rows == [("dus.0", "jit(f)/dynamic_update_slice,dusidxnow=2,dusidxnow=0"),
                   ("dus.1", "jit(f)/dynamic_update_slice,dusidxnow=0,dusidxnow=0"),
                   ("dus.2", "jit(f)/dynamic_update_slice,dusidxnow=3,dusidxnow=0"),
                   ("dus.3", "jit(f)/dynamic_update_slice,dusidxnow=1,dusidxnow=0")],
          "the four metadata-only rewrites with their tokens: %r" % rows)
    check("<p>0 computations of the input are not in the result.</p>" in html, "dus_chain: no computation removed")

# metadata-only rewrites in a pass that also makes records: found by the
# diff of the modules around the pass (the marker's records are drawn)
path = os.path.join(tmp, "mixed.html")
p = subprocess.run([opt, os.path.join(here_viz, "mixed_tokens.hlo"), "--passes=neuron-dus-ds-index-simplifier",
                    "--report=" + path, "-o", os.path.join(tmp, "mixed.hlo")], capture_output=True, text=True)
if check(p.returncode == 0, "mixed_tokens report: %s" % p.stderr):
    html = open(path).read()
    check(len(sections(html)) >= 1, "mixed_tokens: the marker's records are drawn")
    meta = re.search(r'<table id="metadata-rewrites">.*?</table>', html, re.S)
    rows = re.findall(r"<tr><td>neuron-dus-ds-index-simplifier</td><td>(ds\d)</td><td>metadata changed, was: "
                      r"&quot;([^&]*)&quot;</td><td>&quot;([^&]*)&quot;</td></tr>", meta.group(0) if meta else "")
    check(rows == [("ds1", "jit(f)/s1", "jit(f)/s1,dsidxnow=2,dsidxnow=0"),
                   ("ds2", "jit(f)/s2", "jit(f)/s2,dsidxnow=0,dsidxnow=0")],
          "mixed pass: both slices' tokens listed, before and after: %r" % rows)

# a removed computation is listed
path = os.path.join(tmp, "removed.html")
p = subprocess.run([opt, os.path.join(here_viz, "removed_comp.hlo"), "--passes=dce", "--report=" + path,
                    "-o", os.path.join(tmp, "removed.hlo")], capture_output=True, text=True)
if check(p.returncode == 0, "removed_comp report: %s" % p.stderr):
    html = open(path).read()
    check("<p>1 computation of the input is not in the result.</p>" in html and
          re.search(r'<ul id="removed-computations">\s*<li><code>unused_add</code></li>\s*</ul>', html),
          "the removed computation unused_add is listed")

# no Graphviz: DOT embedded, with a note
path = os.path.join(tmp, "nodot.html")
env = dict(os.environ, PATH="/nonexistent")
p = subprocess.run([opt, os.path.join(src, "examples", "dus_chain.hlo"), "--pipeline=neuron",
                    "--report=" + path, "-o", os.path.join(tmp, "nodot.hlo")], capture_output=True, text=True, env=env)
if check(p.returncode == 0, "report without dot: %s" % p.stderr):
    html = open(path).read()
    check("could not be run" in html, "report without dot says so")
    check('fillcolor=&quot;#c8e6c9&quot;, color=&quot;#c62828&quot;, penwidth=4' in html,
          "embedded DOT: the replaced node keeps its category fill, the role is the border")
    check_report(html, "nodot", False)

# usage errors
p = subprocess.run([opt, os.path.join(src, "examples", "dus_chain.hlo"), "--split-input-file",
                    "--report=" + os.path.join(tmp, "x.html")], capture_output=True, text=True)
check(p.returncode == 2 and "--report" in p.stderr, "--report with --split-input-file is a usage error")

# the browser
chrome = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
browser = "skipped"
if chrome and have_dot:
    page = os.path.join(tmp, "unrolled_loop.html")
    args = [chrome, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--user-data-dir=" + os.path.join(tmp, "profile")]
    d = subprocess.run(args + ["--dump-dom", "file://" + page], capture_output=True, text=True, timeout=120)
    dom = d.stdout
    src_secs = sections(open(page).read())
    dom_secs = sections(dom)
    check(d.returncode == 0 and len(dom_secs) == len(src_secs) and len(dom_secs) >= 1,
          "browser DOM has the %d rewrite sections (got %d)" % (len(src_secs), len(dom_secs)))
    for s in dom_secs:
        check(s.count("<svg") >= 1 and 'class="node"' in s, "browser DOM: each section has SVG pictures")
    check('id="declined"' in dom and 'id="passes"' in dom, "browser DOM: passes and declined tables")
    shot = os.path.join(tmp, "shot.png")
    subprocess.run(args + ["--window-size=1400,2000", "--screenshot=" + shot, "file://" + page],
                   capture_output=True, text=True, timeout=120)
    check(os.path.exists(shot) and os.path.getsize(shot) > 20000, "browser screenshot written (%s)" %
          (os.path.getsize(shot) if os.path.exists(shot) else "none"))
    browser = "checked"
else:
    print("SKIP browser part: %s" % ("no Graphviz" if not have_dot else "Chromium not installed (Debian package chromium)"))

shutil.rmtree(tmp, ignore_errors=True)
print("report: browser %s" % browser)
print("%d passed, %d failed" % (checks - failures, failures))
if failures:
    sys.exit(1)
sys.exit(77 if browser == "skipped" else 0)
