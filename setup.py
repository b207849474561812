"""Only the optional C extension is declared here; everything else is in pyproject.toml.

`_core` (the native engine's compiled core: the grid state, line solver, propagation, probing and the CDCL
search in C, for lines of up to 127 cells) is optional: when no C compiler is there, the build warns and
the install goes on, and the engine runs its Python reference core (nonocp.engines.native.core says which
is in use).
"""

from glob import glob

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "nonocp.engines.native._core",
            sorted(glob("src/nonocp/engines/native/csrc/*.c")),
            depends=glob("src/nonocp/engines/native/csrc/*.h"),
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
