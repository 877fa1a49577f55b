"""Build of the optional C extension ``engine._native`` (the move generator's hot path).

Everything else is in ``pyproject.toml``. ``optional=True``: where no C compiler is at hand the
installation still succeeds and the engine uses its pure-Python generator (slower, same moves).
"""

import importlib.util
import platform
from pathlib import Path

from setuptools import Extension, setup

# engine/sourcedigest.py loaded by its path: importing the package would need its dependencies
_spec = importlib.util.spec_from_file_location("sourcedigest", Path("engine/sourcedigest.py"))
assert _spec is not None and _spec.loader is not None
_digest = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_digest)

setup(
    ext_modules=[
        Extension(
            "engine._native",
            sorted(str(path) for path in Path("engine/csrc").rglob("*.c")),
            depends=sorted(str(path) for path in Path("engine/csrc").rglob("*.h")),
            optional=True,
            # engine.native refuses an extension built from other sources (a rebuild that failed)
            define_macros=[("WFB_SOURCE_DIGEST", f'"{_digest.source_digest(Path("engine/csrc"))}"')],
            # -O3: 5% fewer instructions in the playout kernel than -O2 (docs/measurements.md); only the
            # module's init function is exported, so calls inside the extension need not allow for interposition;
            # -fno-wrapv undoes Python's -fwrapv (its own C relies on signed wrap-around, this code does not: Rules
            # refuses rules whose scores could overflow an int), 3% fewer instructions in the kernel
            extra_compile_args=["-O3", "-std=c11", "-Wall", "-Wextra", "-Wno-missing-field-initializers"]
            + ["-fvisibility=hidden", "-fno-wrapv"]
            # no fused multiply-adds (a default where the CPU has them, aarch64): sums stay Python's to the last bit
            + ["-ffp-contract=off"]
            # the DAWG's edges are found by popcount: one instruction on x86-64 since 2008, else a libgcc call
            + (["-mpopcnt"] if platform.machine().lower() in {"x86_64", "amd64"} else []),
        )
    ]
)
