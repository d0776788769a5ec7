"""hilo.jax without jax: importing it needs no jax, and install() says
that jax is missing (an ImportError), not something else. With jax, the
XLA tier (tests/xla/models/run.py, "hilo.jax install/uninstall") tests
install() and uninstall() inside XLA's compiler."""
import importlib.util

import pytest

import hilo.jax

HAVE_JAX = importlib.util.find_spec("jax") is not None


@pytest.mark.skipif(HAVE_JAX, reason="jax is installed: the XLA tier tests hilo.jax")
def test_install_without_jax_is_an_import_error():
    with pytest.raises(ImportError):
        hilo.jax.install(passes=["dce"])
    with pytest.raises(ImportError):
        hilo.jax.uninstall()


def test_bad_arguments_are_refused_before_jax_is_needed():
    with pytest.raises(ValueError):
        hilo.jax.install(passes=["dce"], on_error="ignore")


def test_report_sums_verdicts():
    r = hilo.jax.Report([{"equivalence": {"rewrites": 2, "proved": 1, "tested": 1, "message": "m"}},
                         {"equivalence": None}, {"equivalence": {"rewrites": 1, "proved": 1}}])
    assert r.verdicts() == {"rewrites": 3, "proved": 2, "tested": 1}
