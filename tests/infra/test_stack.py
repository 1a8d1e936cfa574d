"""The CDK app, synthesized offline: the resources and their wiring, cfn-lint clean, and a lean
Lambda package. One synth for the module (it packages the app with Chalice, as a deploy does)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

import pytest

from chalicelib.store import keys
from chalicelib.store.schema import table_definition
from devtools.dynamodb_local import ROOT

MAIL_DOMAIN = "games.example.com"
MAX_PACKAGE_BYTES = 8 * 1024 * 1024  # issue 39 item 5
# What the Lambda Python runtime brings beside the package: boto3 and what it needs that the package has not.
RUNTIME = ("boto3", "botocore", "s3transfer", "dateutil", "six.py")
FUNCTIONS = {"APIHandler": "battleline-api", "OutboxConsumer": "battleline-outbox-consumer",
             "WebhookRetries": "battleline-webhook-retries", "ClockSweeper": "battleline-clock-sweeper",
             "InboundMail": "battleline-inbound-mail", "LongPoll": "battleline-long-poll",
             "MailEvents": "battleline-mail-events"}


@pytest.fixture(scope="module")
def synthesized(make_synth) -> Path:
    """make synth's folder (tests/infra/conftest.py: made once for the run, shared with test_nag.py)."""
    return make_synth


@pytest.fixture(scope="module")
def template(synthesized) -> dict:
    return json.loads((synthesized / "Battleline.template.json").read_text())


def resources(template: dict, kind: str) -> dict[str, dict]:
    return {name: r for name, r in template["Resources"].items() if r["Type"] == kind}


def one(template: dict, kind: str) -> dict:
    found = list(resources(template, kind).values())
    assert len(found) == 1, f"{len(found)} {kind}"
    return found[0]["Properties"]


def logical_id(template: dict, kind: str, prefix: str) -> str:
    return next(name for name in resources(template, kind) if name.startswith(prefix))


# ---------------------------------------------------------------- the table

def test_the_table_is_on_demand_with_the_codes_keys_indexes_ttl_and_a_new_image_stream(template):
    table = one(template, "AWS::DynamoDB::Table")
    wanted = table_definition("battleline")
    assert table["BillingMode"] == "PAY_PER_REQUEST"
    assert table["KeySchema"] == wanted["KeySchema"]
    assert sorted(table["AttributeDefinitions"], key=str) == sorted(wanted["AttributeDefinitions"], key=str)
    indexes = {i["IndexName"]: i["KeySchema"] for i in table["GlobalSecondaryIndexes"]}
    assert indexes == {i["IndexName"]: i["KeySchema"] for i in wanted["GlobalSecondaryIndexes"]}
    assert {"due", "my_move", "leaderboard"} <= set(indexes)
    assert table["TimeToLiveSpecification"] == {"AttributeName": "expires_at", "Enabled": True}
    assert table["StreamSpecification"] == {"StreamViewType": "NEW_IMAGE"}


# ---------------------------------------------------------------- the functions and their wiring

def test_every_function_has_its_own_role_and_a_log_group_with_retention(template):
    functions = resources(template, "AWS::Serverless::Function")
    assert {name: f["Properties"]["FunctionName"] for name, f in functions.items()} == FUNCTIONS
    roles = {json.dumps(f["Properties"]["Role"]) for f in functions.values()}
    assert len(roles) == len(FUNCTIONS)
    groups = {g["Properties"]["LogGroupName"]: g["Properties"]["RetentionInDays"]
              for g in resources(template, "AWS::Logs::LogGroup").values()}
    assert {name: days for name, days in groups.items() if name.startswith("/aws/lambda/")} == {
        f"/aws/lambda/{name}": 30 for name in FUNCTIONS.values()}
    assert set(groups.values()) == {30}  # the API's access logs and the firewall's too


