"""What a public launch needs (issue 24), on the stack built in-process with
``aws_cdk.assertions.Template``: alarms that can notify, inbound mail SES may publish, limits on
abuse (throttling, WAF, reserved concurrency), access logs, tracing, alarms, data safety.
The production stack is ``make synth``'s, made once a run (tests/infra/conftest.py)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from dataclasses import fields
from pathlib import Path

import aws_cdk as cdk
import pytest
from aws_cdk.assertions import Match, Template

from chalicelib.kernel.errors import ERRORS
from chalicelib.store.schema import table_definition
from infra import checks
from infra.stack import BattlelineStack, Settings, SettingsError, common_rule_set_override, link_secret

ROOT = Path(__file__).resolve().parents[2]
MAIL_DOMAIN = "games.example.com"
PRODUCTION = {"mail_domain": MAIL_DOMAIN, "alarm_email": "ops@example.com", "public_url": "https://games.example.com"}
# Every function of the stack, written out here (not read from infra/stack.py's FUNCTIONS).
FUNCTIONS = {"APIHandler": "battleline-api", "OutboxConsumer": "battleline-outbox-consumer",
             "WebhookRetries": "battleline-webhook-retries", "ClockSweeper": "battleline-clock-sweeper",
             "InboundMail": "battleline-inbound-mail", "LongPoll": "battleline-long-poll"}


def cdk_json_context() -> dict:
    return json.loads((ROOT / "infra" / "cdk.json").read_text())["context"]


@pytest.fixture(scope="module")
def template(make_synth) -> Template:
    """``make synth``'s production stack (tests/infra/conftest.py: made once a run, ``PRODUCTION``'s context)."""
    assert {key: checks.CONTEXT[key] for key in PRODUCTION} == PRODUCTION
    return Template.from_json(json.loads((make_synth / f"{checks.STACK}.template.json").read_text()))


@pytest.fixture(scope="module")
def expanded(template) -> dict:
    """The template as CloudFormation deploys it: Chalice's SAM resources expanded (infra/checks.py)."""
    return checks.expand(template.to_json())["Resources"]


def only(template: Template, kind: str, props: dict | None = None) -> tuple[str, dict]:
    found = template.find_resources(kind, {"Properties": props} if props else None)
    assert len(found) == 1, f"{len(found)} {kind}: {list(found)}"
    name, resource = next(iter(found.items()))
    return name, resource["Properties"]


def topic_statements(template: Template, topic_prefix: str) -> list[dict]:
    topic = next(name for name in template.find_resources("AWS::SNS::Topic") if name.startswith(topic_prefix))
    policies = template.find_resources("AWS::SNS::TopicPolicy", {"Properties": {"Topics": [{"Ref": topic}]}})
    assert len(policies) == 1
    return next(iter(policies.values()))["Properties"]["PolicyDocument"]["Statement"]


def function(template: Template, logical: str) -> dict:
    return template.find_resources("AWS::Serverless::Function")[logical]["Properties"]


# ---------------------------------------------------------------- blocker 1: alarms reach someone

def test_cloudwatch_may_publish_to_the_alarms_topic_for_this_accounts_alarms_and_tls_is_still_required(template):
    statements = topic_statements(template, "Alarms")
    allow = [s for s in statements if s["Effect"] == "Allow"]
    assert len(allow) == 1
    assert allow[0]["Principal"] == {"Service": "cloudwatch.amazonaws.com"} and allow[0]["Action"] == "sns:Publish"
    assert allow[0]["Condition"]["StringEquals"] == {"aws:SourceAccount": {"Ref": "AWS::AccountId"}}
    assert ":alarm:*" in json.dumps(allow[0]["Condition"]["ArnLike"]["aws:SourceArn"])
    assert any(s["Effect"] == "Deny" and s["Condition"] == {"Bool": {"aws:SecureTransport": "false"}}
               for s in statements)
    template.has_resource_properties("AWS::SNS::Subscription", {"Protocol": "email", "Endpoint": "ops@example.com"})


