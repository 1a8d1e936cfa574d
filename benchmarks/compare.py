"""Today's code against a baseline commit, in one sitting, with the same benchmark code (issue 39).

The baseline (by default d8daff8, main when issue 39 was filed) is unpacked once with `git archive`
into `.bench/<commit>/`. Each benchmark module is then run as a fresh process on each tree in
turn, alternating (base, head, base, head, ...) so that a change in the machine's load falls on both
sides alike, each process pinned to one core. The benchmark code is today's for both: a copy of
`benchmarks/` is put first on `sys.path`, the tree's own code (`chalicelib`, `app.py`, `khan_lab`)
after it.

A benchmark module takes part by accepting `--json PATH` and writing there a flat dict of figures
(numbers; lower is better unless the figure's name ends in `_per_s`). Figures whose name starts
with `check_` are facts, not timings (e.g. disagreements with an oracle): they are printed, not
divided.

Run: make bench (all), or python -m benchmarks.compare claims games ... [--base COMMIT] [--rounds N]
     [--args MODULE='--positions 2000']
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BASELINE = "d8daff8"

BOOT = """
import os, runpy, sys
sys.path[:0] = [os.environ["BENCH_CODE"], os.environ["BENCH_TREE"]]
os.chdir(os.environ["BENCH_TREE"])
if hasattr(os, "sched_setaffinity"):
    os.sched_setaffinity(0, {int(os.environ.get("BENCH_CPU", "0"))})
sys.argv = sys.argv[1:]
runpy.run_module(sys.argv[0], run_name="__main__", alter_sys=True)
"""


def tree(commit: str) -> Path:
    """The baseline's files (not a checkout: no .git), unpacked once and kept under .bench/."""
    full = subprocess.run(["git", "rev-parse", "--short=12", commit], cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout.strip()
    folder = ROOT / ".bench" / full
    if not (folder / ".complete").exists():
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
        archive = subprocess.run(["git", "archive", "--format=tar", full], cwd=ROOT, check=True,
                                 capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
        compile_catalogs(folder)
        (folder / ".complete").write_text(full + "\n")
    return folder


def compile_catalogs(folder: Path) -> None:
    """The baseline's .mo files (not in git), so its pages, emails and package are as they were."""
    locale = folder / "chalicelib/locale"
    if locale.exists():
        subprocess.run([sys.executable, "-m", "babel.messages.frontend", "-q", "compile", "-d", str(locale),
                        "-D", "messages"], check=True, capture_output=True)


def code_copy() -> Path:
    """Today's benchmarks/ alone in a folder, so `import benchmarks` is today's on both trees."""
    folder = Path(tempfile.mkdtemp(prefix="bench-code-"))
    shutil.copytree(ROOT / "benchmarks", folder / "benchmarks",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return folder


def run_once(module: str, args: list[str], where: Path, code: Path, cpu: int) -> dict:
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as out:
        path = Path(out.name)
    env = {**os.environ, "BENCH_CODE": str(code), "BENCH_TREE": str(where), "BENCH_CPU": str(cpu),
           "PYTHONHASHSEED": "0"}
    env.pop("PYTHONPATH", None)
    done = subprocess.run([sys.executable, "-c", BOOT, f"benchmarks.{module}", *args, "--json", str(path)],
                          env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"benchmarks.{module} failed on {where}:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}")
    figures = json.loads(path.read_text())
    path.unlink()
    return figures


def compare(module: str, args: list[str], base: Path, head: Path, rounds: int, cpu: int) -> list[tuple]:
    """Rows (figure, base, head, ratio): each figure the median of its rounds; ratio base/head for
    a time (how many times faster today is), head/base for a rate (`_per_s`)."""
    code = code_copy()
    try:
        runs: dict[str, list[dict]] = {"base": [], "head": []}
        for _ in range(rounds):
            runs["base"].append(run_once(module, args, base, code, cpu))
            runs["head"].append(run_once(module, args, head, code, cpu))
    finally:
        shutil.rmtree(code, ignore_errors=True)
    rows = []
    for name in runs["head"][0]:
        if name not in runs["base"][0]:
            continue
        b = statistics.median(r[name] for r in runs["base"])
        h = statistics.median(r[name] for r in runs["head"])
        if name.startswith("check_"):
            rows.append((name, b, h, None))
        elif name.endswith("_per_s"):
            rows.append((name, b, h, h / b if b else None))
        else:
            rows.append((name, b, h, b / h if h else None))
    return rows


def table(module: str, rows: list[tuple], base: str, rounds: int) -> str:
    lines = [f"#### benchmarks.{module}: baseline {base} against today ({rounds} alternating runs each, one core)",
             "", "| figure | baseline | today | today is |", "|---|---:|---:|---:|"]
    for name, b, h, ratio in rows:
        said = "—" if ratio is None else f"{ratio:.2f}x"
        lines.append(f"| {name} | {b:.4g} | {h:.4g} | {said} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="+", help="benchmark modules, e.g. claims games")
    parser.add_argument("--base", default=BASELINE)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cpu", type=int, default=0)
    parser.add_argument("--args", action="append", default=[],
                        help="MODULE=ARGS: extra arguments for one module, e.g. claims='--positions 2000'")
    args = parser.parse_args(argv)
    extra = {}
    for item in args.args:
        module, _, rest = item.partition("=")
        extra[module] = shlex.split(rest)
    base = tree(args.base)
    for module in args.modules:
        rows = compare(module, extra.get(module, []), base, ROOT, args.rounds, args.cpu)
        print(table(module, rows, args.base, args.rounds), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
