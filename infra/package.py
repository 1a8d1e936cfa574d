"""The Lambda deployment package: ``chalice package``'s zip, with every module precompiled.

Lambda unpacks the zip into a read-only folder, so Python can never cache the bytecode it
compiles: without .pyc files in the package, every cold start compiles pydantic and the
app from source again. The .pyc files added here are "unchecked-hash" ones (PEP 552), used
as they are whatever the unpacked files' times, and made by the same Python minor version
as the Lambda runtime Chalice packages for.

    python -m infra.package                 # chalice package into dist/, then precompile
    python -m infra.package path/to/deployment.zip   # precompile a zip in place
"""

from __future__ import annotations

import compileall
import os
import py_compile
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXED_TIME = (1980, 1, 1, 0, 0, 0)  # as Chalice writes its zips: the same input gives the same bytes


# The CLDR files Babel reads for our languages (chalicelib/kernel/i18n.py LANGUAGES) and what they inherit from;
# the other ~1,000 locales (30 MB) stay out of the package.
CLDR_KEPT = {"root.dat", "en.dat", "zh.dat", "zh_Hans.dat", "ja.dat", "vi.dat"}


def languages(tree: Path) -> None:
    """Compile every translation catalog (``.po``) of the unpacked package into what gettext reads
    (``.mo``), leave the ``.po`` sources out, and keep only our languages' CLDR data."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for source in tree.glob("chalicelib/locale/*/LC_MESSAGES/*.po"):
        with source.open("rb") as po, source.with_suffix(".mo").open("wb") as mo:
            write_mo(mo, read_po(po))
        source.unlink()
    for data in (tree / "babel" / "locale-data").glob("*.dat"):
        if data.name not in CLDR_KEPT:
            data.unlink()


def precompile(package: Path) -> None:
    """Add a compiled module beside every Python file of the zip, and compiled catalogs, in place."""
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder)
        with zipfile.ZipFile(package) as archive:
            archive.extractall(tree)
        languages(tree)
        compileall.compile_dir(tree, quiet=1, workers=1,
                               invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
        rebuilt = package.with_suffix(".tmp")
        with zipfile.ZipFile(rebuilt, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            for path in sorted(p for p in tree.rglob("*") if p.is_file()):
                info = zipfile.ZipInfo(str(path.relative_to(tree)), date_time=FIXED_TIME)
                info.external_attr = (0o755 if os.access(path, os.X_OK) else 0o644) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, path.read_bytes())
        rebuilt.replace(package)


def package(out: Path) -> Path:
    """``chalice package`` into ``out``, precompiled; the deployment zip's path."""
    if out.exists():
        shutil.rmtree(out)
    env = {**os.environ, "AWS_DEFAULT_REGION": os.environ.get("AWS_DEFAULT_REGION", "us-east-1")}
    chalice = Path(sys.executable).with_name("chalice")
    subprocess.run([str(chalice), "package", str(out)], cwd=ROOT, env=env, check=True, capture_output=True)
    zip_path = out / "deployment.zip"
    precompile(zip_path)
    return zip_path


if __name__ == "__main__":
    if len(sys.argv) > 1:
        precompile(Path(sys.argv[1]))
    else:
        built = package(ROOT / "dist")
        print(f"{built}: {built.stat().st_size / 1024 / 1024:.1f} MiB")