def test_every_alarm_notifies_the_alarms_topic(template):
    subscription = only(template, "AWS::SNS::Subscription", {"Endpoint": "ops@example.com"})[1]
    topic = subscription["TopicArn"]  # the topic the alarm email is subscribed to
    alarms = template.find_resources("AWS::CloudWatch::Alarm")
    assert alarms and all(a["Properties"]["AlarmActions"] == [topic] for a in alarms.values())


def test_a_production_stack_without_an_alarm_email_is_refused_with_what_to_set():
    app = cdk.App(context={**cdk_json_context(), "mail_domain": MAIL_DOMAIN, "alarm_email": ""})
    with pytest.raises(SettingsError, match="alarm_email") as refused:
        BattlelineStack(app, "Battleline")  # refused before anything is packaged
    assert "production=false" in str(refused.value)


def test_make_synth_without_an_alarm_email_stops_with_the_message_and_no_traceback(tmp_path):
    run = subprocess.run([sys.executable, "infra/app.py", "alarm_email="], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "CDK_OUTDIR": str(tmp_path)}, timeout=300)
    assert run.returncode != 0 and "Traceback" not in run.stderr
    assert "needs alarm_email" in run.stderr and "production=false" in run.stderr


@pytest.mark.parametrize("public_url", ["", "http://games.example.com", "http://127.0.0.1:8000", "games.example.com",
                                        "https://"])
def test_issue34_item13_a_production_stack_without_an_https_public_url_is_refused(public_url):
    app = cdk.App(context={**cdk_json_context(), **PRODUCTION, "public_url": public_url})
    with pytest.raises(SettingsError, match="needs public_url") as refused:
        BattlelineStack(app, "Battleline")  # refused before anything is packaged
    assert "production=false" in str(refused.value)


def test_issue34_item13_make_synth_without_a_public_url_stops_with_the_message_and_no_traceback(tmp_path):
    run = subprocess.run([sys.executable, "infra/app.py", "alarm_email=ops@example.com", "public_url="], cwd=ROOT,
                         capture_output=True, text=True, env={**os.environ, "CDK_OUTDIR": str(tmp_path)}, timeout=300)
    assert run.returncode != 0 and "Traceback" not in run.stderr
    assert "needs public_url" in run.stderr and "https" in run.stderr


def test_issue34_item13_a_dev_stack_may_have_no_public_url():
    settings = Settings.from_context(cdk.App(context={**cdk_json_context(), "production": "false"}))
    settings.check()  # does not raise
    assert settings.public_url == ""


@pytest.mark.parametrize("production", [False, "false"])
def test_a_dev_stack_may_have_no_alarm_email_and_no_termination_protection(production):
    settings = Settings.from_context(cdk.App(context={**cdk_json_context(), "production": production}))
    settings.check()  # does not raise
    assert settings.production is False and settings.alarm_email == ""


def test_a_production_stack_has_termination_protection(make_synth):
    manifest = json.loads((make_synth / "manifest.json").read_text())
    assert manifest["artifacts"][checks.STACK]["properties"]["terminationProtection"] is True


def test_reserved_concurrency_must_leave_the_account_100_unreserved():
    app = cdk.App(context={**cdk_json_context(), **PRODUCTION, "api_concurrency": 900})
    with pytest.raises(SettingsError, match="unreserved"):
        Settings.from_context(app).check()


# ---------------------------------------------------------------- blocker 2: inbound mail arrives

def test_ses_may_publish_replies_only_for_the_stacks_receipt_rule_in_this_account(template):
    _, rule_set = only(template, "AWS::SES::ReceiptRuleSet")
    rule_id, rule = only(template, "AWS::SES::ReceiptRule")
    assert rule_set["RuleSetName"] == "battleline-inbound" and rule["Rule"]["Name"] == "battleline-replies"
    allow = [s for s in topic_statements(template, "InboundMailTopic") if s["Effect"] == "Allow"]
    assert len(allow) == 1
    assert allow[0]["Principal"] == {"Service": "ses.amazonaws.com"} and allow[0]["Action"] == "sns:Publish"
    condition = allow[0]["Condition"]["StringEquals"]
    assert condition["aws:SourceAccount"] == {"Ref": "AWS::AccountId"}
    source = json.dumps(condition["aws:SourceArn"])
    assert ":ses:" in source and "receipt-rule-set/battleline-inbound:receipt-rule/battleline-replies" in source
    # The policy exists before the rule that publishes (no cycle: the ARN is built from names).
    policy = next(iter(template.find_resources("AWS::SNS::TopicPolicy", {
        "Properties": {"PolicyDocument": {"Statement": Match.array_with([Match.object_like(
            {"Principal": {"Service": "ses.amazonaws.com"}})])}}})))
    assert policy in template.to_json()["Resources"][rule_id]["DependsOn"]


