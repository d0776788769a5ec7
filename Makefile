# hilo top-level Makefile: the two commands of the README, plus bench.
#   make demo   build, then run the main job on the bundled examples
#   make test   build (release + ASan/UBSan + TSan), run every test via ctest
#               (the TSan build runs the thread test and a few fast ones)
#   make bench  release build, throughput figures on the corpus
#   make xla-check  the XLA tier (tests/xla): real XLA (jax/jaxlib 0.10.2 in
#               a pinned venv outside the checkout) parses, runs and compares
#               what hilo reads and writes; also the last step of make test
#   make fuzz   sanitizer build, every fuzz target FUZZ_SECONDS (default 10) s each
#   make install PREFIX=/usr/local   tools, libraries, headers, hilo.pc,
#               the CMake package and man pages (cmake --install)
# Each target first installs missing Debian packages when run as root.

BUILD      ?= build
BUILD_SAN  ?= build-asan
BUILD_TSAN ?= build-tsan
JOBS       ?= $(shell nproc 2>/dev/null || echo 2)
SHARED     ?= $(abspath ../shared)
PREFIX     ?= /usr/local
CMAKE_ARGS ?=

# Debian packages the build and tests need (binary -> package).
DEB_PKGS = cmake:cmake gcc:gcc g++:g++ make:make clang:clang python3:python3 \
           /usr/lib/llvm-14/bin/FileCheck:llvm-14-tools \
           /usr/lib/llvm-14/lib/clang/14.0.6/lib/linux/libclang_rt.fuzzer-x86_64.a:libclang-rt-14-dev \
           protoc-c:protobuf-c-compiler \
           /usr/include/protobuf-c/protobuf-c.h:libprotobuf-c-dev \
           pkg-config:pkg-config \
           /usr/lib/python3/dist-packages/numpy:python3-numpy \
           /usr/lib/python3/dist-packages/pytest:python3-pytest \
           /usr/lib/python3/dist-packages/setuptools:python3-setuptools \
           /usr/lib/python3/dist-packages/pip:python3-pip \
           /usr/lib/python3.11/ensurepip/__init__.py:python3-venv \
           dot:graphviz \
           chromium:chromium

.PHONY: all deps deps-debian deps-xla build build-san test xla-check xla-check-run demo bench mutate fuzz install clean

# The XLA tier's virtual environment (tests/xla/venv.sh): by default
# $${XDG_CACHE_HOME:-$$HOME/.cache}/hilo/venv-jax-0.10.2-py<ver>-<key>, shared
# by every clone on the machine; XLA_VENV=DIR puts it elsewhere.
XLA_VENV ?= $(HILO_XLA_VENV)
export HILO_XLA_VENV := $(XLA_VENV)

FUZZ_SECONDS ?= 10

all: build

deps: deps-debian deps-xla

