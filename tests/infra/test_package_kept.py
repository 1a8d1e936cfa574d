"""infra/package.py keeps a precompiled package under the hash of what it was made from: a second
synthesis of unchanged code (make synth again, the infra tests' four stacks) reuses it, and what it
reuses is byte for byte what compiling again would give."""

from __future__ import annotations

import marshal
import zipfile
from pathlib import Path

from infra import package


def small_zip(path: Path, body: str) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("app.py", body)
        archive.writestr("chalicelib/__init__.py", "")
    return path


def test_a_package_made_again_from_the_same_zip_is_the_kept_one_byte_for_byte(tmp_path, monkeypatch):
    monkeypatch.setattr(package, "KEPT", tmp_path / "kept")
    compiled = []
    real = package.compile_package
    monkeypatch.setattr(package, "compile_package", lambda zip_path: (compiled.append(zip_path), real(zip_path)))

    first = small_zip(tmp_path / "first.zip", "VALUE = 1\n")
    package.precompile(first)
    assert "app.cpython-311.pyc" in " ".join(zipfile.ZipFile(first).namelist())

    second = small_zip(tmp_path / "second.zip", "VALUE = 1\n")
    package.precompile(second)
    assert compiled == [first]  # the second came from the kept one
    assert second.read_bytes() == first.read_bytes()

    real(fresh := small_zip(tmp_path / "fresh.zip", "VALUE = 1\n"))
    assert fresh.read_bytes() == first.read_bytes()  # what compiling again gives


def test_a_traceback_from_the_package_names_the_file_where_lambda_unpacked_it(tmp_path, monkeypatch):
    monkeypatch.setattr(package, "KEPT", tmp_path / "kept")
    made = small_zip(tmp_path / "app.zip", "VALUE = 2\n")
    package.precompile(made)
    with zipfile.ZipFile(made) as archive:
        compiled = archive.read(next(n for n in archive.namelist() if n.startswith("__pycache__/app.")))
    assert marshal.loads(compiled[16:]).co_filename == "/var/task/app.py"


def test_changed_code_is_compiled_again_and_only_a_few_packages_are_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(package, "KEPT", tmp_path / "kept")
    for n in range(package.KEEP + 2):
        made = small_zip(tmp_path / f"{n}.zip", f"VALUE = {n}\n")
        package.precompile(made)
        with zipfile.ZipFile(made) as archive:
            assert archive.read("app.py") == f"VALUE = {n}\n".encode()
    assert len(list((tmp_path / "kept").glob("*.zip"))) == package.KEEP