# ---------------------------------------------------------------- blocker 3: limits on abuse

def method_settings(template: Template) -> dict[tuple[str, str], dict]:
    api = template.to_json()["Resources"]["RestAPI"]["Properties"]
    return {(m["ResourcePath"], m["HttpMethod"]): m for m in api["MethodSettings"]}


def test_the_stage_throttles_every_method_and_sign_up_and_invitations_tighter(template):
    found = method_settings(template)
    general = found[("/*", "*")]
    assert (general["ThrottlingRateLimit"], general["ThrottlingBurstLimit"]) == (100, 200)
    for route in (("/~1v1~1players", "POST"), ("/~1v1~1games", "POST"), ("/~1v1~1players~1recover", "POST")):
        assert found[route]["ThrottlingRateLimit"] < general["ThrottlingRateLimit"], route
        assert found[route]["ThrottlingBurstLimit"] < general["ThrottlingBurstLimit"], route
    assert found[("/~1v1~1players", "POST")]["ThrottlingRateLimit"] == 1


def test_a_regional_web_acl_guards_the_stage_with_per_ip_rate_rules_and_the_common_rule_set(template):
    acl_id, acl = only(template, "AWS::WAFv2::WebACL")
    assert acl["Scope"] == "REGIONAL" and acl["DefaultAction"] == {"Allow": {}}
    _, association = only(template, "AWS::WAFv2::WebACLAssociation")
    assert association["WebACLArn"] == {"Fn::GetAtt": [acl_id, "Arn"]}
    assert "/restapis/${RestAPI}/stages/${RestAPI.Stage}" in association["ResourceArn"]["Fn::Sub"]
    rules = {r["Name"]: r for r in acl["Rules"]}
    rates = {name: r["Statement"]["RateBasedStatement"] for name, r in rules.items() if "RateBasedStatement" in r["Statement"]}
    assert {r["AggregateKeyType"] for r in rates.values()} == {"IP"}
    assert {name: r["Limit"] for name, r in rates.items()} == {
        "requests-per-ip": 1500, "signup-per-ip": 10, "games-per-ip": 60}
    assert "ScopeDownStatement" not in rates["requests-per-ip"]
    for name, path in (("signup-per-ip", "/v1/players"), ("games-per-ip", "/v1/games")):
        statements = rates[name]["ScopeDownStatement"]["AndStatement"]["Statements"]
        methods = [s["ByteMatchStatement"] for s in statements if "ByteMatchStatement" in s]
        assert [(m["SearchString"], m["PositionalConstraint"]) for m in methods] == [("POST", "EXACTLY")]
        # The path decoded (%2F) and normalized (//, /./) first, a trailing slash allowed (finding 11).
        [regex] = [s["RegexMatchStatement"] for s in statements if "RegexMatchStatement" in s]
        assert regex["FieldToMatch"] == {"UriPath": {}}
        assert [(t["Priority"], t["Type"]) for t in regex["TextTransformations"]] == [(0, "URL_DECODE"),
                                                                                       (1, "NORMALIZE_PATH")]
        for seen in (f"/api{path}", f"/api{path}/", path, f"{path}/"):
            assert re.search(regex["RegexString"], seen), seen
        for other in (f"/api{path}/recover", f"/api{path}/me", f"/api{path}x", f"/api/v2{path[3:]}"):
            assert not re.search(regex["RegexString"], other), other
    managed = rules["aws-common"]["Statement"]["ManagedRuleGroupStatement"]
    assert (managed["VendorName"], managed["Name"]) == ("AWS", "AWSManagedRulesCommonRuleSet")
    # Enforced by default (waf_common_rule_set=block), but two rules only count: our bodies may be
    # 256 KB (a card-set file), over its 8 KB body rule; bots and clients may send no User-Agent.
    assert rules["aws-common"]["OverrideAction"] == {"None": {}}
    assert sorted(managed["RuleActionOverrides"], key=str) == [
        {"ActionToUse": {"Count": {}}, "Name": "NoUserAgent_HEADER"},
        {"ActionToUse": {"Count": {}}, "Name": "SizeRestrictions_BODY"}]
    # Metrics for every rule; no sampled requests: WAF keeps them with every header (the Authorization
    # key) and the path (link tokens), and logging's redaction does not apply to them (finding 9).
    for config in [acl["VisibilityConfig"], *(r["VisibilityConfig"] for r in acl["Rules"])]:
        assert config["CloudWatchMetricsEnabled"] is True and config["SampledRequestsEnabled"] is False


