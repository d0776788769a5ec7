"""Installs the hilo Python package (pure Python over libhilo via ctypes).

    pip install ./python                 # uses a libhilo found at run time
    HILO_BUNDLE_LIBRARY=build/libhilo.so pip install ./python
                                         # bundles that library in the package
                                         # (the wheel is then platform-specific)

Works offline with Debian's python3-setuptools and python3-pip.
"""
import os
import shutil

from setuptools import setup
from setuptools.dist import Distribution

here = os.path.dirname(os.path.abspath(__file__))
bundle = os.environ.get("HILO_BUNDLE_LIBRARY")
package_data = {}
if bundle:
    shutil.copyfile(bundle, os.path.join(here, "hilo", "libhilo.so"))
    package_data = {"hilo": ["libhilo.so"]}


class BinaryDistribution(Distribution):
    """A bundled libhilo.so makes the wheel platform-specific."""

    def has_ext_modules(self):
        return bool(bundle)


def version():
    v = {}
    with open(os.path.join(here, "..", "include", "hilo", "version.h")) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[0] == "#define" and parts[1].startswith("HILO_VERSION_") \
                    and parts[2].isdigit():
                v[parts[1][13:]] = parts[2]
    return "%s.%s.%s" % (v.get("MAJOR", "0"), v.get("MINOR", "0"), v.get("PATCH", "0"))


setup(
    name="hilo",
    version=version(),
    description="XLA HLO graph passes (Neuron hlo-opt passes, proved rewrites) over libhilo",
    license="Apache-2.0",
    packages=["hilo"],
    package_data=package_data,
    distclass=BinaryDistribution,
    python_requires=">=3.8",
)
