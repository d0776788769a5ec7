# Sourced by the install tests (run.sh, plugin.sh) after they set `name`:
# takes SOURCE_DIR BUILD_DIR from their arguments and installs the build
# into a temporary prefix. Sets src (absolute: sub-builds run elsewhere),
# build, t (scratch, removed on exit), prefix, libdir (holding pkgconfig/)
# and PKG_CONFIG_PATH; defines fail MESSAGE ("NAME: FAIL: MESSAGE", exit 1).
set -eu
src=$(cd "$1" && pwd)
build=$2
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() { echo "$name: FAIL: $*" >&2; exit 1; }
prefix=$t/prefix
cmake --install "$build" --prefix "$prefix" >"$t/install.log" || { cat "$t/install.log"; fail "cmake --install"; }
libdir=$prefix/lib
[ -d "$libdir/pkgconfig" ] || libdir=$(dirname "$(find "$prefix" -name hilo.pc | head -1)")/..
export PKG_CONFIG_PATH="$libdir/pkgconfig"