def test_the_api_has_one_stage_the_guarded_one_and_no_sam_stage_beside_it(expanded):
    """Without OpenApiVersion SAM also deploys the API to a stage called Stage, with no WAF,
    throttling, access logs or tracing (review finding 1)."""
    stages = {name: r for name, r in expanded.items() if r["Type"] == "AWS::ApiGateway::Stage"}
    assert list(stages) == ["RestAPIapiStage"] and stages["RestAPIapiStage"]["Properties"]["StageName"] == "api"
    for name, resource in expanded.items():
        if resource["Type"] == "AWS::ApiGateway::Deployment":
            assert "StageName" not in resource["Properties"], name


def dependencies(resources: dict, name: str) -> set[str]:
    """Every resource ``name`` waits for, directly or through others: DependsOn and references."""
    def direct(resource: dict) -> set[str]:
        depends = resource.get("DependsOn", [])
        found = set([depends] if isinstance(depends, str) else depends)
        found |= set(re.findall(r'"Ref": "([^"]+)"', json.dumps(resource)))
        found |= set(re.findall(r'"Fn::GetAtt": \["([^"]+)"', json.dumps(resource)))
        found |= {ref.split(".")[0] for ref in re.findall(r"\$\{([^}!]+)\}", json.dumps(resource))}
        return found & set(resources)
    seen, todo = set(), [name]
    while todo:
        for each in direct(resources[todo.pop()]) - seen:
            seen.add(each)
            todo.append(each)
    return seen


def test_functions_and_what_lambda_checks_their_role_for_wait_for_the_roles_policy(expanded):
    """Lambda checks the execution role when a stream mapping or an on-failure destination is
    created: each must wait for the role's policy, not only for the role (review finding 2)."""
    policies = {name for name, r in expanded.items() if r["Type"] == "AWS::IAM::Policy"}

    def policy_of(logical: str) -> str:
        return next(name for name in policies if name.startswith(f"{logical}RoleDefaultPolicy"))

    for logical in [*FUNCTIONS, "MailEvents"]:
        assert policy_of(logical) in dependencies(expanded, logical), logical
    assert policy_of("OutboxConsumer") in dependencies(expanded, "OutboxStream")
    configs = [name for name, r in expanded.items() if r["Type"] == "AWS::Lambda::EventInvokeConfig"]
    assert len(configs) == 4
    for name in configs:
        logical = name.removesuffix("EventInvokeConfig")
        assert policy_of(logical) in dependencies(expanded, name), name


def test_the_common_rule_set_may_run_in_count_mode_first():
    """An operator can launch with the whole group counting, read the logs, then enforce it."""
    for mode, action in (("block", {"none": {}}), ("count", {"count": {}})):
        context = {**cdk_json_context(), **PRODUCTION, "waf_common_rule_set": mode}
        assert Settings.from_context(cdk.App(context=context)).waf_common_rule_set == mode
        override = common_rule_set_override(mode)
        assert {k: v for k, v in (("none", override.none), ("count", override.count)) if v is not None} == action
    with pytest.raises(ValueError, match="waf_common_rule_set"):
        Settings.from_context(cdk.App(context={**cdk_json_context(), **PRODUCTION, "waf_common_rule_set": "allow"}))


