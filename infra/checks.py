"""Checks on the template (docs/deploy.md, "Checks on the template"): cdk-nag's AwsSolutions and
Serverless packs and cfn-lint, on the stack as CloudFormation deploys it.

Chalice's construct emits SAM resources (``AWS::Serverless::Function``, ``AWS::Serverless::Api``),
which neither cdk-nag nor cfn-lint look inside. So the stack is synthesized, its SAM resources are
expanded to plain CloudFormation by aws-sam-translator (what CloudFormation's SAM transform does
on deploy; offline here, with no AWS call), and the expanded template is checked:

- cfn-lint, every rule, the ignored ones in ``LINT_IGNORED`` each with its reason;
- cdk-nag 3 (a CDK policy-validation plugin): a second CDK app includes the expanded template
  (``CfnInclude``: each resource becomes its L1 construct, which the rules read), acknowledges
  the findings of ``SUPPRESSIONS`` (each with its reason), and synthesizes; the plugins' report
  (``validation-report.json``) lists what is left.

tests/infra/test_nag.py runs them in ``make test``: every finding left is a failure.
The tools are dev extras (pyproject.toml), never in the Lambda package (requirements.txt).

    python -m infra.checks            # prints the findings left, exits 1 if there are any
"""

from __future__ import annotations

import contextlib
import copy
import json
import os
import sys
import tempfile
from dataclasses import dataclass
from fnmatch import fnmatchcase
from pathlib import Path

import aws_cdk as cdk
from aws_cdk import cloudformation_include as cfn_include
from cdk_nag import AwsSolutionsChecks, ServerlessChecks
from cfnlint.api import ManualArgs, lint as cfn_lint
from samtranslator.translator.transform import transform

from infra.stack import FUNCTIONS, BattlelineStack

HERE = Path(__file__).resolve().parent

# The stage checked: a public launch (cdk.json's defaults, with mail, alarms and a public URL).
CONTEXT = {"mail_domain": "games.example.com", "alarm_email": "ops@example.com",
           "public_url": "https://games.example.com"}
DEFAULTS = json.loads((HERE / "cdk.json").read_text())["context"]
REGION = "us-east-1"
STACK = "Battleline"

