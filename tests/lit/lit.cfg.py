# lit configuration for hilo's golden tests (XLA's convention):
#   // RUN: hilo-opt %s --passes=dce | FileCheck %s
# Parameters (set by tests/lit/tests.cmake): hilo_bin = folder with the
# built tools; filecheck, not = LLVM's FileCheck and not.
import os
import lit.formats

config.name = "hilo"
config.test_format = lit.formats.ShTest(True)
config.suffixes = [".hlo"]
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["Inputs", "lit.cfg.py", "tests.cmake", "run_lit.sh"]

params = lit_config.params
hilo_bin = params.get("hilo_bin")
if not hilo_bin:
    lit_config.fatal("pass --param hilo_bin=<build dir with hilo-opt>")
llvm_bin = params.get("llvm_bin", "/usr/lib/llvm-14/bin")
# Output/ folders go under the build tree, never into the sources. Each
# run_lit.sh invocation (one ctest test per folder, run in parallel) gets
# its own exec root: lit rewrites .lit_test_times.txt there after every
# run, and two runs sharing one file read each other's half-written copy.
config.test_exec_root = os.path.join(hilo_bin, "lit-out", params.get("lit_tag", "all"))

# Longest names first so "hilo-opt" is not a prefix problem for others.
# hilo-opt-test: hilo-opt with the test-only passes (tests/lib). Keys are
# regular expressions applied in turn: hilo-opt must not match the path
# the first one wrote.
config.substitutions.append(("hilo-opt-test", os.path.join(hilo_bin, "hilo-opt-test")))
config.substitutions.append(("hilo-opt(?!-test)", os.path.join(hilo_bin, "hilo-opt")))
config.substitutions.append(("hilo-run", os.path.join(hilo_bin, "hilo-run")))
config.substitutions.append(("FileCheck", os.path.join(llvm_bin, "FileCheck")))
config.substitutions.append(("not ", os.path.join(llvm_bin, "not") + " "))

# Keep sanitizer settings from the caller (make test sets them).
for var in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS", "HOME", "TMPDIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]