def test_an_alarm_watches_what_the_firewall_blocks(template):
    _, acl = only(template, "AWS::WAFv2::WebACL")
    blocked = [a for a in alarms(template) if a.get("Namespace") == "AWS/WAFV2"]
    assert len(blocked) == 1 and blocked[0]["MetricName"] == "BlockedRequests"
    dimensions = {d["Name"]: d["Value"] for d in blocked[0]["Dimensions"]}
    assert dimensions["WebACL"] == acl["VisibilityConfig"]["MetricName"] == acl["Name"]
    assert dimensions["Rule"] == "ALL" and "Region" in dimensions
    assert blocked[0]["Threshold"] == 100 and blocked[0]["Period"] == 300


def test_the_api_is_regional_so_the_firewall_and_the_access_logs_see_the_clients_address(template):
    """An edge-optimized API is reached through CloudFront: a regional WAF's per-IP rules would count
    CloudFront's addresses, not the clients'."""
    _, api = only(template, "AWS::Serverless::Api")
    assert api["EndpointConfiguration"] in ("REGIONAL", {"Type": "REGIONAL"})


def test_a_rate_limited_address_gets_the_apps_429_problem(template):
    _, acl = only(template, "AWS::WAFv2::WebACL")
    for rule in acl["Rules"]:
        if "RateBasedStatement" in rule["Statement"]:
            response = rule["Action"]["Block"]["CustomResponse"]
            assert response["ResponseCode"] == 429 and response["CustomResponseBodyKey"] == "rate_limited"
    body = acl["CustomResponseBodies"]["rate_limited"]
    assert body["ContentType"] == "APPLICATION_JSON"
    problem = json.loads(body["Content"])
    assert (problem["code"], problem["status"], problem["title"]) == ("rate_limited", 429, ERRORS["rate_limited"].title)


def test_the_firewall_logs_only_what_it_blocks_or_counts_without_the_key_the_path_or_the_query(template):
    _, logging = only(template, "AWS::WAFv2::LoggingConfiguration")
    assert logging["LoggingFilter"]["DefaultBehavior"] == "DROP"
    assert {"SingleHeader": {"Name": "authorization"}} in logging["RedactedFields"]
    assert {"QueryString": {}} in logging["RedactedFields"]
    assert {"UriPath": {}} in logging["RedactedFields"]  # /v1/links/{token}, /v1/recover/{token}


def test_the_api_and_the_schedules_have_reserved_concurrency(template):
    assert function(template, "APIHandler")["ReservedConcurrentExecutions"] == 200
    assert function(template, "LongPoll")["ReservedConcurrentExecutions"] == 50
    for schedule in ("WebhookRetries", "ClockSweeper"):  # one run at a time
        assert function(template, schedule)["ReservedConcurrentExecutions"] == 1


def test_the_daily_invitation_cap_reaches_every_function(template):
    for logical in FUNCTIONS:
        assert function(template, logical)["Environment"]["Variables"]["INVITATIONS_PER_DAY"] == "20", logical


def test_every_setting_has_a_default_in_cdk_json():
    assert {f.name for f in fields(Settings)} <= set(cdk_json_context())


# ---------------------------------------------------------------- observability

def test_access_logs_are_json_lines_without_secrets_to_a_group_with_retention(template):
    api = template.to_json()["Resources"]["RestAPI"]["Properties"]
    group_id, group = only(template, "AWS::Logs::LogGroup", {"LogGroupName": "/aws/apigateway/battleline-api"})
    assert group["RetentionInDays"] == 30
    assert api["AccessLogSetting"]["DestinationArn"] == {"Fn::GetAtt": [group_id, "Arn"]}
    line = json.loads(api["AccessLogSetting"]["Format"])
    assert {"requestId", "sourceIp", "method", "resourcePath", "status", "latency", "responseLength",
            "userAgent"} <= set(line)
    format_ = api["AccessLogSetting"]["Format"]
    # The path and the query may hold signed link tokens; headers hold the API key.
    assert "$context.path" not in format_ and "querystring" not in format_.lower()
    assert "authorization" not in format_.lower() and "$context.resourcePath" in format_