# cdk-nag findings acknowledged, each with why: rule id -> (the resources it is acknowledged on, by
# logical id in the expanded template, ``fnmatch`` patterns: ``"*"`` is every resource; reason).
# A rule that reports several findings on one resource (IAM5) names the finding:
# ``AwsSolutions-IAM5[Resource::...]``. tests/infra/test_nag.py checks that each one still matches
# a finding, so none outlives what it excused.
ROLE_POLICIES = tuple(f"{logical}RoleDefaultPolicy*" for logical in FUNCTIONS)  # one role a function
SUPPRESSIONS: dict[str, tuple[tuple[str, ...], str]] = {
    # ---- IAM
    **{f"AwsSolutions-IAM5[Resource::arn:<AWS::Partition>:logs:<AWS::Region>:<AWS::AccountId>:log-group:"
       f"/aws/lambda/{DEFAULTS['name']}-{suffix}:*]": (
        (f"{logical}RoleDefaultPolicy*",),
        "The function writes only to its own log group (named after it); the log streams in it are named "
        "by Lambda at run time, so they cannot be listed")
       for logical, suffix in FUNCTIONS.items()},
    "AwsSolutions-IAM5[Resource::*]": (ROLE_POLICIES, "X-Ray: xray:PutTraceSegments and xray:PutTelemetryRecords "
                                                      "have no resource-level permissions, so * is the only "
                                                      "resource they take (those two actions alone)"),
    "AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs]": (
        ("ApiGatewayLogsRole*",),
        "API Gateway's CloudWatch role is one setting for every API in the account and region, so it must "
        "write any API's logs (and create execution log groups): AWS's managed policy made for exactly this "
        "role; a narrower one would silence the account's other APIs (docs/deploy.md, Observability)"),
    # ---- API Gateway
    "AwsSolutions-APIG2": (("RestAPI",), "Every request is validated by the app (pydantic models), which answers "
                                         "problem+json with a stable code; an API Gateway validator would answer "
                                         "in its own format, before the app, from a second copy of the schemas"),
    "AwsSolutions-APIG6": (("RestAPIapiStage",),
                           "Execution logs are off; the JSON access logs record every request (status, latency, "
                           "API Gateway's own error type). API Gateway would create the execution log group "
                           "itself, outside the stack, without retention"),
    # ---- Lambda
    "AwsSolutions-L1": (("*",), "Chalice sets the runtime to the Python the package is built with, and "
                                "infra/package.py precompiles the bytecode for exactly that version: the runtime "
                                "moves on with the build's Python (pyproject.toml, requires-python)"),
    "Serverless-LambdaLatestVersion": (("*",), "As AwsSolutions-L1: the runtime is the build's Python, which the "
                                               "precompiled bytecode must match"),
    "Serverless-LambdaDLQ": (tuple(FUNCTIONS),
                             "The functions Lambda invokes asynchronously (ASYNC_FUNCTIONS) send what still fails "
                             "after Lambda's retries to an on-failure destination, a queue of their own with an "
                             "alarm, which supersedes a dead-letter queue (and carries the error) but which this "
                             "rule does not read; the others are never invoked asynchronously: API Gateway waits "
                             "for the API functions, and the outbox consumer's failed stream records go to its "
                             "event source mapping's on-failure queue (OutboxFailures)"),
    "Serverless-EventBusDLQ": (("*Event",), "The minute schedules of the sweeper and the webhook retries: a tick "
                                            "EventBridge fails to deliver is made up by the next one, a minute "
                                            "later (each run does all that is due); a queue would only collect "
                                            "identical schedule events"),
    # ---- queues and topics
    "AwsSolutions-SQS3": (("*Failures*",), "These queues are themselves where failures end: the outbox stream's "
                                           "on-failure queue, and each asynchronous function's on-failure "
                                           "destination (also its SNS subscription's dead-letter queue, which "
                                           "this rule does not read). A dead-letter queue for them would have "
                                           "nothing to catch; an alarm watches each one's depth"),
    "Serverless-SQSRedrivePolicy": (("*Failures*",), "As AwsSolutions-SQS3: these queues are where failures end, "
                                                     "each watched by an alarm; nothing consumes them to fail again"),
    "Serverless-SNSRedrivePolicy": (("Alarms*",), "The alarm email subscription: an alarm stays in ALARM in "
                                                  "CloudWatch whatever happens to its email, and a dead-letter "
                                                  "queue of undelivered alarm emails could only be alarmed by "
                                                  "the same email"),
    # ---- data
    "AwsSolutions-SMG4": (("LinkSecret*",), "The link secret signs email links and reply addresses; it is rotated "
                                            "by hand, at least 90 days apart (docs/deploy.md, Rotating the link "
                                            "secret): each rotation drops the key before last, so a schedule "
                                            "would end links before they expire"),
}

# cfn-lint rules ignored on the expanded template -> why.
LINT_IGNORED: dict[str, str] = {
}


@dataclass(frozen=True, order=True)
class Finding:
    rule: str
    resource: str
    message: str

    def __str__(self) -> str:
        return f"{self.rule} on {self.resource}: {self.message}"


class StaticManagedPolicies:
    """aws-sam-translator's managed-policy loader, offline: the stack gives every function its own
    role, so SAM attaches no managed policy and needs no list of them from IAM."""

    def load(self) -> dict[str, str]:
        return {}


@contextlib.contextmanager
def _offline(folder: Path | None = None):
    """What Chalice's packager and aws-sam-translator need, offline: a region (for the partition's
    service principals and ARNs; the one ``make synth`` gives) and, for Chalice, a working
    directory to package in (``chalice.out``; a temporary one, so a check leaves nothing behind)."""
    before, region = os.getcwd(), os.environ.get("AWS_DEFAULT_REGION")
    os.environ["AWS_DEFAULT_REGION"] = region or REGION
    if folder is not None:
        os.chdir(folder)
    try:
        yield
    finally:
        os.chdir(before)
        if region is None:
            del os.environ["AWS_DEFAULT_REGION"]


def synthesize(outdir: Path, context: dict | None = None) -> dict:
    """The stack's template as ``make synth`` writes it (SAM resources and all), for ``context``
    (default ``CONTEXT``) over cdk.json's defaults; the Lambda package is an asset in ``outdir``."""
    values = {**DEFAULTS}
    values.update(CONTEXT if context is None else context)
    outdir.mkdir(parents=True, exist_ok=True)
    app = cdk.App(context=values, outdir=str(outdir))
    with _offline(outdir):
        BattlelineStack(app, STACK, description="Battle Line and Khan & General correspondence server")
        app.synth()
    return json.loads((outdir / f"{STACK}.template.json").read_text())