def test_the_stream_feeds_the_outbox_consumer_with_partial_failures_bisection_retries_and_a_failure_queue(template):
    mapping = one(template, "AWS::Lambda::EventSourceMapping")
    table = logical_id(template, "AWS::DynamoDB::Table", "Table")
    queue = logical_id(template, "AWS::SQS::Queue", "OutboxFailures")
    assert mapping["EventSourceArn"] == {"Fn::GetAtt": [table, "StreamArn"]}
    assert mapping["FunctionName"] == FUNCTIONS["OutboxConsumer"]
    assert mapping["FunctionResponseTypes"] == ["ReportBatchItemFailures"]
    assert mapping["BisectBatchOnFunctionError"] is True and 1 <= mapping["MaximumRetryAttempts"] <= 10
    assert mapping["DestinationConfig"]["OnFailure"]["Destination"] == {"Fn::GetAtt": [queue, "Arn"]}
    patterns = [json.loads(f["Pattern"]) for f in mapping["FilterCriteria"]["Filters"]]
    games = {"prefix": keys.GAME_PREFIX}
    assert patterns == [
        {"eventName": ["INSERT", "MODIFY"], "dynamodb": {"Keys": {"PK": {"S": [games]}, "SK": {"S": [games]}}}},
        {"eventName": ["INSERT", "MODIFY"], "dynamodb": {"NewImage": {"outbox": {"B": [{"exists": True}]}}}},
    ]


def test_the_sweeper_and_the_retries_run_on_a_schedule(template):
    functions = resources(template, "AWS::Serverless::Function")
    for name in ("ClockSweeper", "WebhookRetries"):
        events = functions[name]["Properties"]["Events"]
        assert [e["Properties"]["Schedule"] for e in events.values() if e["Type"] == "Schedule"] == ["rate(1 minute)"]


def integration_uri(template: dict, path: str, method: str) -> str:
    swagger = template["Resources"]["RestAPI"]["Properties"]["DefinitionBody"]
    return json.dumps(swagger["paths"][path][method]["x-amazon-apigateway-integration"]["uri"])


def test_waits_run_in_a_function_of_their_own_with_reserved_concurrency_so_pollers_never_starve_moves(template):
    functions = resources(template, "AWS::Serverless::Function")
    long_poll, api = functions["LongPoll"]["Properties"], functions["APIHandler"]["Properties"]
    assert long_poll["ReservedConcurrentExecutions"] == 50 and api["ReservedConcurrentExecutions"] == 200
    assert long_poll["CodeUri"] == api["CodeUri"] and long_poll["Timeout"] == 28
    # API Gateway routes listEvents and listGames (which take wait=S) there, every other operation to APIHandler.
    for path in ("/v1/games", "/v1/games/{game_id}/events"):
        assert "${LongPoll.Arn}" in integration_uri(template, path, "get")
    assert "${APIHandler.Arn}" in integration_uri(template, "/v1/games", "post")
    assert "${APIHandler.Arn}" in integration_uri(template, "/v1/games/{game_id}/actions", "post")
    assert "${APIHandler.Arn}" in integration_uri(template, "/v1/games/{game_id}", "get")
    permissions = [p["Properties"] for p in resources(template, "AWS::Lambda::Permission").values()
                   if p["Properties"]["FunctionName"] == {"Ref": "LongPoll"}]
    assert sorted(p["SourceArn"]["Fn::Sub"][0].split("${RestAPIId}")[1] for p in permissions) == [
        "/*/GET/v1/games", "/*/GET/v1/games/*/events"]
    assert all(p["Principal"] == "apigateway.amazonaws.com" for p in permissions)


def test_a_full_long_poll_pool_answers_429_with_retry_after(template):
    response = gateway_responses(template)["INTEGRATION_FAILURE"]
    assert response["statusCode"] == "429"
    assert json.loads(response["responseTemplates"]["application/json"])["code"] == "rate_limited"
    assert int(response["responseParameters"]["gatewayresponse.header.Retry-After"].strip("'")) >= 1