def test_api_gateways_account_wide_logging_role_can_write_every_apis_logs_and_outlives_the_stack(template):
    """The account's CloudWatch role serves every API in the account and region: a role that could
    write only this stack's group would silence the others, and one deleted with the stack would
    leave the setting naming nothing (review finding 4)."""
    account_id, account = only(template, "AWS::ApiGateway::Account")
    role_id = account["CloudWatchRoleArn"]["Fn::GetAtt"][0]
    resources = template.to_json()["Resources"]
    role = resources[role_id]["Properties"]
    assert "AmazonAPIGatewayPushToCloudWatchLogs" in json.dumps(role["ManagedPolicyArns"])
    assert "Policies" not in role
    assert role["AssumeRolePolicyDocument"]["Statement"][0]["Principal"] == {"Service": "apigateway.amazonaws.com"}
    for logical in (role_id, account_id):
        assert resources[logical]["DeletionPolicy"] == "Retain" == resources[logical]["UpdateReplacePolicy"], logical
    assert "ApiGatewayAccount" in resources["RestAPI"]["DependsOn"]


def test_the_stage_and_every_function_are_traced(template):
    assert template.to_json()["Resources"]["RestAPI"]["Properties"]["TracingEnabled"] is True
    policies = template.find_resources("AWS::IAM::Policy")
    for logical in FUNCTIONS:
        assert function(template, logical)["Tracing"] == "Active"
        statements = [s for name, p in policies.items() if name.startswith(f"{logical}Role")
                      for s in p["Properties"]["PolicyDocument"]["Statement"]]
        assert any(s["Action"] == ["xray:PutTraceSegments", "xray:PutTelemetryRecords"] for s in statements), logical


def alarms(template: Template) -> list[dict]:
    return [a["Properties"] for a in template.find_resources("AWS::CloudWatch::Alarm").values()]


def test_every_function_has_an_errors_and_a_throttles_alarm(template):
    watched = {(a["MetricName"], a["Dimensions"][0]["Value"]) for a in alarms(template) if a.get("Namespace") == "AWS/Lambda"}
    for name in FUNCTIONS.values():
        assert ("Errors", name) in watched and ("Throttles", name) in watched, name


def test_a_schedules_run_ends_before_the_next_tick_and_a_stale_tick_is_dropped(template):
    """Reserved concurrency 1: a run still going when the next tick comes throttles it, and Lambda
    would retry a throttled tick for up to 6 hours (review finding 5)."""
    for schedule in ("WebhookRetries", "ClockSweeper"):
        properties = function(template, schedule)
        assert properties["Timeout"] == 50, schedule  # under the one-minute interval
        assert properties["EventInvokeConfig"]["MaximumEventAgeInSeconds"] == 120, schedule
    for other in ("InboundMail", "MailEvents"):  # SES events and replies keep Lambda's 6 hours
        assert "MaximumEventAgeInSeconds" not in function(template, other)["EventInvokeConfig"], other


def test_throttles_of_the_long_polls_and_the_schedules_alarm_only_when_sustained(template):
    """A full long-poll pool is its designed answer (429), a throttled tick a passing collision:
    three periods of five minutes in a row; every other function at its first throttle."""
    throttles = {a["Dimensions"][0]["Value"]: a for a in alarms(template)
                 if a.get("Namespace") == "AWS/Lambda" and a["MetricName"] == "Throttles"}
    for logical, name in {**FUNCTIONS, "MailEvents": "battleline-mail-events"}.items():
        sustained = logical in ("LongPoll", "WebhookRetries", "ClockSweeper")
        periods = (throttles[name]["EvaluationPeriods"], throttles[name].get("DatapointsToAlarm", 1))
        assert periods == ((3, 3) if sustained else (1, 1)), name