def expand(template: dict) -> dict:
    """The template with its SAM resources expanded to CloudFormation, as the SAM transform does on
    deploy. References to the stack's other resources stay references."""
    if "AWS::Serverless-2016-10-31" not in json.dumps(template.get("Transform", "")):
        return copy.deepcopy(template)
    parameters = {"AWS::Region": REGION, "AWS::Partition": "aws", "AWS::AccountId": "123456789012",
                  "AWS::StackName": STACK, "AWS::URLSuffix": "amazonaws.com"}
    with _offline():
        return transform(copy.deepcopy(template), parameters, StaticManagedPolicies())


def lint(template: dict) -> list[Finding]:
    """cfn-lint's findings on ``template`` (every rule but ``LINT_IGNORED``)."""
    matches = cfn_lint(json.dumps(template), config=ManualArgs(regions=[REGION], ignore_checks=list(LINT_IGNORED)))
    return sorted(Finding(m.rule.id, str(m.path[1]) if len(m.path) > 1 and m.path[0] == "Resources"
                          else "/".join(str(p) for p in m.path) or "-", m.message) for m in matches)


def nag(template: dict, outdir: Path, suppressions: dict | None = None) -> list[Finding]:
    """cdk-nag's AwsSolutions and Serverless findings on ``template`` (plain CloudFormation), and
    those of CDK's own CloudFormation validation, that ``suppressions`` (default ``SUPPRESSIONS``)
    do not acknowledge. Warnings count as findings too."""
    outdir.mkdir(parents=True, exist_ok=True)
    source = outdir / "expanded.template.json"
    source.write_text(json.dumps(template))
    assembly = outdir / "nag.out"
    report = assembly / "validation-report.json"  # CDK also prints it to standard error
    report.unlink(missing_ok=True)
    app = cdk.App(outdir=str(assembly))
    stack = cdk.Stack(app, STACK, synthesizer=cdk.BootstraplessSynthesizer())
    included = cfn_include.CfnInclude(stack, "Template", template_file=str(source))
    for rule, (resources, reason) in (SUPPRESSIONS if suppressions is None else suppressions).items():
        for logical in [name for name in template["Resources"] if any(fnmatchcase(name, p) for p in resources)]:
            cdk.Validations.of(included.get_resource(logical)).acknowledge(cdk.Acknowledgment(id=rule, reason=reason))
    cdk.Validations.of(app).add_plugins(AwsSolutionsChecks(app), ServerlessChecks(app))
    failure = None
    try:
        app.synth()
    except Exception as error:  # a plugin found something: the synth fails, after writing the report
        failure = error
    if not report.exists():
        raise RuntimeError(f"the synth wrote no validation report: {failure}") from failure
    return report_findings(json.loads(report.read_text()))


def report_findings(report: dict) -> list[Finding]:
    """The violations of a CDK validation report (its acknowledged ones left out), one finding per
    resource, named by its logical id (CfnInclude names each construct by it). A report with no
    violation lists no plugin at all, so that the plugins run at all is for a test to show (one
    with a broken resource)."""
    found = set()
    for plugin in report["pluginReports"]:
        for violation in plugin["violations"]:
            for construct in violation["violatingConstructs"]:
                resource = construct["constructPath"].rsplit("/", 1)[-1]
                found.add(Finding(violation["ruleName"], resource, f"{violation['description']} "
                                                                   f"({plugin['pluginName']}, {violation['severity']})"))
    return sorted(found)


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        expanded = expand(synthesize(Path(folder) / "cdk.out"))
        findings = lint(expanded) + nag(expanded, Path(folder) / "nag")
    for finding in findings:
        print(finding)
    print(f"cfn-lint and cdk-nag (AwsSolutions, Serverless) on the expanded template: "
          f"{len(findings) or 'no'} finding{'' if len(findings) == 1 else 's'} left, "
          f"{len(SUPPRESSIONS)} acknowledged in infra/checks.py SUPPRESSIONS", file=sys.stderr)
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main())
