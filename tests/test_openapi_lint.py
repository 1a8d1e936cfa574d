"""The two OpenAPI linters client authors run take openapi.yaml clean (issue 37, item 3): Redocly's
recommended rules (redocly.yaml) and Spectral's spectral:oas (.spectral.yaml), the versions pinned
in package.json, from node_modules (make test runs npm ci). A rule is turned off only in those
files, with the reason beside it."""

from __future__ import annotations

import subprocess

import yaml

from devtools.dynamodb_local import ROOT

BIN = ROOT / "node_modules" / ".bin"


def _lint(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / command[0]), *command[1:]], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


def _disabled_rules_have_reasons(path) -> None:
    lines = path.read_text().splitlines()
    rules = yaml.safe_load(path.read_text()).get("rules", {})
    for rule, setting in rules.items():
        if setting == "off":
            at = next(i for i, line in enumerate(lines) if line.strip().startswith(f"{rule}:"))
            assert lines[at - 1].strip().startswith("#") and len(lines[at - 1].split()) > 6, (
                f"{path.name}: say why {rule} is off, on the line above it")


def test_item3_redocly_recommended_rules_find_nothing():
    _disabled_rules_have_reasons(ROOT / "redocly.yaml")
    done = _lint("redocly", "lint", "openapi.yaml", "--format", "stylish", "--max-problems", "200")
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "Your API description is valid" in output and "warning" not in output.split("validating", 1)[-1], output


def test_item3_spectral_oas_rules_find_nothing():
    _disabled_rules_have_reasons(ROOT / ".spectral.yaml")
    done = _lint("spectral", "lint", "openapi.yaml", "--ruleset", ".spectral.yaml", "--fail-severity", "hint",
                 "--format", "text")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "No results with a severity of 'hint' or higher" in done.stdout, done.stdout
