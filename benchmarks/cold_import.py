"""A Lambda cold start: importing app.py from the deployment package, beyond boto3's own import
(the runtime has boto3), then the first request. Target (issue 39 item 5): the import <= 150 ms,
and no slower than the baseline's in the same run; the package <= 8 MiB zipped.

The package is built as a deploy builds it (``chalice package``, then precompiled and pruned by
``infra/package.py``; kept in the temporary folder under a hash of what goes into it, so a rerun
on the same code does not build it again) and unpacked into a folder that Python may not write
bytecode into, as in Lambda. Each sample is a fresh interpreter that imports boto3, then times
``import app`` alone, then the first request (``GET /v1/players/me`` with an API key, as API
Gateway hands it to the handler: the route table, authentication, the DynamoDB client made and
used, the answer) and a second one (the same, warm), against DynamoDB Local. The same package
without its .pyc files is timed too (not with ``--json``): what Lambda would pay if the package
carried source only.

Run: make bench-cold-import (or python -m benchmarks.cold_import [--runs 31] [--json PATH])
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

from benchmarks.dynamodb import client, dynamodb_local

RUNS = 31
TARGET_MS = 150
TABLE = "battleline"
ENV = {**os.environ, "AWS_DEFAULT_REGION": "us-east-1", "AWS_REGION": "us-east-1", "TABLE_NAME": TABLE,
       "MAIL_TRANSPORT": "none", "AWS_LAMBDA_FUNCTION_NAME": "battleline-api", "PYTHONDONTWRITEBYTECODE": "1",
       "AWS_ACCESS_KEY_ID": "local", "AWS_SECRET_ACCESS_KEY": "local", "LINK_SECRET": "cold-import-benchmark"}
ENV.pop("PYTHONPATH", None)

# One fresh interpreter: boto3 first (the runtime's), then the timed import and requests, as Lambda calls the
# handler: API Gateway's proxy event and a context.
SAMPLE = r"""
import json, sys, time
import boto3
started, cpu = time.perf_counter(), time.process_time()
import app
imported, imported_cpu = time.perf_counter(), time.process_time()

class Context:
    aws_request_id = "cold-import"
    function_name = "battleline-api"
    memory_limit_in_mb = 1024
    invoked_function_arn = "arn:aws:lambda:us-east-1:123456789012:function:battleline-api"
    def get_remaining_time_in_millis(self):
        return 30000

def event(method, path, key=None, body=None):
    headers = {"Host": "api.example.com", "Content-Type": "application/json", "Accept": "application/json"}
    if key:
        headers["Authorization"] = "Bearer " + key
    return {"resource": path, "path": path, "httpMethod": method, "headers": headers,
            "multiValueHeaders": {k: [v] for k, v in headers.items()}, "queryStringParameters": None,
            "multiValueQueryStringParameters": None, "pathParameters": None, "stageVariables": None,
            "requestContext": {"resourcePath": path, "httpMethod": method, "path": "/api" + path, "stage": "api",
                               "requestId": "cold-import", "identity": {"sourceIp": "127.0.0.1", "userAgent": "bench"}},
            "body": body, "isBase64Encoded": False}

def call(*args, status):
    answer = app.app(event(*args), Context())
    if answer["statusCode"] != status:
        sys.exit(f"{args[:2]}: {answer['statusCode']} {answer.get('body')}")
    return answer

if sys.argv[1] == "signup":
    answer = call("POST", "/v1/players", None, json.dumps({"name": "Cold"}), status=201)
    print(json.dumps({"api_key": json.loads(answer["body"])["api_key"]}))
else:
    call("GET", "/v1/players/me", sys.argv[1], status=200)
    first, first_cpu = time.perf_counter(), time.process_time()
    call("GET", "/v1/players/me", sys.argv[1], status=200)
    second = time.perf_counter()
    print(json.dumps({"import_ms": (imported - started) * 1000, "first_request_ms": (first - imported) * 1000,
                      "second_request_ms": (second - first) * 1000, "import_cpu_ms": (imported_cpu - cpu) * 1000,
                      "first_request_cpu_ms": (first_cpu - imported_cpu) * 1000}))