def test_alarms_watch_move_latency_the_outboxs_iterator_age_and_table_throttles(template):
    found = alarms(template)
    latency = [a for a in found if a.get("MetricName") == "Latency"]
    assert len(latency) == 1 and latency[0]["ExtendedStatistic"] == "p99" and latency[0]["Threshold"] == 3000
    assert {"Name": "Resource", "Value": "/v1/games/{game_id}/actions"} in latency[0]["Dimensions"]
    assert (("/~1v1~1games~1{game_id}~1actions", "POST") in method_settings(template)
            and method_settings(template)[("/~1v1~1games~1{game_id}~1actions", "POST")]["MetricsEnabled"])
    age = [a for a in found if a.get("MetricName") == "IteratorAge"]
    assert len(age) == 1 and age[0]["Threshold"] <= 3_600_000  # stream records are lost after 24 h
    assert age[0]["Dimensions"] == [{"Name": "FunctionName", "Value": "battleline-outbox-consumer"}]



def test_table_throttle_alarms_sum_the_table_and_every_index(template):
    """An index's throttle events are published under TableName and GlobalSecondaryIndexName only,
    and a throttled index throttles the table's writes (review finding 6)."""
    indexes = {i["IndexName"] for i in table_definition("battleline")["GlobalSecondaryIndexes"]}
    found = {}
    for alarm in alarms(template):
        stats = [m["MetricStat"]["Metric"] for m in alarm.get("Metrics", []) if "MetricStat" in m]
        if stats and stats[0]["Namespace"] == "AWS/DynamoDB":
            assert [m["Expression"] for m in alarm["Metrics"] if "Expression" in m] == ["SUM(METRICS())"]
            names = {m["MetricName"] for m in stats}
            assert len(names) == 1
            covered = {next((d["Value"] for d in m["Dimensions"] if d["Name"] == "GlobalSecondaryIndexName"), None)
                       for m in stats}
            found[names.pop()] = covered
    assert found == {name: indexes | {None} for name in ("ReadThrottleEvents", "WriteThrottleEvents")}


# ---------------------------------------------------------------- data safety

def test_the_table_cannot_be_deleted_and_the_link_secret_stays_with_it(template):
    _, table = only(template, "AWS::DynamoDB::Table")
    assert table["DeletionProtectionEnabled"] is True
    secret = next(iter(template.find_resources("AWS::SecretsManager::Secret").values()))
    assert secret["DeletionPolicy"] == "Retain" and secret["UpdateReplacePolicy"] == "Retain"


KEPT_SECRET = "arn:aws:secretsmanager:us-east-1:123456789012:secret:LinkSecret3A5B-AbC123"


def test_a_stack_deployed_again_uses_the_kept_link_secret_so_mailed_links_still_work():
    """link_secret_arn: the secret kept from a destroyed stack, used instead of a new one (finding 8)."""
    for arn, made in ((KEPT_SECRET, 0), ("", 1)):
        app = cdk.App(context={**cdk_json_context(), **PRODUCTION, "link_secret_arn": arn})
        stack = cdk.Stack(app, "Secrets", env=cdk.Environment(region="us-east-1", account="123456789012"))
        secret = link_secret(stack, Settings.from_context(app))
        Template.from_stack(stack).resource_count_is("AWS::SecretsManager::Secret", made)
        if arn:
            assert stack.resolve(secret.secret_arn) == KEPT_SECRET
    with pytest.raises(ValueError, match="complete ARN"):  # a partial ARN (no suffix) would not grant reads
        Settings.from_context(cdk.App(context={**cdk_json_context(), **PRODUCTION,
                                               "link_secret_arn": KEPT_SECRET.rsplit("-", 1)[0]}))


def test_functions_behind_the_api_end_before_api_gateway_gives_up(template):
    for logical in ("APIHandler", "LongPoll"):
        assert function(template, logical)["Timeout"] < 29


def test_the_docs_count_the_alarms_the_stack_has(template):
    text = (ROOT / "docs" / "deploy.md").read_text()
    counts = {int(n) for pair in re.findall(r"(\d+) CloudWatch alarms|CloudWatch alarms: (\d+)", text) for n in pair if n}
    assert counts == {len(template.find_resources("AWS::CloudWatch::Alarm"))}