def test_ses_receipt_rule_publishes_replies_to_sns_which_invokes_inbound_mail(template):
    rule = one(template, "AWS::SES::ReceiptRule")["Rule"]
    topic = logical_id(template, "AWS::SNS::Topic", "InboundMailTopic")
    assert rule["Recipients"] == [MAIL_DOMAIN] and rule["Enabled"] is True
    assert rule["Actions"] == [{"SNSAction": {"Encoding": "Base64", "TopicArn": {"Ref": topic}}}]
    events = template["Resources"]["InboundMail"]["Properties"]["Events"]
    assert [e["Properties"]["Topic"] for e in events.values() if e["Type"] == "SNS"] == [{"Ref": topic}]


def test_stage_settings_reach_the_functions_from_context(template):
    variables = template["Resources"]["APIHandler"]["Properties"]["Environment"]["Variables"]
    assert variables["MAIL_DOMAIN"] == MAIL_DOMAIN and variables["MAIL_TRANSPORT"] == "ses"
    assert variables["MAIL_FROM"] == f"Battle Line <play@{MAIL_DOMAIN}>"
    assert variables["TABLE_NAME"] == {"Ref": logical_id(template, "AWS::DynamoDB::Table", "Table")}
    assert "LINK_SECRET" not in variables and "LINK_SECRET_ARN" in variables  # the secret stays in Secrets Manager


# ---------------------------------------------------------------- least privilege

def statements(template: dict, role_prefix: str) -> list[dict]:
    policies = [p["Properties"] for name, p in resources(template, "AWS::IAM::Policy").items()
                if name.startswith(role_prefix + "Role")]
    return [s for p in policies for s in p["PolicyDocument"]["Statement"]]


def actions_of(found: list[dict]) -> set[str]:
    return {a for s in found for a in ([s["Action"]] if isinstance(s["Action"], str) else s["Action"])}


def test_no_statement_grants_every_action_and_table_actions_name_only_the_table(template):
    for policy in resources(template, "AWS::IAM::Policy").values():
        for statement in policy["Properties"]["PolicyDocument"]["Statement"]:
            granted = actions_of([statement])
            assert not any(a == "*" or a.endswith(":*") for a in granted), statement
            if any(a.startswith("dynamodb:") for a in granted):
                # The table, its stream and its indexes by name (not index/*).
                assert statement["Resource"] != "*" and "*" not in json.dumps(statement["Resource"]), statement


def test_each_role_holds_only_what_its_function_does(template):
    api, consumer = actions_of(statements(template, "APIHandler")), actions_of(statements(template, "OutboxConsumer"))
    sweeper = actions_of(statements(template, "ClockSweeper"))
    assert "dynamodb:PutItem" in api and "dynamodb:GetRecords" not in api and "ses:SendRawEmail" not in api
    assert {"dynamodb:GetRecords", "sqs:SendMessage", "ses:SendRawEmail"} <= consumer
    assert not any(a.startswith(("ses:", "secretsmanager:")) for a in sweeper)
    # the sweeper's one queue: its own failure queue (its on-failure destination, issue 24)
    queues = {json.dumps(s["Resource"]) for s in statements(template, "ClockSweeper") if "sqs:SendMessage" in actions_of([s])}
    assert queues == {json.dumps({"Fn::GetAtt": [logical_id(template, "AWS::SQS::Queue", "ClockSweeperFailures"), "Arn"]})}
    for name in FUNCTIONS:
        logs = [s for s in statements(template, name) if "logs:PutLogEvents" in actions_of([s])]
        assert logs and FUNCTIONS[name] in json.dumps(logs[0]["Resource"])


# ---------------------------------------------------------------- alarms, errors, outputs

