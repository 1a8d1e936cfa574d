"""No unused imports or names, no undefined names: ruff's pyflakes rules over the code."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_finds_nothing():
    ruff = Path(sys.executable).with_name("ruff")
    run = subprocess.run([str(ruff), "check", "app.py", "chalicelib", "devtools", "benchmarks", "tests"],
                         cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout + run.stderr
