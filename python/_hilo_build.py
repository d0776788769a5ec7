"""The build backend of the hilo Python package (PEP 517, PEP 660).

    pip install ./python                    # uses a libhilo found at run time
    HILO_BUNDLE_LIBRARY=build/libhilo.so pip install ./python
                                            # bundles that library in the package
                                            # (the wheel is then platform-specific)

The package is pure Python (ctypes over libhilo), so this backend needs
nothing but the standard library: pyproject.toml lists no build
requirements, and pip builds offline with or without build isolation
(`--no-build-isolation`) on any Python >= 3.9, whatever setuptools or wheel
it has. It writes only into the directories pip gives it: no build/ or
egg-info folder appears in the checkout.

HILO_BUNDLE_LIBRARY: the libhilo.so to copy into the package. A relative
path is read from the directory pip was started in ($PWD), else from the
checkout's top (the folder above python/), so the command above works from
the checkout's top as written.
"""
import base64
import hashlib
import io
import os
import sys
import sysconfig
import tarfile
import zipfile

# pip imports this file from the checkout: Python has just written its
# bytecode beside it. Remove it, so that a build leaves the checkout as it
# was (nothing else here imports from the checkout).
sys.dont_write_bytecode = True
try:
    import importlib.util
    _pyc = importlib.util.cache_from_source(os.path.abspath(__file__))
    if os.path.exists(_pyc):
        os.remove(_pyc)
        os.rmdir(os.path.dirname(_pyc))     # only when now empty
except OSError:
    pass

HERE = os.path.dirname(os.path.abspath(__file__))
NAME = "hilo"
SUMMARY = "XLA HLO graph passes (Neuron hlo-opt passes, proved rewrites) over libhilo"


def _version():
    """MAJOR.MINOR.PATCH from include/hilo/version.h (a checkout), or the
    PKG-INFO of an sdist."""
    v = {}
    header = os.path.join(HERE, "..", "include", "hilo", "version.h")
    if os.path.exists(header):
        with open(header) as f:
            for line in f:
                parts = line.split()
                if len(parts) == 3 and parts[0] == "#define" and \
                        parts[1].startswith("HILO_VERSION_") and parts[2].isdigit():
                    v[parts[1][len("HILO_VERSION_"):]] = parts[2]
        if {"MAJOR", "MINOR", "PATCH"} <= set(v):
            return "%s.%s.%s" % (v["MAJOR"], v["MINOR"], v["PATCH"])
    pkg_info = os.path.join(HERE, "PKG-INFO")
    if os.path.exists(pkg_info):
        with open(pkg_info) as f:
            for line in f:
                if line.startswith("Version: "):
                    return line.split(None, 1)[1].strip()
    raise RuntimeError("hilo: no version: neither %s nor %s holds one" % (header, pkg_info))


def _bundle():
    """The library to bundle (an existing file), or None."""
    want = os.environ.get("HILO_BUNDLE_LIBRARY")
    if not want:
        return None
    if os.path.isabs(want):
        tried = [want]
    else:
        tried = []
        for d in (os.environ.get("PWD"), os.path.dirname(HERE)):
            if d and os.path.join(d, want) not in tried:
                tried.append(os.path.join(d, want))
    for path in tried:
        if os.path.isfile(path):
            return os.path.realpath(path)
    raise RuntimeError("hilo: HILO_BUNDLE_LIBRARY=%s: no such file (tried %s)"
                       % (want, ", ".join(os.path.normpath(p) for p in tried)))


def _metadata(version):
    return ("Metadata-Version: 2.1\nName: %s\nVersion: %s\nSummary: %s\n"
            "License: Apache-2.0\nRequires-Python: >=3.9\n" % (NAME, version, SUMMARY))


def _sources():
    """(archive name, path) of the package's modules."""
    pkg = os.path.join(HERE, NAME)
    return [("%s/%s" % (NAME, f), os.path.join(pkg, f))
            for f in sorted(os.listdir(pkg)) if f.endswith(".py")]


def _tag(bundled):
    if not bundled:
        return "py3-none-any"
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return "py3-none-%s" % plat


class _Wheel:
    """A wheel written with a RECORD of every file."""

    def __init__(self, path, dist_info):
        self.zip = zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED)
        self.dist_info = dist_info
        self.record = []

    def add(self, name, data):
        self.zip.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)), data)
        digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        self.record.append("%s,sha256=%s,%d" % (name, digest, len(data)))

    def close(self):
        name = "%s/RECORD" % self.dist_info
        self.record.append("%s,," % name)
        self.zip.writestr(zipfile.ZipInfo(name, (1980, 1, 1, 0, 0, 0)),
                          "\n".join(self.record) + "\n")
        self.zip.close()


def _dist_info_files(version, bundled):
    wheel = ("Wheel-Version: 1.0\nGenerator: hilo (python/_hilo_build.py)\n"
             "Root-Is-Purelib: %s\nTag: %s\n" % ("false" if bundled else "true", _tag(bundled)))
    return {"METADATA": _metadata(version), "WHEEL": wheel, "top_level.txt": NAME + "\n"}


def _build(wheel_directory, editable):
    version = _version()
    bundle = None if editable else _bundle()
    dist_info = "%s-%s.dist-info" % (NAME, version)
    filename = "%s-%s-%s.whl" % (NAME, version, _tag(bundle))
    w = _Wheel(os.path.join(wheel_directory, filename), dist_info)
    if editable:    # the checkout's python/ on sys.path
        w.add("__editable__.%s.pth" % NAME, (HERE + "\n").encode())
    else:
        for arc, path in _sources():
            with open(path, "rb") as f:
                w.add(arc, f.read())
        if bundle:
            with open(bundle, "rb") as f:
                w.add("%s/libhilo.so" % NAME, f.read())
    for name, text in _dist_info_files(version, bundle).items():
        w.add("%s/%s" % (dist_info, name), text.encode())
    w.close()
    return filename


# ---- PEP 517 / PEP 660 hooks ---------------------------------------------

def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def get_requires_for_build_editable(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    version = _version()
    dist_info = "%s-%s.dist-info" % (NAME, version)
    os.mkdir(os.path.join(metadata_directory, dist_info))
    for name, text in _dist_info_files(version, _bundle()).items():
        with open(os.path.join(metadata_directory, dist_info, name), "w") as f:
            f.write(text)
    return dist_info


prepare_metadata_for_build_editable = prepare_metadata_for_build_wheel


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    return _build(wheel_directory, editable=False)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    return _build(wheel_directory, editable=True)


def build_sdist(sdist_directory, config_settings=None):
    version = _version()
    base = "%s-%s" % (NAME, version)
    filename = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, filename), "w:gz") as tar:
        def add(arc, data):
            info = tarfile.TarInfo("%s/%s" % (base, arc))
            info.size = len(data)
            info.mtime = 0
            tar.addfile(info, io.BytesIO(data))
        for arc in ("pyproject.toml", "_hilo_build.py"):
            with open(os.path.join(HERE, arc), "rb") as f:
                add(arc, f.read())
        for arc, path in _sources():
            with open(path, "rb") as f:
                add(arc, f.read())
        add("PKG-INFO", _metadata(version).encode())
    return filename