def test_alarms_watch_the_failure_queue_and_5xx(template):
    alarms = [a["Properties"] for a in resources(template, "AWS::CloudWatch::Alarm").values()]
    queue = logical_id(template, "AWS::SQS::Queue", "OutboxFailures")
    assert any(a.get("MetricName") == "ApproximateNumberOfMessagesVisible" and
               a["Dimensions"][0]["Value"] == {"Fn::GetAtt": [queue, "QueueName"]} for a in alarms)
    assert any(a.get("MetricName") == "5XXError" and a["Namespace"] == "AWS/ApiGateway" and
               {"Name": "ApiName", "Value": "battleline-api"} in a["Dimensions"] for a in alarms)
    assert all(a["AlarmActions"] for a in alarms)
    assert template["Resources"]["RestAPI"]["Properties"]["Name"] == "battleline-api"


# API Gateway's own answers: (status, code). Written out here, not taken from infra/stack.py.
GATEWAY_PROBLEMS = {
    "MISSING_AUTHENTICATION_TOKEN": (404, "not_found"),  # an unknown path or method: not 403
    "RESOURCE_NOT_FOUND": (404, "not_found"),
    "REQUEST_TOO_LARGE": (413, "payload_too_large"),
    "UNSUPPORTED_MEDIA_TYPE": (415, "unsupported_media_type"),
    "THROTTLED": (429, "rate_limited"),
    "QUOTA_EXCEEDED": (429, "rate_limited"),
    "INTEGRATION_TIMEOUT": (504, "gateway_timeout"),
    "INTEGRATION_FAILURE": (429, "rate_limited"),  # Lambda refused to run a function: its pool is full
    # A request the firewall's common rule set blocks: 403 request_blocked, not DEFAULT_4XX's 400
    # (a status on DEFAULT_4XX becomes that of every 4xx type not named here).
    "WAF_FILTERED": (403, "request_blocked"),
    "ACCESS_DENIED": (403, "request_blocked"),
    "DEFAULT_4XX": (400, "bad_request"),  # everything else API Gateway refuses (a malformed request)
    "DEFAULT_5XX": (500, "internal_error"),
}


def gateway_responses(template: dict) -> dict[str, dict]:
    body = template["Resources"]["RestAPI"]["Properties"]["DefinitionBody"]
    return body["x-amazon-apigateway-gateway-responses"]


def test_api_gateway_answers_no_error_of_its_own_outside_the_problem_responses(template):
    assert set(gateway_responses(template)) == set(GATEWAY_PROBLEMS)
    # In the API's OpenAPI body only, not beside it (cfn-lint W3660 on the expanded template).
    assert not resources(template, "AWS::ApiGateway::GatewayResponse")


@pytest.mark.parametrize("kind", GATEWAY_PROBLEMS)
def test_api_gateways_own_errors_are_problem_json_with_the_apps_codes(template, kind):
    from chalicelib.kernel.errors import ERRORS

    status, code = GATEWAY_PROBLEMS[kind]
    response = gateway_responses(template)[kind]
    assert response["statusCode"] == str(status)
    assert response["responseParameters"]["gatewayresponse.header.Content-Type"] == "'application/problem+json'"
    body = json.loads(response["responseTemplates"]["application/json"])
    assert set(body) == {"type", "title", "status", "detail", "code"}
    assert (body["type"], body["code"], body["status"]) == (f"/problems/{code}", code, status)
    assert body["title"] == ERRORS[code].title and ERRORS[code].status == status  # the app's own answer for it
    assert body["detail"] and "$" not in response["responseTemplates"]["application/json"]


@pytest.mark.parametrize("kind", ["THROTTLED", "INTEGRATION_FAILURE"])
def test_throttled_and_unreachable_gateway_answers_say_when_to_retry(template, kind):
    retry_after = gateway_responses(template)[kind]["responseParameters"]["gatewayresponse.header.Retry-After"]
    assert re.fullmatch(r"'[1-9][0-9]*'", retry_after)