"""


def fingerprint(root: Path) -> str:
    """A hash of what goes into the package: the app, chalicelib, the requirements and the packager."""
    digest = hashlib.sha256()
    files = [root / "app.py", root / "requirements.txt", root / "infra" / "package.py",
             *sorted(p for p in (root / "chalicelib").rglob("*") if p.is_file() and "__pycache__" not in p.parts)]
    for path in files:
        digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()[:16]


def built_package() -> Path:
    """The tree's deployment package (the tree of ``infra.package``: today's or the baseline's)."""
    from infra.package import ROOT, package

    kept = Path(tempfile.gettempdir()) / "battleline-cold-import" / fingerprint(ROOT)
    if not (kept / "deployment.zip").exists():
        shutil.rmtree(kept, ignore_errors=True)
        kept.parent.mkdir(parents=True, exist_ok=True)
        built = package(kept.with_suffix(".partial"))
        built.parent.rename(kept)
    return kept / "deployment.zip"


def sample(folder: Path, *arguments: str, endpoint: str) -> dict:
    """One fresh interpreter in ``folder`` (the unpacked package), boto3 already imported."""
    run = subprocess.run([sys.executable, "-c", SAMPLE, *arguments], cwd=folder, capture_output=True, text=True,
                         env={**ENV, "DYNAMODB_ENDPOINT": endpoint})
    if run.returncode != 0:
        raise SystemExit(f"the sample failed in {folder}:\n{run.stdout[-2000:]}\n{run.stderr[-3000:]}")
    return json.loads(run.stdout.strip().splitlines()[-1])


def samples(folder: Path, key: str, runs: int, endpoint: str) -> dict[str, list[float]]:
    for _ in range(3):  # warm the file cache
        sample(folder, key, endpoint=endpoint)
    found: dict[str, list[float]] = {}
    for _ in range(runs):
        for name, value in sample(folder, key, endpoint=endpoint).items():
            found.setdefault(name, []).append(value)
    return found


def unpack(zip_path: Path, into: Path, *, bytecode: bool) -> Path:
    with zipfile.ZipFile(zip_path) as archive:
        for name in archive.namelist():
            if bytecode or not name.endswith(".pyc"):
                archive.extract(name, into)
    for path in into.rglob("*"):  # read-only, as /var/task is
        path.chmod(0o555 if path.is_dir() else 0o444)
    return into


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=RUNS, help="fresh interpreters timed")
    parser.add_argument("--json", type=Path, help="write the figures here (benchmarks.compare)")
    args = parser.parse_args(argv)
    built = built_package()
    size = built.stat().st_size / 1024 / 1024
    print(f"deployment package: {size:.2f} MiB zipped (no boto3; target <= 8 MiB)")
    figures: dict[str, float] = {"package_mib": size}
    with tempfile.TemporaryDirectory() as folder, dynamodb_local() as endpoint:
        from chalicelib.store.schema import create_table_if_missing

        create_table_if_missing(client(endpoint), TABLE)
        tmp = Path(folder)
        variants = (("precompiled (as deployed)", True),) + ((("source only", False),) if args.json is None else ())
        try:
            for label, bytecode in variants:
                where = unpack(built, tmp / label.split()[0], bytecode=bytecode)
                key = sample(where, "signup", endpoint=endpoint)["api_key"]
                found = samples(where, key, args.runs, endpoint)
                medians = {name: statistics.median(values) for name, values in found.items()}
                imported = sorted(found["import_ms"])
                verdict = f"target <= {TARGET_MS} ms {'met' if medians['import_ms'] <= TARGET_MS else 'MISSED'}"
                print(f"{label}: import app after boto3 median {medians['import_ms']:.0f} ms (min {imported[0]:.0f}, "
                      f"max {imported[-1]:.0f}; {verdict}); first request {medians['first_request_ms']:.0f} ms, "
                      f"second {medians['second_request_ms']:.1f} ms ({args.runs} fresh interpreters)")
                if bytecode:
                    figures.update(medians)
                    figures["import_and_first_request_ms"] = statistics.median(
                        i + f for i, f in zip(found["import_ms"], found["first_request_ms"]))
        finally:
            for path in tmp.rglob("*"):
                path.chmod(0o755 if path.is_dir() else 0o644)  # so that the folder can be removed
    if args.json:
        args.json.write_text(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
