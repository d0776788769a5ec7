#!/bin/sh
# The Python package installs offline with pip and finds its library:
#  - into a venv of the python3 first on PATH, with --no-build-isolation and
#    with build isolation (pyproject.toml needs nothing downloaded);
#  - with --prefix P beside `cmake --install --prefix P`: the package finds
#    P/lib's libhilo without HILO_LIBRARY;
#  - bundling the library (HILO_BUNDLE_LIBRARY=build/libhilo.so, the path
#    relative to where pip runs, as the README writes it): a
#    platform-specific wheel whose package loads its own copy;
#  - with Debian's pip (/usr/bin/python3 -m pip --target), when present;
#  - none of these builds leaves a file behind in the source folder.
# Usage: pip.sh SOURCE_DIR BUILD_DIR
set -eu
src=$(cd "$1" && pwd)
build=$(cd "$2" && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "pip: FAIL: $*" >&2; exit 1; }
input=$src/examples/dus_chain.hlo
# as a user runs pip: Python writes bytecode beside what it imports
unset PYTHONDONTWRITEBYTECODE

py=$(command -v python3) || { echo "pip: SKIP: no python3 on PATH"; exit 77; }
"$py" -c 'import sys; sys.exit(sys.version_info < (3, 9))' ||
	{ echo "pip: SKIP: $py is older than 3.9"; exit 77; }
echo "pip: python3 on PATH: $py ($("$py" -c 'import sys; print(sys.version.split()[0])'))"

prefix=$t/prefix
cmake --install "$build" --prefix "$prefix" >"$t/install.log" || { cat "$t/install.log"; fail "cmake --install"; }
lib=$(find "$prefix" -name libhilo.so | head -1)
[ -n "$lib" ] || fail "no libhilo.so installed"

# the source as a checkout holds it: python/ and the version header
co=$t/co
mkdir -p "$co/include/hilo" "$co/build"
cp -r "$src/python" "$co/"
find "$co/python" -name __pycache__ -prune -exec rm -rf {} +
cp "$src/include/hilo/version.h" "$co/include/hilo/"
cp "$lib" "$co/build/libhilo.so"
(cd "$co" && find . | sort) >"$t/before"

"$py" -m venv "$t/venv" >"$t/venv.log" 2>&1 || { cat "$t/venv.log"; fail "$py -m venv"; }
vpy=$t/venv/bin/python
works() { # label python [env...]: the package runs a pass; prints the library it loaded
	label=$1 p=$2
	shift 2
	(cd "$t" && env -u HILO_LIBRARY "$@" "$p" -c "
import hilo
m = hilo.Module.load('$input')
m.run_passes(['neuron_repeated_dus_to_concat'], verify_each=True)
assert 'concatenate' in m.to_text()
print(hilo._find_library())
") >"$t/lib.txt" 2>"$t/err.txt" || { cat "$t/err.txt"; fail "$label: the installed package does not work"; }
	cat "$t/lib.txt"
}

# 1. venv, --no-build-isolation, offline; the library through HILO_LIBRARY
(cd "$co" && "$t/venv/bin/pip" install --no-index --no-build-isolation ./python) >"$t/pip1.log" 2>&1 ||
	{ cat "$t/pip1.log"; fail "pip install --no-build-isolation ./python (venv of $py)"; }
grep -q "Root-Is-Purelib: true" "$t"/venv/lib/python3*/site-packages/hilo-*.dist-info/WHEEL ||
	fail "a wheel without the library must be pure"
got=$(works venv "$vpy" HILO_LIBRARY="$lib")
[ "$got" = "$lib" ] || fail "venv: loaded $got, not \$HILO_LIBRARY"
"$t/venv/bin/pip" uninstall -y hilo >"$t/un.log" 2>&1 || { cat "$t/un.log"; fail "pip uninstall"; }

# 2. with build isolation (the default): nothing to download either
(cd "$co" && "$t/venv/bin/pip" install --no-index ./python) >"$t/pip2.log" 2>&1 ||
	{ cat "$t/pip2.log"; fail "pip install ./python with build isolation, offline"; }
"$t/venv/bin/pip" uninstall -y hilo >"$t/un.log" 2>&1 || { cat "$t/un.log"; fail "pip uninstall"; }

# 3. into the library's prefix: found there without HILO_LIBRARY
(cd "$co" && "$t/venv/bin/pip" install --no-index --no-build-isolation --prefix "$prefix" ./python) \
	>"$t/pip3.log" 2>&1 || { cat "$t/pip3.log"; fail "pip install --prefix"; }
site=$(echo "$prefix"/lib/python3*/site-packages)
[ -d "$site/hilo" ] || fail "pip --prefix: no $site/hilo"
got=$(works prefix "$vpy" PYTHONPATH="$site")
case $got in "$prefix"/lib*/libhilo.so*) ;; *) fail "prefix: loaded '$got', not the library of $prefix";; esac
echo "pip: --prefix install loads $got"

# 4. bundled, the command as the README writes it (from the checkout's top)
(cd "$co" && PATH="$t/venv/bin:$PATH" HILO_BUNDLE_LIBRARY=build/libhilo.so pip install --no-index \
	--no-build-isolation ./python) >"$t/pip4.log" 2>&1 || { cat "$t/pip4.log"; fail "bundling pip install"; }
grep -q "Root-Is-Purelib: false" "$t"/venv/lib/python3*/site-packages/hilo-*.dist-info/WHEEL ||
	fail "a wheel bundling libhilo.so must be platform-specific"
got=$(works bundled "$vpy")
case $got in "$t"/venv/lib/python3*/site-packages/hilo/libhilo.so) ;; *) fail "bundled: loaded '$got'";; esac
# a bundle path that does not exist is an error naming it
(cd "$co" && HILO_BUNDLE_LIBRARY=no/such.so "$t/venv/bin/pip" install --no-index --no-build-isolation \
	./python) >"$t/pip5.log" 2>&1 && fail "HILO_BUNDLE_LIBRARY=no/such.so was accepted"
grep -q "HILO_BUNDLE_LIBRARY=no/such.so: no such file" "$t/pip5.log" || { cat "$t/pip5.log"; fail "no message for a missing bundle"; }

# 5. Debian's pip, into a folder (Debian's python3 is externally managed)
if /usr/bin/python3 -m pip --version >/dev/null 2>&1; then
	(cd "$co/python" && HILO_BUNDLE_LIBRARY="$lib" /usr/bin/python3 -m pip install --no-index \
		--no-build-isolation --target "$t/site" .) >"$t/pip6.log" 2>&1 ||
		{ cat "$t/pip6.log"; fail "Debian pip install --target"; }
	got=$(works debian /usr/bin/python3 PYTHONPATH="$t/site")
	[ "$got" = "$t/site/hilo/libhilo.so" ] || fail "Debian pip: loaded '$got'"
	debian="Debian pip"
else
	debian="SKIP Debian pip: /usr/bin/python3 has no pip"
fi

(cd "$co" && find . | sort) >"$t/after"
diff "$t/before" "$t/after" >"$t/diff" || { cat "$t/diff"; fail "the pip builds left files in the source folder"; }
echo "pip: ok (venv of $py: --no-build-isolation, isolated, --prefix, bundled; $debian; source folder unchanged)"
case $debian in SKIP*) exit 77;; esac
