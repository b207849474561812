"""Only the optional C extension is declared here; everything else is in pyproject.toml.

`_fastline` (the native engine's line solver and propagation loop in C, for lines of up to 127 cells) is
optional: when no C compiler is there, the build warns and the install goes on, and the engine runs its
Python line solver (nonocp.engines.native.fast says which is in use).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "nonocp.engines.native._fastline",
            ["src/nonocp/engines/native/_fastline.c"],
            extra_compile_args=["-O2"],
            optional=True,
        )
    ]
)