deps-debian:
	@missing=""; \
	for pair in $(DEB_PKGS); do \
	  bin=$${pair%%:*}; pkg=$${pair##*:}; \
	  case $$bin in /*) [ -e $$bin ] || missing="$$missing $$pkg";; \
	               *) command -v $$bin >/dev/null 2>&1 || missing="$$missing $$pkg";; esac; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "installing:$$missing"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing) >/dev/null || \
	      { echo "apt-get install failed for:$$missing" >&2; exit 1; }; \
	  else \
	    echo "missing Debian packages:$$missing (run as root, or install them)" >&2; exit 1; \
	  fi; \
	fi

# The pinned jax venv for the XLA tier; when the registry cannot be reached
# venv.sh says `skipped: jax not installable (REASON)` and deps goes on (the
# tier is then reported skipped, never passed).
deps-xla:
	@py=$$(sh tests/xla/venv.sh) && echo "xla tier python: $$py" || true

build: deps-debian
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DHILO_WERROR=ON \
	  -DHILO_SHARED_DIR=$(SHARED) $(CMAKE_ARGS) >/dev/null
	@cmake --build $(BUILD) -j $(JOBS)

build-san: deps-debian
	@cmake -S . -B $(BUILD_SAN) -DCMAKE_BUILD_TYPE=Debug -DHILO_WERROR=ON -DHILO_SANITIZE=ON \
	  -DCMAKE_C_COMPILER=clang -DHILO_FUZZ=ON -DHILO_FAULT_INJECTION=ON -DHILO_SHARED_DIR=$(SHARED) $(CMAKE_ARGS) >/dev/null
	@cmake --build $(BUILD_SAN) -j $(JOBS)

# ThreadSanitizer build: only what the thread test and the few fast tests
# run there need (TSAN_TESTS), to keep make test short. threads.batch runs
# hilo-opt --batch -j 4 (hence hilo-opt among the targets).
TSAN_TARGETS = test_threads test_driver hilo-opt pto-opt
TSAN_TESTS   = ^(threads\.|unit\.test_driver$$|output\.)
build-tsan: deps-debian
	@cmake -S . -B $(BUILD_TSAN) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHILO_WERROR=ON -DHILO_TSAN=ON \
	  -DCMAKE_C_COMPILER=clang -DHILO_SHARED_DIR=$(SHARED) $(CMAKE_ARGS) >/dev/null
	@cmake --build $(BUILD_TSAN) -j $(JOBS) --target $(TSAN_TARGETS)

# The release suite, then the same suite under ASan+UBSan (which also runs
# the bounded fuzz smoke runs), then the thread test under TSan.
test: build build-san build-tsan deps-xla
	@echo "== release build tests"
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)
	@echo "== ASan+UBSan build tests"
	@cd $(BUILD_SAN) && ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  ctest --output-on-failure -j $(JOBS)
	@echo "== ThreadSanitizer build tests"
	@cd $(BUILD_TSAN) && TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" \
	  ctest --output-on-failure -j $(JOBS) -R '$(TSAN_TESTS)'
	@echo "== XLA tier ($(XLA_TEST_TIERS); make xla-check runs every sub-tier)"
	@$(MAKE) --no-print-directory xla-check-run XLA_CHECK_ARGS="--only=$(XLA_TEST_TIERS) --suite $(XLA_CHECK_ARGS)"

# The sub-tiers `make test` runs, with --suite: the run tier then runs its
# fixed stratified selection (tests/xla/run/run.py SUITE_QUOTA: every kind of
# pair, every planted pass, at least 200 cases, ~4-5 min on 2 cores; the whole
# tier ~5 min, 275 cases); the others run whole (parse ~2.5 min, 35990 checks).
# `make xla-check` runs all four whole.
XLA_TEST_TIERS ?= parse,run,evaluator,models

# The XLA tier (tests/xla/README.md). Exit 77 from the driver = skipped (jax
# not installable): reported, not a failure of make, never counted as passed.
xla-check: build deps-xla
	@$(MAKE) --no-print-directory xla-check-run

xla-check-run:
	@rc=0; python3 tests/xla/xla_check.py --build $(BUILD) --shared $(SHARED) $(XLA_CHECK_ARGS) || rc=$$?; \
	if [ $$rc = 77 ]; then exit 0; fi; exit $$rc

# The demo's build is quiet: no make-internal lines ("make[1]: Entering
# directory", "[ 42%] Built target"): the build's output goes to
# $(BUILD)/demo-build.log, shown only when the build fails. The inner make
# is started as a top-level one (no MAKELEVEL/MAKEFLAGS: no directory lines).
demo: deps-debian
	@mkdir -p $(BUILD)
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=Release -DHILO_WERROR=ON \
	  -DHILO_SHARED_DIR=$(SHARED) $(CMAKE_ARGS) >$(BUILD)/demo-build.log 2>&1 || \
	  { cat $(BUILD)/demo-build.log; exit 1; }
	@env -u MAKELEVEL -u MAKEFLAGS -u MFLAGS cmake --build $(BUILD) -j $(JOBS) \
	  >>$(BUILD)/demo-build.log 2>&1 || { cat $(BUILD)/demo-build.log; exit 1; }
	@sh examples/demo.sh $(BUILD)

bench: build
	@sh bench/run.sh $(BUILD) $(SHARED)

# Mutation testing of every pass (tests/mutate/mutate.py): MUTANTS per
# pass, spread over its code, on its lit inputs and the real dumps; the
# report in $(BUILD)/mutate.json. Exit 1 when a mutant escaped.
MUTANTS ?= 40
mutate: build
	@python3 tests/mutate/mutate.py --build $(BUILD) --max $(MUTANTS) --corpus $(SHARED)/corpus/real \
	  --report $(BUILD)/mutate.json

fuzz: build-san
	@sh fuzz/run.sh $(BUILD_SAN) $(FUZZ_SECONDS)

install: build
	@cmake --install $(BUILD) --prefix $(PREFIX)

clean:
	rm -rf $(BUILD) $(BUILD_SAN) $(BUILD_TSAN)