def test_cfn_lint_finds_nothing(synthesized):
    cfn_lint = Path(sys.executable).with_name("cfn-lint")
    run = subprocess.run([str(cfn_lint), str(synthesized / "Battleline.template.json")],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr


# ---------------------------------------------------------------- the package

def the_package(synthesized: Path, template: dict) -> Path:
    key = template["Resources"]["APIHandler"]["Properties"]["CodeUri"]["Key"]
    package = synthesized / f"asset.{key.removesuffix('.zip')}.zip"
    if not package.exists():  # the asset keeps the name of the packaged zip
        package = next(synthesized.glob("asset.*.zip"))
    return package


def test_the_lambda_package_is_lean_precompiled_and_has_no_boto3(synthesized, template):
    package = the_package(synthesized, template)
    assert package.stat().st_size <= MAX_PACKAGE_BYTES, f"{package.stat().st_size} bytes"
    names = zipfile.ZipFile(package).namelist()
    assert not any(re.match(r"(boto3|botocore|s3transfer)/", n) for n in names)
    assert "app.py" in names and "chalicelib/games/khan/cardsets/khan-default.v1.json" in names
    for language in ("zh_Hans", "ja", "vi"):  # compiled catalogs, and the CLDR data of our languages only
        assert f"chalicelib/locale/{language}/LC_MESSAGES/messages.mo" in names
        assert f"babel/locale-data/{language}.dat" in names
    assert not any(n.endswith(".po") for n in names) and "babel/locale-data/fr.dat" not in names
    version = f"cpython-{sys.version_info.major}{sys.version_info.minor}"  # the runtime's, so the bytecode is used
    runtime = template["Resources"]["APIHandler"]["Properties"]["Runtime"]
    assert runtime == f"python{sys.version_info.major}.{sys.version_info.minor}"
    assert f"__pycache__/app.{version}.pyc" in names and f"pydantic/__pycache__/main.{version}.pyc" in names
    left_out = ("aws_lambda_powertools/event_handler/", "aws_lambda_powertools/utilities/idempotency/", "pydantic/v1/",
                "babel/messages/", "chalicelib/games/terminal.py", "chalicelib/locale/messages.pot")
    assert not [n for n in names if n.startswith(left_out) or n.endswith((".pyi", ".dist-info/RECORD"))]


IMPORT_EVERYTHING = """
import importlib, pkgutil, sys
sys.path[:0] = sys.argv[1:]
import app
import chalicelib
from chalicelib.notify import stream  # Powertools' batch processor, after pydantic: it loads its parser's models
for found in pkgutil.walk_packages(chalicelib.__path__, "chalicelib."):
    importlib.import_module(found.name)
print(len(sys.modules))
"""


def test_issue39_item5_every_module_of_the_lean_package_imports_from_it_and_the_runtime_alone(
        synthesized, template, tmp_path):
    """What infra/package.py leaves out of the package (LEFT_OUT) is nothing a function imports: every
    module of chalicelib loads from the unpacked package with only the runtime's boto3 beside it."""
    package = tmp_path / "task"
    with zipfile.ZipFile(the_package(synthesized, template)) as archive:
        archive.extractall(package)
    runtime = tmp_path / "runtime"
    runtime.mkdir()
    site = Path(__import__("boto3").__file__).parents[1]
    for name in RUNTIME:
        (runtime / name).symlink_to(site / name)
    env = {"AWS_DEFAULT_REGION": "us-east-1", "TABLE_NAME": "battleline", "MAIL_TRANSPORT": "none"}
    run = subprocess.run([sys.executable, "-I", "-S", "-B", "-c", IMPORT_EVERYTHING, str(package), str(runtime)],
                         cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]


def test_requirements_txt_is_pyprojects_runtime_dependencies_without_boto3_chalice_and_the_cli():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    # boto3: in the Lambda runtime; chalice: its packager adds what it needs; typer: the command line only.
    wanted = sorted(d.split("#")[0].strip() for d in declared if not d.startswith(("boto3", "chalice", "typer")))
    lines = [line.strip() for line in (ROOT / "requirements.txt").read_text().splitlines()]
    assert sorted(line for line in lines if line and not line.startswith("#")) == wanted
