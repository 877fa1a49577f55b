"""The C core built with the undefined-behaviour sanitizer: no signed overflow, shift out of range, misaligned
or out-of-bounds index the sanitizer can see, over the memory checker's workload (every bench position, the
hostile-input cases, the fuzz, playouts, real endgames) and more playouts.

The extension is built with ``-fno-wrapv`` (``setup.py``), so a signed overflow in it is undefined, not a
wrap-around: this test is what holds that promise. The sanitized copy is built into a temporary directory
beside a copy of the ``engine`` package and imported from there; ``-fno-sanitize-recover=all`` makes the
first report end the process. Skipped, saying so, where the compiler cannot link the sanitizer.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from engine import native

ROOT = Path(__file__).resolve().parents[2]
SANITIZE = "-fsanitize=undefined"
#: The workload: the memory checker's, then kernel playouts next to the reference's.
WORKLOAD = """
import sys, engine._native
from tests.engine import memcheck
from tests.engine.playout_cases import workload
print("extension:", engine._native.__file__, flush=True)
if memcheck.main(["--fuzz-rounds", "40"]):
    sys.exit(1)
played, mismatches = workload(games=2, draws=3)
print(f"playouts: {played} played, {len(mismatches)} mismatches", flush=True)
sys.exit(1 if mismatches else 0)
"""


def sanitizer_links(scratch: Path) -> bool:
    """Whether the C compiler Python builds with can compile and link a program with the sanitizer."""
    compiler = (sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return False
    source = scratch / "probe.c"
    source.write_text("int main(int argc, char **argv) { (void)argv; return argc + 1 > 0 ? 0 : 1; }\n")
    done = subprocess.run(
        [compiler, SANITIZE, str(source), "-o", str(scratch / "probe")], capture_output=True, check=False
    )
    return done.returncode == 0


pytestmark = pytest.mark.skipif(native.NATIVE is None, reason=f"the C generator is not in use: {native.describe()}")


def test_the_native_module_is_clean_under_the_undefined_behaviour_sanitizer(tmp_path: Path) -> None:
    if not sanitizer_links(tmp_path):
        pytest.skip("the C compiler cannot link -fsanitize=undefined here (libubsan missing)")
    lib = tmp_path / "lib"
    shutil.copytree(ROOT / "engine", lib / "engine", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    flags = f"{SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer"
    environment = os.environ | {"CFLAGS": flags, "LDFLAGS": SANITIZE}
    built = subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext", "--build-lib", str(lib), "--build-temp", str(tmp_path / "t")],
        cwd=ROOT, env=environment, capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert built.returncode == 0, built.stderr[-3000:]
    extension = next((lib / "engine").glob("_native*.so"))
    # instrumented: the sanitizer's handler of signed overflow is among the symbols the extension imports
    assert b"__ubsan_handle_add_overflow" in extension.read_bytes()
    done = subprocess.run(
        [sys.executable, "-c", WORKLOAD],
        cwd=tmp_path,  # not ROOT: ``-c`` puts the working directory first on the path, before PYTHONPATH
        env=os.environ | {"PYTHONPATH": f"{lib}{os.pathsep}{ROOT}", "UBSAN_OPTIONS": "print_stacktrace=1"},
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    assert "runtime error" not in done.stderr, done.stderr[-6000:]
    assert done.returncode == 0, f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    assert f"extension: {extension}" in done.stdout  # the sanitized copy ran, not the installed one
    assert "4 real endgames" in done.stdout and "playouts: " in done.stdout and ", 0 mismatches" in done.stdout
