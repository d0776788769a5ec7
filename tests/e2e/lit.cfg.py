# End-to-end tests of the loop-unrolled index flow (issue 9): scaled-down
# copies of the loop structures of real scanned-layer models. Same runner
# and substitutions as tests/lit.
import os

lit_config.load_config(config, os.path.join(os.path.dirname(__file__), "..", "lit", "lit.cfg.py"))
config.name = "hilo-e2e"
config.test_source_root = os.path.dirname(__file__)
config.excludes = ["Inputs", "lit.cfg.py", "tests.cmake", "corpus_figures.sh"]
