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
import hashlib
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
# Precompiled packages, each under the hash of the zip it was made from and of these rules (see precompile)
KEPT = ROOT / ".chalice" / "precompiled"
KEEP = 4
LAMBDA_TASK_ROOT = "/var/task"  # where Lambda unpacks a function's package


# The CLDR files Babel reads for our languages (chalicelib/kernel/i18n.py LANGUAGES) and what they inherit from;
# the other ~1,000 locales (30 MB) stay out of the package.
CLDR_KEPT = {"root.dat", "en.dat", "zh.dat", "zh_Hans.dat", "ja.dat", "vi.dat"}

# Parts of the runtime dependencies that no function can reach (issue 39: the package <= 8 MiB zipped). Each was
# checked: nothing the package imports imports it, eagerly or lazily, on a path our code takes;
# tests/infra/test_stack.py imports every module of chalicelib and the stream's batch processor from the package.
LEFT_OUT = (
    # Powertools' own REST router (the API is Chalice's); it is reached only by Logger's log_event of a
    # pydantic event and by the utilities below, which we do not use.
    "aws_lambda_powertools/event_handler",
    # Powertools utilities we do not use (we use batch, data_classes, parser, which batch loads beside
    # pydantic, and jmespath_utils, which Logger loads).
    *(f"aws_lambda_powertools/utilities/{name}" for name in (
        "auth_alpha", "circuit_breaker", "data_masking", "feature_flags", "idempotency", "kafka", "parameters",
        "streaming", "validation")),
    "pydantic/v1",  # pydantic 1's API, loaded only for a type with __get_validators__ (none in the package)
    "pydantic/mypy.py",  # the mypy plugin
    "babel/messages",  # catalog tools (extract, compile): the package has its catalogs compiled
    "charset_normalizer/cli", "charset_normalizer/__main__.py",  # the normalizer command
    "urllib3/contrib/emscripten",  # urllib3 in a browser (Pyodide)
    "chalicelib/locale/messages.pot",  # the translators' template
    # the games on a terminal: the battleline command's (battleline_cli), with click, which the package has not
    "chalicelib/games/terminal.py", "chalicelib/games/battleline/terminal.py", "chalicelib/games/khan/terminal.py",
)


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


def prune(tree: Path) -> None:
    """Leave ``LEFT_OUT``, the type stubs (``.pyi``) and pip's installation records (``RECORD``: what
    ``pip uninstall`` would remove, no longer true of a pruned package) out of the unpacked package."""
    for name in LEFT_OUT:
        path = tree / name
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()
    for path in [*tree.rglob("*.pyi"), *tree.glob("*.dist-info/RECORD")]:
        path.unlink()


def precompile(package: Path) -> None:
    """Add a compiled module beside every Python file of the zip, and compiled catalogs, in place.

    The same zip always gives the same bytes (fixed times, unchecked-hash .pyc files, sorted entries),
    so the result is kept in ``.chalice/precompiled`` under the hash of the zip, of this file and of the
    Python that compiles: a synthesis of unchanged code (``make synth`` again, or the infra tests, which
    build the stack four times) copies it instead of compiling some 1,100 modules again."""
    key = hashlib.sha256(package.read_bytes() + Path(__file__).read_bytes() + sys.version.encode()).hexdigest()
    kept = KEPT / f"{key}.zip"
    if kept.exists():
        shutil.copyfile(kept, package)
        return
    compile_package(package)
    KEPT.mkdir(parents=True, exist_ok=True)
    partial = kept.with_name(f"{key}.{os.getpid()}.partial")
    shutil.copyfile(package, partial)
    partial.replace(kept)  # whole or not at all, should two builds of one checkout meet here
    for old in sorted(KEPT.glob("*.zip"), key=lambda p: p.stat().st_mtime)[:-KEEP]:
        old.unlink(missing_ok=True)


def compile_package(package: Path) -> None:
    """What ``precompile`` does when it has no kept result: unpack, prune, compile, pack again."""
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder)
        with zipfile.ZipFile(package) as archive:
            archive.extractall(tree)
        languages(tree)
        prune(tree)
        # ddir: tracebacks name the files where Lambda unpacks them, not this temporary folder
        # (which would also make every build's bytes differ)
        compileall.compile_dir(tree, quiet=1, workers=1, ddir=LAMBDA_TASK_ROOT,
                               invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
        rebuilt = package.with_suffix(".tmp")
        with zipfile.ZipFile(rebuilt, "w", compression=zipfile.ZIP_DEFLATED) as archive:
            for path in sorted(p for p in tree.rglob("*") if p.is_file()):
                info = zipfile.ZipInfo(str(path.relative_to(tree)), date_time=FIXED_TIME)
                info.external_attr = (0o755 if os.access(path, os.X_OK) else 0o644) << 16
                info.compress_type = zipfile.ZIP_DEFLATED
                archive.writestr(info, path.read_bytes(), compresslevel=9)  # DEFLATE's smallest: Lambda unzips once
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
