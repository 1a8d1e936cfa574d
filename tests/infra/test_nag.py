"""Item 9 of issue 24: cdk-nag (AwsSolutions and Serverless packs) and cfn-lint on the stack as
CloudFormation deploys it, Chalice's SAM resources expanded (infra/checks.py). A finding fails
here unless infra/stack.py fixes it or infra/checks.py acknowledges it with a written reason.
The stack is make synth's (it packages the app with Chalice, as a deploy does), made once for the run
and shared with test_stack.py (tests/infra/conftest.py)."""

from __future__ import annotations

import json
import re
import tomllib
import zipfile
from fnmatch import fnmatchcase
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

from infra import checks

ROOT = Path(__file__).resolve().parents[2]
CHALICE_FUNCTIONS = ("APIHandler", "OutboxConsumer", "WebhookRetries", "ClockSweeper", "InboundMail", "LongPoll")


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("checks")


@pytest.fixture(scope="module")
def template(make_synth) -> dict:
    return json.loads((make_synth / f"{checks.STACK}.template.json").read_text())


@pytest.fixture(scope="module")
def expanded(template) -> dict:
    return checks.expand(template)


def listing(findings: list[checks.Finding]) -> str:
    return "\n".join(str(f) for f in findings)


def test_sam_is_expanded_so_chalices_functions_and_api_are_checked_and_refs_to_the_stack_survive(template, expanded):
    assert any(r["Type"].startswith("AWS::Serverless::") for r in template["Resources"].values())
    kinds = {name: r["Type"] for name, r in expanded["Resources"].items()}
    assert not [k for k in kinds.values() if k.startswith("AWS::Serverless::")]
    assert "Transform" not in expanded
    assert all(kinds[name] == "AWS::Lambda::Function" for name in CHALICE_FUNCTIONS)
    assert kinds["RestAPI"] == "AWS::ApiGateway::RestApi" and "AWS::ApiGateway::Stage" in kinds.values()
    for name in CHALICE_FUNCTIONS:  # each function's role is still the stack's role for it
        role = expanded["Resources"][name]["Properties"]["Role"]
        assert role == template["Resources"][name]["Properties"]["Role"]
        assert kinds[role["Fn::GetAtt"][0]] == "AWS::IAM::Role"


def test_cfn_lint_finds_nothing_on_the_expanded_template(expanded):
    """W3660 among others: gateway responses beside an OpenAPI body drift from it (issue 24, item 8)."""
    findings = checks.lint(expanded)
    assert not findings, "cfn-lint on the expanded template:\n" + listing(findings)


def test_cdk_nag_finds_nothing_that_is_not_fixed_or_acknowledged_with_a_reason(expanded, folder):
    findings = checks.nag(expanded, folder / "nag")
    assert not findings, ("cdk-nag findings: fix them in infra/stack.py, or acknowledge them with a reason "
                          "in infra/checks.py SUPPRESSIONS:\n" + listing(findings))


BROKEN_QUEUE = {"Type": "AWS::SQS::Queue", "Properties": {"SqsManagedSseEnabled": False}}


def test_the_check_can_fail_and_every_acknowledgment_has_a_reason_and_a_finding(expanded, folder):
    """Unacknowledged, cdk-nag finds an unencrypted queue slipped into the template; and every
    acknowledgment names a finding that really occurs (none is left over from a fixed one)."""
    broken = json.loads(json.dumps(expanded))
    broken["Resources"]["BrokenQueue"] = BROKEN_QUEUE
    raw = checks.nag(broken, folder / "raw", suppressions={})
    on_queue = {f.rule for f in raw if f.resource == "BrokenQueue"}
    assert {"AwsSolutions-SQS2", "AwsSolutions-SQS4"} <= on_queue, listing(raw)
    for rule, (patterns, reason) in checks.SUPPRESSIONS.items():
        assert len(reason.split()) >= 8, f"{rule}: say why it is acknowledged"
        # An id may name its plugin ("Serverless::Serverless-LambdaDLQ"); a finding's id holds "::" too.
        bare = rule.split("::", 1)[1] if "::" in rule.split("[", 1)[0] else rule
        for pattern in patterns:
            assert any(f.rule == bare and fnmatchcase(f.resource, pattern) for f in raw), (
                f"{rule} is acknowledged on {pattern}, where nothing finds it: remove it from SUPPRESSIONS")
    for rule, reason in checks.LINT_IGNORED.items():
        assert len(reason.split()) >= 5, f"cfn-lint {rule}: say why it is ignored"


def test_dev_only_tools_stay_out_of_the_lambda_package(make_synth):
    """The checks' tools (and every other dev extra) are not in the deployment package."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    dev = {re.split(r"[\[=<>~ ]", d, maxsplit=1)[0].lower() for d in project["project"]["optional-dependencies"]["dev"]}
    dev |= {"aws-sam-translator"}  # installed by the Makefile, without dependencies
    assert {"cdk-nag", "aws-sam-translator", "cfn-lint", "aws-cdk-lib"} <= dev
    modules = {module for module, dists in packages_distributions().items()
               if any(d.lower() in dev for d in dists)}
    assert {"cdk_nag", "samtranslator", "cfnlint", "aws_cdk"} <= modules
    package = next(make_synth.glob("asset.*.zip"))
    top = {name.split("/", 1)[0].removesuffix(".py") for name in zipfile.ZipFile(package).namelist()}
    assert "app" in top and "chalicelib" in top
    assert not top & modules, f"dev tools in the Lambda package: {sorted(top & modules)}"
