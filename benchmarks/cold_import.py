"""Cold import of app.py from the deployment package, beyond boto3's own import: what a Lambda
cold start pays for our code and its dependencies (the runtime has boto3). Target: <= 150 ms.

The package is built as a deploy builds it (``chalice package``, then precompiled by
``infra/package.py``) and unpacked into a folder that Python may not write bytecode into, as
in Lambda. Each sample is a fresh interpreter that imports boto3, then times ``import app``
alone. The same package without its .pyc files is timed too: what Lambda would pay if the
package carried source only.

Run: make bench-cold-import (or python -m benchmarks.cold_import)
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from infra.package import package

RUNS = 31
TARGET_MS = 150
ENV = {**os.environ, "AWS_DEFAULT_REGION": "us-east-1", "TABLE_NAME": "battleline", "MAIL_TRANSPORT": "none",
       "AWS_LAMBDA_FUNCTION_NAME": "battleline-api", "PYTHONDONTWRITEBYTECODE": "1"}
TIMED_IMPORT = "import boto3, time; t = time.perf_counter(); import app; print((time.perf_counter() - t) * 1000)"


def timed(folder: Path) -> float:
    """Milliseconds to import app.py from ``folder`` in a fresh interpreter that has boto3 already."""
    run = subprocess.run([sys.executable, "-c", TIMED_IMPORT], cwd=folder, env=ENV, check=True, capture_output=True,
                         text=True)
    return float(run.stdout.strip().splitlines()[-1])


def samples(folder: Path) -> list[float]:
    for _ in range(3):  # warm the file cache
        timed(folder)
    return sorted(timed(folder) for _ in range(RUNS))


def unpack(zip_path: Path, into: Path, *, bytecode: bool) -> Path:
    with zipfile.ZipFile(zip_path) as archive:
        for name in archive.namelist():
            if bytecode or not name.endswith(".pyc"):
                archive.extract(name, into)
    for path in into.rglob("*"):  # read-only, as /var/task is
        path.chmod(0o555 if path.is_dir() else 0o444)
    return into


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        built = package(tmp / "dist")
        print(f"deployment package: {built.stat().st_size / 1024 / 1024:.1f} MiB zipped (no boto3)")
        for label, bytecode in (("precompiled (as deployed)", True), ("source only", False)):
            found = samples(unpack(built, tmp / label.split()[0], bytecode=bytecode))
            median = statistics.median(found)
            verdict = f"target <= {TARGET_MS} ms {'met' if median <= TARGET_MS else 'MISSED'}" if bytecode else ""
            print(f"import app after boto3, {label}: median {median:.0f} ms, min {found[0]:.0f}, "
                  f"max {found[-1]:.0f} ({RUNS} fresh interpreters) {verdict}")
        for path in tmp.rglob("*"):
            path.chmod(0o755 if path.is_dir() else 0o644)  # so that the folder can be removed


if __name__ == "__main__":
    main()
