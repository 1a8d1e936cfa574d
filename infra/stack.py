"""The whole deployment as one CDK stack: the table, the Chalice app (API and functions), the
outbox stream consumer, the schedules, inbound mail, per-function IAM, log retention, alarms,
and what a public launch needs: stage throttling, a WAF, reserved concurrency, access logs,
X-Ray, deletion and termination protection (``production``).

Stage settings come from CDK context (``cdk.json``, or ``-c name=value``), never from code
edits; docs/deploy.md lists them all.
"""

from __future__ import annotations

import fcntl
import json
import re
from dataclasses import dataclass
from pathlib import Path

import aws_cdk as cdk
from aws_cdk import aws_apigateway as apigateway
from aws_cdk import aws_cloudwatch as cloudwatch
from aws_cdk import aws_cloudwatch_actions as cloudwatch_actions
from aws_cdk import aws_dynamodb as dynamodb
from aws_cdk import aws_iam as iam
from aws_cdk import aws_lambda as lambda_
from aws_cdk import aws_logs as logs
from aws_cdk import aws_secretsmanager as secretsmanager
from aws_cdk import aws_ses as ses
from aws_cdk import aws_ses_actions as ses_actions
from aws_cdk import aws_sns as sns
from aws_cdk import aws_sns_subscriptions as subscriptions
from aws_cdk import aws_sqs as sqs
from aws_cdk import aws_wafv2 as wafv2
from chalice.cdk import Chalice
from constructs import Construct

from chalicelib.kernel.errors import ERRORS
from chalicelib.http.web import PROBLEM_JSON
from chalicelib.store import keys
from chalicelib.store.schema import TTL_ATTRIBUTE, table_definition
from infra.package import precompile

ROOT = Path(__file__).resolve().parent.parent
API_STAGE = "api"
FIVE_MINUTES = cdk.Duration.minutes(5)  # the period of most alarms

# The Chalice functions (their logical ids in Chalice's template) and their name suffixes.
FUNCTIONS = {
    "APIHandler": "api",
    "OutboxConsumer": "outbox-consumer",
    "WebhookRetries": "webhook-retries",
    "ClockSweeper": "clock-sweeper",
    "InboundMail": "inbound-mail",
    "LongPoll": "long-poll",
    "MailEvents": "mail-events",
}
# The operations that may wait (``wait=S``: listEvents, listGames) run in LongPoll, not APIHandler:
# API Gateway routes by path and method, never by a query parameter, so every GET of these two paths
# goes there (one without ``wait`` answers at once and frees its place).
LONG_POLL_ROUTES = ("/v1/games", "/v1/games/{game_id}/events")
# What each function does with DynamoDB: every one reads and writes items, none needs more.
TABLE_ACTIONS = ["dynamodb:GetItem", "dynamodb:BatchGetItem", "dynamodb:Query", "dynamodb:PutItem",
                 "dynamodb:UpdateItem", "dynamodb:DeleteItem", "dynamodb:ConditionCheckItem"]
STREAM_ACTIONS = ["dynamodb:DescribeStream", "dynamodb:GetRecords", "dynamodb:GetShardIterator",
                  "dynamodb:ListStreams"]
# The one-minute schedules: reserved concurrency 1 each, so a run never overlaps the next one.
SCHEDULES = ("WebhookRetries", "ClockSweeper")
# Their timeout: under the one-minute interval, so a run has ended when the next tick comes (with
# reserved concurrency 1, a run still going would throttle it).
SCHEDULE_TIMEOUT_SECONDS = 50
# Lambda refuses to reserve concurrency that leaves less than this unreserved in the account.
MIN_UNRESERVED = 100
# The operations that may send email to an address the caller names (createGame with email
# seats; recoverAccount mails the account's address): a tighter stage throttle and WAF rule.
INVITE_ROUTES = (("/v1/games", "POST"), ("/v1/players/recover", "POST"))
SIGNUP_ROUTE = ("/v1/players", "POST")
MOVE_ROUTE = ("/v1/games/{game_id}/actions", "POST")  # its latency is alarmed (per-method metrics)
# API access logs: one JSON line a request. resourcePath (/v1/links/{token}), never the path
# itself or the query (board and email links carry signed tokens there); no header but the agent.
ACCESS_LOG_FORMAT = json.dumps({
    "requestId": "$context.requestId", "time": "$context.requestTimeEpoch", "sourceIp": "$context.identity.sourceIp",
    "method": "$context.httpMethod", "resourcePath": "$context.resourcePath", "status": "$context.status",
    "latency": "$context.responseLatency", "integrationLatency": "$context.integrationLatency",
    "responseLength": "$context.responseLength", "userAgent": "$context.identity.userAgent",
    "error": "$context.error.responseType", "waf": "$context.wafResponseCode",
}, separators=(",", ":"))
SENDS_EMAIL = ("OutboxConsumer", "WebhookRetries", "InboundMail")
SIGNS_LINKS = ("APIHandler", "OutboxConsumer", "WebhookRetries", "InboundMail")
# The functions Lambda invokes asynchronously (schedules, SNS): what still fails after Lambda's own
# retries goes to a queue of the function's own (_async_failures), never silently dropped.
ASYNC_FUNCTIONS = ("InboundMail", "ClockSweeper", "WebhookRetries", "MailEvents")
# The SNS topics that invoke a function: their subscription's redrive policy sends what SNS could not
# deliver to the function (Lambda throttled, the function gone) to that function's failure queue.
SUBSCRIPTIONS = {"InboundMail": ("InboundMailTopic", "Replies"), "MailEvents": ("MailEventsTopic", "Bounces")}
# API Gateway's own answers, each as a problem of chalicelib/kernel/errors.py (its status and title come
# from ERRORS, so they cannot drift from what the app answers): response type -> (code, detail,
# extra headers). Every type not named here falls to DEFAULT_4XX or DEFAULT_5XX, which take
# their code's status. Without an authorizer, API keys or IAM auth, an unknown path or method is
# MISSING_AUTHENTICATION_TOKEN (also when it carries a Bearer key: "not a valid key=value pair").
RETRY = "Idempotency-Key"
GATEWAY_PROBLEMS: dict[str, tuple[str, str, dict[str, str]]] = {
    "MISSING_AUTHENTICATION_TOKEN": ("not_found", "This API has no such path, or the path has no such method; "
                                                  "see openapi.yaml", {}),
    "RESOURCE_NOT_FOUND": ("not_found", "This API has no such path; see openapi.yaml", {}),
    "REQUEST_TOO_LARGE": ("payload_too_large", "The request is larger than API Gateway takes (10 MB)", {}),
    "UNSUPPORTED_MEDIA_TYPE": ("unsupported_media_type", "The body must be application/json", {}),
    "THROTTLED": ("rate_limited", "Too many requests; retry after Retry-After seconds", {"Retry-After": "1"}),
    "QUOTA_EXCEEDED": ("rate_limited", "The request quota is used up", {}),
    "INTEGRATION_TIMEOUT": ("gateway_timeout", f"The server did not answer in time; retry with the same {RETRY}", {}),
    # Lambda refused to run the function: its reserved concurrency is in use (the long-polls' pool or
    # the API's, api_concurrency, is full) or the account's is. API Gateway has no response type of its own for that.
    "INTEGRATION_FAILURE": ("rate_limited", f"Too many requests are being answered at once (long-polls have a "
                                            f"pool of their own); retry after Retry-After seconds, a write with the "
                                            f"same {RETRY}", {"Retry-After": "2"}),
    # Named, so the fallback's status (400) is never theirs: a status on DEFAULT_4XX becomes the status
    # of every 4xx type not named here. WAF_FILTERED: AWS's common rule set blocked the request (the
    # rate rules answer with a body of their own, which takes precedence); ACCESS_DENIED: a resource
    # policy or authorizer refused it (none today; a 403 all the same if one is added).
    "WAF_FILTERED": ("request_blocked", "The firewall refused this request (it looks like an attack); if it is "
                                        "legitimate, report it with the request's time", {}),
    "ACCESS_DENIED": ("request_blocked", "API Gateway's access policy refused this request", {}),
    "DEFAULT_4XX": ("bad_request", "API Gateway refused the request before it reached the server", {}),
    "DEFAULT_5XX": ("internal_error", f"API Gateway failed to pass the request on; retry with the same {RETRY}", {}),
}
# The stream is the outbox: only a game's versions (and settings) and items saved with messages
# wake the consumer; everything else in the stream (heads, memberships, deliveries...) is filtered
# out by Lambda, at no cost.
OUTBOX_FILTERS = [
    {"eventName": ["INSERT", "MODIFY"],
     "dynamodb": {"Keys": {"PK": {"S": [{"prefix": keys.GAME_PREFIX}]}, "SK": {"S": [{"prefix": keys.GAME_PREFIX}]}}}},
    {"eventName": ["INSERT", "MODIFY"], "dynamodb": {"NewImage": {"outbox": {"B": [{"exists": True}]}}}},
]


def gateway_problem(code: str, detail: str) -> tuple[str, int]:
    """The body of a Gateway Response (the app's problem+json for ``code``) and its status.
    The body is a static template: no ``$``, which API Gateway would read as a variable."""
    kind = ERRORS[code]
    body = json.dumps({"type": f"/problems/{code}", "title": kind.title, "status": kind.status, "detail": detail,
                       "code": code})
    if "$" in body:
        raise ValueError(f"a Gateway Response body cannot hold $: {body}")
    return body, kind.status


def inbound_rule_arn(stack: cdk.Stack, rule_set: str, rule: str) -> str:
    """The ARN of an SES receipt rule (SES's SourceArn when it publishes for the rule)."""
    return f"arn:{stack.partition}:ses:{stack.region}:{stack.account}:receipt-rule-set/{rule_set}:receipt-rule/{rule}"


def method_match(http_method: str) -> "wafv2.CfnWebACL.StatementProperty":
    """A WAF statement: the request's method is ``http_method`` (its path: :func:`path_match`)."""
    return wafv2.CfnWebACL.StatementProperty(byte_match_statement=wafv2.CfnWebACL.ByteMatchStatementProperty(
        field_to_match=wafv2.CfnWebACL.FieldToMatchProperty(method={}), positional_constraint="EXACTLY",
        search_string=http_method,
        text_transformations=[wafv2.CfnWebACL.TextTransformationProperty(priority=0, type="NONE")]))


# The rules of AWS's common rule set that only count, even when it blocks: our bodies may be 256 KB
# (a Khan card-set file for checkKhanCardSet, notes; MAX_BODY_BYTES), over SizeRestrictions_BODY's
# 8 KB; bots and scripts may send no User-Agent, which NoUserAgent_HEADER blocks.
COMMON_RULES_COUNTED = ("SizeRestrictions_BODY", "NoUserAgent_HEADER")


# A secret's complete ARN: its name and the "-" and 6 characters Secrets Manager adds to it.
COMPLETE_SECRET_ARN = r"arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:.+-[A-Za-z0-9]{6}"


def link_secret(scope: Construct, settings: "Settings") -> secretsmanager.ISecret:
    """The secret that signs email links and reply addresses. Kept with the table (without it no
    link or reply address already mailed can be checked again), and with ``link_secret_arn`` that
    kept one is used again instead of a new one (a stack deployed again after ``make destroy``)."""
    if settings.link_secret_arn:
        return secretsmanager.Secret.from_secret_complete_arn(scope, "LinkSecret", settings.link_secret_arn)
    return secretsmanager.Secret(
        scope, "LinkSecret", description="Signs email links and reply addresses",
        removal_policy=cdk.RemovalPolicy.RETAIN if settings.retain_table else cdk.RemovalPolicy.DESTROY,
        generate_secret_string=secretsmanager.SecretStringGenerator(exclude_punctuation=True, password_length=48))


def common_rule_set_override(mode: str) -> "wafv2.CfnWebACL.OverrideActionProperty":
    """What the web ACL does with AWS's common rule set: ``block`` enforces it (the group's own
    actions), ``count`` only counts (and logs) what it would block, to try it on live traffic first."""
    return wafv2.CfnWebACL.OverrideActionProperty(**({"none": {}} if mode == "block" else {"count": {}}))


def path_match(path: str) -> "wafv2.CfnWebACL.StatementProperty":
    """A WAF statement: the request's path ends with ``path`` (/api/v1/players on execute-api,
    /v1/players on a custom domain), after decoding (%2F) and normalizing (//, /./, /../), with or
    without a trailing slash: what reaches the same resource cannot slip past the rule."""
    return wafv2.CfnWebACL.StatementProperty(regex_match_statement=wafv2.CfnWebACL.RegexMatchStatementProperty(
        field_to_match=wafv2.CfnWebACL.FieldToMatchProperty(uri_path={}),
        regex_string=re.escape(path) + "/?$",
        text_transformations=[wafv2.CfnWebACL.TextTransformationProperty(priority=0, type="URL_DECODE"),
                              wafv2.CfnWebACL.TextTransformationProperty(priority=1, type="NORMALIZE_PATH")]))


class PrecompiledChalice(Chalice):
    """Chalice's construct, with the package precompiled before it becomes the functions' code
    (infra/package.py says why: a cold start then loads bytecode instead of compiling)."""

    def _package_app(self) -> None:
        # Chalice builds the package through a cache in the project's .chalice/deployments: two
        # syntheses of one checkout at once (the infra tests on two workers) would write the same
        # file, so each waits for the other.
        lock = Path(__file__).resolve().parent.parent / ".chalice" / "package.lock"
        lock.parent.mkdir(exist_ok=True)
        with lock.open("w") as held:
            fcntl.flock(held, fcntl.LOCK_EX)
            super()._package_app()
            precompile(Path(self._sam_package_dir) / "deployment.zip")


class SettingsError(ValueError):
    """The context describes a stack that must not be deployed (infra/app.py prints it and stops)."""


@dataclass(frozen=True)
class Settings:
    """The stage's settings, from CDK context."""

    name: str
    table_name: str
    mail_domain: str
    mail_from: str
    public_url: str
    allowed_origins: str
    alarm_email: str
    log_retention_days: int
    retain_table: bool
    lambda_memory_mb: int
    long_poll_concurrency: int
    long_poll_memory_mb: int
    # Launch settings (docs/deploy.md, "Configuration" and "Limits on abuse").
    production: bool
    table_deletion_protection: bool
    api_rate_per_second: int
    api_burst: int
    signup_rate_per_second: int
    signup_burst: int
    invite_rate_per_second: int
    invite_burst: int
    waf_requests_per_5_min: int
    waf_signup_per_5_min: int
    waf_games_per_5_min: int
    api_concurrency: int
    account_concurrency: int
    invitations_per_day: int
    api_latency_p99_ms: int
    iterator_age_alarm_minutes: int
    manage_api_gateway_account: bool
    ses_bounce_rate_alarm: float
    ses_complaint_rate_alarm: float
    async_retry_attempts: int
    schedule_event_max_age_seconds: int
    waf_common_rule_set: str
    waf_blocked_alarm: int
    link_secret_arn: str

    @classmethod
    def from_context(cls, scope: Construct) -> "Settings":
        def get(key: str, default=None):
            value = scope.node.try_get_context(key)
            return default if value in (None, "") else value

        def flag(key: str, default: bool) -> bool:
            return str(get(key, default)).lower() not in ("false", "0", "no")

        name = get("name", "battleline")
        domain = get("mail_domain", "")
        return cls(
            name=name,
            table_name=get("table_name", name),
            mail_domain=domain,
            mail_from=get("mail_from", f"Battle Line <play@{domain}>" if domain else ""),
            public_url=get("public_url", ""),
            allowed_origins=get("allowed_origins", ""),
            alarm_email=get("alarm_email", ""),
            log_retention_days=int(get("log_retention_days", 30)),
            retain_table=str(get("retain_table", "true")).lower() != "false",
            lambda_memory_mb=int(get("lambda_memory_mb", 512)),
            long_poll_concurrency=int(get("long_poll_concurrency", 50)),
            long_poll_memory_mb=int(get("long_poll_memory_mb", 256)),
            production=flag("production", True),
            table_deletion_protection=flag("table_deletion_protection", True),
            api_rate_per_second=int(get("api_rate_per_second", 100)),
            api_burst=int(get("api_burst", 200)),
            signup_rate_per_second=int(get("signup_rate_per_second", 1)),
            signup_burst=int(get("signup_burst", 5)),
            invite_rate_per_second=int(get("invite_rate_per_second", 5)),
            invite_burst=int(get("invite_burst", 10)),
            waf_requests_per_5_min=int(get("waf_requests_per_5_min", 1500)),
            waf_signup_per_5_min=int(get("waf_signup_per_5_min", 10)),
            waf_games_per_5_min=int(get("waf_games_per_5_min", 60)),
            api_concurrency=int(get("api_concurrency", 200)),
            account_concurrency=int(get("account_concurrency", 1000)),
            invitations_per_day=int(get("invitations_per_day", 20)),
            api_latency_p99_ms=int(get("api_latency_p99_ms", 3000)),
            iterator_age_alarm_minutes=int(get("iterator_age_alarm_minutes", 60)),
            manage_api_gateway_account=flag("manage_api_gateway_account", True),
            ses_bounce_rate_alarm=float(get("ses_bounce_rate_alarm", 0.02)),
            ses_complaint_rate_alarm=float(get("ses_complaint_rate_alarm", 0.0005)),
            async_retry_attempts=int(get("async_retry_attempts", 2)),
            schedule_event_max_age_seconds=int(get("schedule_event_max_age_seconds", 120)),
            waf_common_rule_set=str(get("waf_common_rule_set", "block")).lower(),
            waf_blocked_alarm=int(get("waf_blocked_alarm", 100)),
            link_secret_arn=get("link_secret_arn", ""),
        ).checked()

    def checked(self) -> "Settings":
        """These settings, refused with a clear message when AWS would refuse them at deploy."""
        if not 0 <= self.async_retry_attempts <= 2:  # what Lambda takes for asynchronous invocations
            raise ValueError(f"async_retry_attempts must be 0, 1 or 2, not {self.async_retry_attempts}")
        if self.link_secret_arn and not re.fullmatch(COMPLETE_SECRET_ARN, self.link_secret_arn):
            raise ValueError(f"link_secret_arn must be a secret's complete ARN (with the 6 characters Secrets Manager "
                             f"adds to its name: aws secretsmanager describe-secret --query ARN), not "
                             f"{self.link_secret_arn!r}")
        if self.waf_common_rule_set not in ("block", "count"):
            raise ValueError(f'waf_common_rule_set must be "block" or "count", not {self.waf_common_rule_set!r}')
        if not 60 <= self.schedule_event_max_age_seconds <= 21600:  # Lambda's bounds for MaximumEventAgeInSeconds
            raise ValueError(f"schedule_event_max_age_seconds must be 60 to 21600, not "
                             f"{self.schedule_event_max_age_seconds}")
        return self

    def check(self) -> None:
        """Refuse a stage that would launch without what a public launch needs."""
        if self.production and not self.alarm_email:
            raise SettingsError(
                "A production stack needs alarm_email: without it no alarm reaches anyone. Set it "
                '(make deploy CONTEXT="alarm_email=ops@example.com ...", or in infra/cdk.json), or opt out '
                "for a dev or test stack with production=false (which also drops termination protection).")
        if self.production and not re.fullmatch(r"https://[^\s/?#]+(/[^\s?#]*)?", self.public_url or ""):
            raise SettingsError(
                f"A production stack needs public_url, the https URL players' browsers reach the API at (its "
                f"EndpointURL, or your custom domain), not {self.public_url or 'none'!r}: every link in an email "
                f"and every List-Unsubscribe header is made from it. Set it "
                '(make deploy CONTEXT="public_url=https://games.example.com ...", or in infra/cdk.json); a first '
                "deploy that does not know its API's URL yet deploys with production=false, then again with it.")
        reserved = self.api_concurrency + self.long_poll_concurrency + len(SCHEDULES)
        if self.account_concurrency - reserved < MIN_UNRESERVED:
            raise SettingsError(
                f"api_concurrency ({self.api_concurrency}) + long_poll_concurrency ({self.long_poll_concurrency}) "
                f"+ the schedules ({len(SCHEDULES)}) reserve {reserved} of account_concurrency "
                f"({self.account_concurrency}); Lambda keeps {MIN_UNRESERVED} unreserved, so lower them or raise "
                f"the account's quota (Service Quotas) and account_concurrency.")


class BattlelineStack(cdk.Stack):
    def __init__(self, scope: Construct, construct_id: str, **kwargs) -> None:
        settings = Settings.from_context(scope)
        settings.check()
        # A production stack cannot be deleted by mistake (turn it off in the console to delete it).
        kwargs.setdefault("termination_protection", settings.production)
        super().__init__(scope, construct_id, **kwargs)
        self.settings = settings

        self.table = self._table(settings)
        self.link_secret = link_secret(self, settings)
        self.failures = sqs.Queue(self, "OutboxFailures", retention_period=cdk.Duration.days(14),
                                  encryption=sqs.QueueEncryption.SQS_MANAGED, enforce_ssl=True)
        self.roles = {logical: self._role(logical, settings) for logical in FUNCTIONS}
        self.alarm_topic = self._alarm_topic(settings)  # before anything that has an alarm
        self.app = self._chalice(settings)
        self._outbox_consumer()
        self._inbound_mail(settings)
        self._gateway_problems()
        self._api_stage(settings)
        self._firewall(settings)
        self._alarms(settings)
        self._mail_events(settings)
        self._async_failures(settings)
        cdk.CfnOutput(self, "TableName", value=self.table.table_name)
        cdk.CfnOutput(self, "OutboxFailureQueue", value=self.failures.queue_url)

    # ------------------------------------------------------------------ data

    def _table(self, settings: Settings) -> dynamodb.Table:
        """The table of chalicelib/store/schema.py (the one make serve and the tests create)."""
        definition = table_definition(settings.table_name)
        types = {a["AttributeName"]: a["AttributeType"] for a in definition["AttributeDefinitions"]}

        def attribute(name: str) -> dynamodb.Attribute:
            return dynamodb.Attribute(name=name, type={"S": dynamodb.AttributeType.STRING,
                                                       "N": dynamodb.AttributeType.NUMBER}[types[name]])

        keys = {k["KeyType"]: k["AttributeName"] for k in definition["KeySchema"]}
        table = dynamodb.Table(
            self, "Table", table_name=settings.table_name, partition_key=attribute(keys["HASH"]),
            sort_key=attribute(keys["RANGE"]), billing_mode=dynamodb.BillingMode.PAY_PER_REQUEST,
            stream=dynamodb.StreamViewType.NEW_IMAGE, time_to_live_attribute=TTL_ATTRIBUTE,
            point_in_time_recovery_specification=dynamodb.PointInTimeRecoverySpecification(
                point_in_time_recovery_enabled=True),
            deletion_protection=settings.table_deletion_protection,
            removal_policy=cdk.RemovalPolicy.RETAIN if settings.retain_table else cdk.RemovalPolicy.DESTROY)
        for index in definition["GlobalSecondaryIndexes"]:
            index_keys = {k["KeyType"]: k["AttributeName"] for k in index["KeySchema"]}
            table.add_global_secondary_index(
                index_name=index["IndexName"], partition_key=attribute(index_keys["HASH"]),
                sort_key=attribute(index_keys["RANGE"]) if "RANGE" in index_keys else None,
                projection_type=dynamodb.ProjectionType(index["Projection"]["ProjectionType"]),
                non_key_attributes=index["Projection"].get("NonKeyAttributes"))
        return table

    # ------------------------------------------------------------------ functions

    def function_name(self, logical: str) -> str:
        return f"{self.settings.name}-{FUNCTIONS[logical]}"

    def _role(self, logical: str, settings: Settings) -> iam.Role:
        """One role a function, with only what that function does."""
        role = iam.Role(self, f"{logical}Role", assumed_by=iam.ServicePrincipal("lambda.amazonaws.com"),
                        description=f"{self.function_name(logical)}: least privilege")
        log_group = self.format_arn(service="logs", resource="log-group",
                                    resource_name=f"/aws/lambda/{self.function_name(logical)}:*",
                                    arn_format=cdk.ArnFormat.COLON_RESOURCE_NAME)
        role.add_to_policy(iam.PolicyStatement(actions=["logs:CreateLogStream", "logs:PutLogEvents"],
                                               resources=[log_group]))
        # The table and each of its indexes by name (the schema's), not ``index/*``: no wildcard.
        indexes = [f"{self.table.table_arn}/index/{index['IndexName']}"
                   for index in table_definition(settings.table_name)["GlobalSecondaryIndexes"]]
        role.add_to_policy(iam.PolicyStatement(actions=TABLE_ACTIONS, resources=[self.table.table_arn, *indexes]))
        if logical == "OutboxConsumer":
            role.add_to_policy(iam.PolicyStatement(actions=STREAM_ACTIONS,
                                                   resources=[self.table.table_stream_arn]))
            role.add_to_policy(iam.PolicyStatement(actions=["sqs:SendMessage"], resources=[self.failures.queue_arn]))
        if logical in SENDS_EMAIL and settings.mail_domain:
            identity = self.format_arn(service="ses", resource="identity", resource_name=settings.mail_domain)
            role.add_to_policy(iam.PolicyStatement(actions=["ses:SendEmail", "ses:SendRawEmail"],
                                                   resources=[identity]))
        if logical in SIGNS_LINKS:
            self.link_secret.grant_read(role)
        # X-Ray (active tracing): these two actions have no resource-level permissions, so "*" is
        # the only resource they take.
        role.add_to_policy(iam.PolicyStatement(actions=["xray:PutTraceSegments", "xray:PutTelemetryRecords"],
                                               resources=["*"]))
        return role  # metrics need no permission: they travel in the logs (embedded metric format)

    def _chalice(self, settings: Settings) -> Chalice:
        environment = {
            "TABLE_NAME": self.table.table_name,
            "LINK_SECRET_ARN": self.link_secret.secret_arn,
            "MAIL_TRANSPORT": "ses" if settings.mail_domain else "none",
            "MAIL_DOMAIN": settings.mail_domain,
            "MAIL_FROM": settings.mail_from,
            "PUBLIC_URL": settings.public_url,
            "ALLOWED_ORIGINS": settings.allowed_origins,
            "POWERTOOLS_SERVICE_NAME": settings.name,
            "POWERTOOLS_METRICS_NAMESPACE": "Battleline",
            "INVITATIONS_PER_DAY": str(settings.invitations_per_day),
        }
        app = PrecompiledChalice(self, "App", source_dir=str(ROOT), stage_config={
            "environment_variables": {k: v for k, v in environment.items() if v != ""},
            "lambda_memory_size": settings.lambda_memory_mb,
            "lambda_timeout": 60,
            # Regional, not edge-optimized: the WAF's per-IP rate rules (_firewall) and the access logs
            # then see the client's address; behind the edge's CloudFront they would see CloudFront's.
            "api_gateway_endpoint_type": "REGIONAL",
            # Chalice makes no role: each function gets its own, set below.
            "manage_iam_role": False, "iam_role_arn": "arn:aws:iam::000000000000:role/replaced-per-function",
        })
        for logical, role in self.roles.items():
            function = app.get_resource(logical)
            function.add_property_override("Role", role.role_arn)
            function.add_property_override("FunctionName", self.function_name(logical))
            # The log group is made here, with its retention, before the function can log into it.
            # (Chalice's own log_retention_in_days names the API handler's group wrongly.)
            log_group = logs.CfnLogGroup(self, f"{logical}Logs",
                                         log_group_name=f"/aws/lambda/{self.function_name(logical)}",
                                         retention_in_days=settings.log_retention_days)
            function.add_resource_dependency(log_group)
            function.add_property_override("Tracing", "Active")
            # The role is passed as an ARN, so nothing waits for its policy (a resource of its own):
            # Lambda checks the role when the stream mapping and the on-failure destinations are
            # made, which hang off the function. Every later add_to_policy lands in this same policy.
            function.add_resource_dependency(role.node.find_child("DefaultPolicy").node.default_child)
        for logical in SCHEDULES:  # one run at a time: a run still going makes the next tick wait
            app.get_resource(logical).add_property_override("ReservedConcurrentExecutions", 1)
            app.get_resource(logical).add_property_override("Timeout", SCHEDULE_TIMEOUT_SECONDS)
        api_handler = app.get_resource("APIHandler")
        api_handler.add_property_override("Timeout", 28)  # under API Gateway's 29 s, so the function's end is logged
        # Its own pool: a flood of requests cannot take the concurrency the outbox, the sweeper and
        # inbound mail need (and it bounds what a flood costs).
        api_handler.add_property_override("ReservedConcurrentExecutions", settings.api_concurrency)
        app.get_resource("RestAPI").add_property_override("Name", f"{settings.name}-api")
        # Any OpenApiVersion stops SAM from also deploying the API to a stage called "Stage" (for
        # backwards compatibility), which would serve every route without the WAF, the throttles,
        # the access logs or tracing of the "api" stage. The body stays swagger 2.0.
        app.get_resource("RestAPI").add_property_override("OpenApiVersion", "2.0")
        self._long_poll(app, settings)
        return app

    def _long_poll(self, app: Chalice, settings: Settings) -> None:
        """listEvents and listGames run in LongPoll (the same app), with reserved concurrency: at most
        ``long_poll_concurrency`` requests wait at once, however many bots poll, and the rest of the
        account's concurrency stays for moves. Lambda refuses to run it beyond that, which API Gateway
        reports as INTEGRATION_FAILURE: 429 with Retry-After (GATEWAY_PROBLEMS)."""
        function = app.get_resource("LongPoll")
        function.add_property_override("Timeout", 28)  # a wait is at most 20 s (LONG_POLL_MAX_SECONDS); < 29 s
        function.add_property_override("MemorySize", settings.long_poll_memory_mb)  # it mostly sleeps
        function.add_property_override("ReservedConcurrentExecutions", settings.long_poll_concurrency)
        rest_api = app.get_resource("RestAPI")
        uri = cdk.Fn.sub("arn:${AWS::Partition}:apigateway:${AWS::Region}:lambda:path/2015-03-31/functions/"
                         "${LongPoll.Arn}/invocations")
        for number, path in enumerate(LONG_POLL_ROUTES):
            rest_api.add_property_override(f"DefinitionBody.paths.{path}.get.x-amazon-apigateway-integration.uri", uri)
            source = "/*/GET" + "".join("/*" if part.startswith("{") else f"/{part}" for part in path.strip("/").split("/"))
            lambda_.CfnPermission(
                self, f"LongPollInvokePermission{number}", action="lambda:InvokeFunction",
                function_name=function.ref, principal="apigateway.amazonaws.com",
                source_arn=cdk.Fn.sub("arn:${AWS::Partition}:execute-api:${AWS::Region}:${AWS::AccountId}:"
                                      "${RestAPIId}" + source, {"RestAPIId": rest_api.ref}))

    def _outbox_consumer(self) -> None:
        """The stream feeds the outbox consumer: failed records alone are retried (partial batch
        responses), a failing batch is split, and what still fails after the retries goes to a queue."""
        lambda_.CfnEventSourceMapping(
            self, "OutboxStream", function_name=self.function_name("OutboxConsumer"),
            event_source_arn=self.table.table_stream_arn, starting_position="TRIM_HORIZON", batch_size=25,
            maximum_batching_window_in_seconds=1, function_response_types=["ReportBatchItemFailures"],
            bisect_batch_on_function_error=True, maximum_retry_attempts=5, maximum_record_age_in_seconds=86400,
            destination_config=lambda_.CfnEventSourceMapping.DestinationConfigProperty(
                on_failure=lambda_.CfnEventSourceMapping.OnFailureProperty(destination=self.failures.queue_arn)),
            filter_criteria=lambda_.CfnEventSourceMapping.FilterCriteriaProperty(
                filters=[lambda_.CfnEventSourceMapping.FilterProperty(pattern=json.dumps(f)) for f in OUTBOX_FILTERS]),
        ).add_resource_dependency(self.app.get_resource("OutboxConsumer"))

    def _inbound_mail(self, settings: Settings) -> None:
        """SES receives replies for the mail domain, publishes them to SNS, which invokes inbound-mail."""
        if not settings.mail_domain:
            return
        topic = sns.Topic(self, "InboundMailTopic", display_name="Replies to game emails",
                          enforce_ssl=True)
        # The rule set and the rule are named, so the rule's ARN is known before either exists: the
        # topic's policy lets SES publish for this rule of this account only.
        rule_set_name, rule_name = f"{settings.name}-inbound", f"{settings.name}-replies"
        topic.add_to_resource_policy(iam.PolicyStatement(
            sid="SesPublishesReplies", principals=[iam.ServicePrincipal("ses.amazonaws.com")],
            actions=["sns:Publish"], resources=[topic.topic_arn],
            conditions={"StringEquals": {"aws:SourceAccount": self.account,
                                         "aws:SourceArn": inbound_rule_arn(self, rule_set_name, rule_name)}}))
        rules = ses.ReceiptRuleSet(self, "InboundMailRules", receipt_rule_set_name=rule_set_name,
                                   rules=[ses.ReceiptRuleOptions(
            receipt_rule_name=rule_name,
            recipients=[settings.mail_domain], scan_enabled=True, tls_policy=ses.TlsPolicy.REQUIRE,
            actions=[ses_actions.Sns(topic=topic, encoding=ses_actions.EmailEncoding.BASE64)])])
        rules.node.add_dependency(topic.node.find_child("Policy"))  # SES may publish before the rule exists
        # A SAM event on the function: the subscription and the permission to invoke it.
        self.app.get_resource("InboundMail").add_property_override(
            "Events.Replies", {"Type": "SNS", "Properties": {"Topic": topic.topic_arn}})

    def _gateway_problems(self) -> None:
        """API Gateway's own refusals (an unknown route, a body too large, throttling, a timeout) as
        problem+json with a code of chalicelib/kernel/errors.py, as the app answers. They live in the API's
        OpenAPI body, so the API is whole in one definition (cfn-lint W3660)."""
        responses = {}
        for kind, (code, detail, headers) in GATEWAY_PROBLEMS.items():
            body, status = gateway_problem(code, detail)
            responses[kind] = {
                "statusCode": str(status),
                "responseParameters": {f"gatewayresponse.header.{name}": f"'{value}'"
                                       for name, value in {"Content-Type": PROBLEM_JSON, **headers}.items()},
                "responseTemplates": {"application/json": body}}
        self.app.get_resource("RestAPI").add_property_override(
            "DefinitionBody.x-amazon-apigateway-gateway-responses", responses)

    # ------------------------------------------------------------------ the API's stage and firewall

    def _api_stage(self, settings: Settings) -> None:
        """The stage: throttling (all methods, tighter for sign-up and the operations that mail an
        address), JSON access logs, X-Ray tracing."""
        def method(path: str, http_method: str, rate: int, burst: int, **extra) -> dict:
            # "/~1v1~1players": the path with its slashes escaped, after a leading "/".
            return {"ResourcePath": path if path == "/*" else "/" + path.replace("/", "~1"), "HttpMethod": http_method,
                    "ThrottlingRateLimit": rate, "ThrottlingBurstLimit": burst, **extra}

        general = (settings.api_rate_per_second, settings.api_burst)
        method_settings = [method("/*", "*", *general),
                           method(*SIGNUP_ROUTE, settings.signup_rate_per_second, settings.signup_burst),
                           *(method(*route, settings.invite_rate_per_second, settings.invite_burst)
                             for route in INVITE_ROUTES),
                           # Per-method metrics for moves alone (the stage's Latency holds the long-polls' waits).
                           method(*MOVE_ROUTE, *general, MetricsEnabled=True)]
        access_logs = logs.CfnLogGroup(self, "ApiAccessLogs", log_group_name=f"/aws/apigateway/{settings.name}-api",
                                       retention_in_days=settings.log_retention_days)
        rest_api = self.app.get_resource("RestAPI")
        rest_api.add_property_override("MethodSettings", method_settings)
        rest_api.add_property_override("TracingEnabled", True)
        rest_api.add_property_override("AccessLogSetting", {"DestinationArn": access_logs.attr_arn,
                                                           "Format": ACCESS_LOG_FORMAT})
        if settings.manage_api_gateway_account:
            rest_api.add_resource_dependency(self._api_gateway_account())

    def _api_gateway_account(self) -> cdk.CfnResource:
        """API Gateway writes access logs with the account's (and region's) CloudWatch role, one for
        every REST and WebSocket API there. So the role is AWS's own for it
        (AmazonAPIGatewayPushToCloudWatchLogs, which may write any API's logs, execution logs
        included): a role that could write only this stack's group would silence every other API.
        Both the role and the setting are kept when the stack is deleted (or the flag turned off),
        so the setting never names a deleted role."""
        role = iam.Role(self, "ApiGatewayLogsRole", assumed_by=iam.ServicePrincipal("apigateway.amazonaws.com"),
                        description="API Gateway: CloudWatch logs of the account's APIs (account-wide setting)",
                        managed_policies=[iam.ManagedPolicy.from_aws_managed_policy_name(
                            "service-role/AmazonAPIGatewayPushToCloudWatchLogs")])
        role.apply_removal_policy(cdk.RemovalPolicy.RETAIN)
        account = apigateway.CfnAccount(self, "ApiGatewayAccount", cloud_watch_role_arn=role.role_arn)
        account.apply_removal_policy(cdk.RemovalPolicy.RETAIN)
        return account

    def _firewall(self, settings: Settings) -> None:
        """A WAFv2 web ACL on the stage: per-IP rate limits (every request; tighter for sign-up and
        game creation, which may mail addresses) answered 429 problem+json, and AWS's common rule set."""
        def visibility(name: str) -> wafv2.CfnWebACL.VisibilityConfigProperty:
            # Metrics, no sampled requests: WAF keeps a sample with every header (the Authorization key)
            # and the path (link tokens), visible in the console, and the logging configuration's
            # redaction does not apply to samples. The logs (redacted) show what was blocked.
            return wafv2.CfnWebACL.VisibilityConfigProperty(
                cloud_watch_metrics_enabled=True, metric_name=f"{settings.name}-{name}", sampled_requests_enabled=False)

        def rate_rule(name: str, priority: int, limit: int, route: tuple[str, str] | None) -> wafv2.CfnWebACL.RuleProperty:
            scope_down = None
            if route:
                path, http_method = route
                scope_down = wafv2.CfnWebACL.StatementProperty(and_statement=wafv2.CfnWebACL.AndStatementProperty(
                    statements=[path_match(path), method_match(http_method)]))
            return wafv2.CfnWebACL.RuleProperty(
                name=name, priority=priority, visibility_config=visibility(name),
                statement=wafv2.CfnWebACL.StatementProperty(rate_based_statement=wafv2.CfnWebACL.RateBasedStatementProperty(
                    aggregate_key_type="IP", limit=limit, evaluation_window_sec=300, scope_down_statement=scope_down)),
                action=wafv2.CfnWebACL.RuleActionProperty(block=wafv2.CfnWebACL.BlockActionProperty(
                    custom_response=wafv2.CfnWebACL.CustomResponseProperty(
                        response_code=429, custom_response_body_key="rate_limited",
                        response_headers=[wafv2.CfnWebACL.CustomHTTPHeaderProperty(name="Retry-After",
                                                                                    value="60")]))))

        body, _ = gateway_problem("rate_limited", "Too many requests from this address; retry in a few minutes")
        acl = wafv2.CfnWebACL(
            self, "Firewall", scope="REGIONAL", name=f"{settings.name}-api",
            default_action=wafv2.CfnWebACL.DefaultActionProperty(allow={}),
            # Its metric name is its name: the WebACL dimension of its metrics (the blocked-requests alarm).
            visibility_config=visibility("api"),
            custom_response_bodies={"rate_limited": wafv2.CfnWebACL.CustomResponseBodyProperty(
                content_type="APPLICATION_JSON", content=body)},
            rules=[
                rate_rule("signup-per-ip", 0, settings.waf_signup_per_5_min, SIGNUP_ROUTE),
                rate_rule("games-per-ip", 1, settings.waf_games_per_5_min, INVITE_ROUTES[0]),
                rate_rule("requests-per-ip", 2, settings.waf_requests_per_5_min, None),
                wafv2.CfnWebACL.RuleProperty(
                    name="aws-common", priority=3, visibility_config=visibility("aws-common"),
                    override_action=common_rule_set_override(settings.waf_common_rule_set),
                    statement=wafv2.CfnWebACL.StatementProperty(
                        managed_rule_group_statement=wafv2.CfnWebACL.ManagedRuleGroupStatementProperty(
                            vendor_name="AWS", name="AWSManagedRulesCommonRuleSet",
                            rule_action_overrides=[wafv2.CfnWebACL.RuleActionOverrideProperty(
                                name=rule, action_to_use=wafv2.CfnWebACL.RuleActionProperty(count={}))
                                for rule in COMMON_RULES_COUNTED]))),
            ])
        # ${RestAPI.Stage}: SAM's reference to the stage it makes, so the association waits for it.
        stage_arn = cdk.Fn.sub("arn:${AWS::Partition}:apigateway:${AWS::Region}::/restapis/${RestAPI}/stages/"
                               "${RestAPI.Stage}")
        wafv2.CfnWebACLAssociation(self, "FirewallAssociation", resource_arn=stage_arn,
                                   web_acl_arn=acl.attr_arn)
        self.firewall = acl
        # Blocked requests of every rule (the rate rules' and the common rule set's): a flood, or the
        # common rule set refusing honest requests (its logs say which rule, docs/deploy.md).
        self._alarm("FirewallBlockedAlarm", cloudwatch.Metric(
            namespace="AWS/WAFV2", metric_name="BlockedRequests", statistic="Sum", period=FIVE_MINUTES,
            dimensions_map={"WebACL": acl.name, "Region": self.region, "Rule": "ALL"}),
            settings.waf_blocked_alarm, f"The firewall blocked {settings.waf_blocked_alarm} requests or more in 5 "
                                        f"minutes: a flood, or a rule refusing honest requests "
                                        f"(aws-waf-logs-{settings.name}-api)")
        # Blocked and counted requests only (a log line a request would cost more than the API),
        # without the key, the path or the query (signed tokens: /v1/links/{token}, ?token=).
        waf_logs = logs.CfnLogGroup(self, "FirewallLogs", log_group_name=f"aws-waf-logs-{settings.name}-api",
                                    retention_in_days=settings.log_retention_days)
        wafv2.CfnLoggingConfiguration(
            self, "FirewallLogging", resource_arn=acl.attr_arn, log_destination_configs=[waf_logs.attr_arn],
            redacted_fields=[wafv2.CfnLoggingConfiguration.FieldToMatchProperty(
                single_header={"Name": "authorization"}),
                wafv2.CfnLoggingConfiguration.FieldToMatchProperty(query_string={}),
                wafv2.CfnLoggingConfiguration.FieldToMatchProperty(uri_path={})],
            logging_filter={"DefaultBehavior": "DROP", "Filters": [{
                "Behavior": "KEEP", "Requirement": "MEETS_ANY",
                "Conditions": [{"ActionCondition": {"Action": "BLOCK"}}, {"ActionCondition": {"Action": "COUNT"}}]}]})

    # ------------------------------------------------------------------ alarms

    def _alarm_topic(self, settings: Settings) -> sns.Topic:
        """The topic every alarm notifies (``alarm_email`` subscribes)."""
        topic = sns.Topic(self, "Alarms", display_name=f"{settings.name} alarms", enforce_ssl=True)
        # enforce_ssl's policy only denies; CloudWatch needs an allow to publish, for this account's alarms.
        topic.add_to_resource_policy(iam.PolicyStatement(
            sid="CloudWatchPublishesAlarms", principals=[iam.ServicePrincipal("cloudwatch.amazonaws.com")],
            actions=["sns:Publish"], resources=[topic.topic_arn],
            conditions={"StringEquals": {"aws:SourceAccount": self.account},
                        "ArnLike": {"aws:SourceArn": self.format_arn(
                            service="cloudwatch", resource="alarm", resource_name="*",
                            arn_format=cdk.ArnFormat.COLON_RESOURCE_NAME)}}))
        if settings.alarm_email:
            topic.add_subscription(subscriptions.EmailSubscription(settings.alarm_email))
        return topic

    def _alarm(self, logical_id: str, metric: cloudwatch.IMetric, threshold: float, description: str,
               periods: int = 1, above: bool = False) -> cloudwatch.Alarm:
        """An alarm that notifies the alarms topic: when ``metric`` reaches ``threshold`` (``above``:
        goes over it) in ``periods`` periods in a row; no data is no alarm."""
        alarm = cloudwatch.Alarm(
            self, logical_id, metric=metric, threshold=threshold, evaluation_periods=periods,
            datapoints_to_alarm=periods if periods > 1 else None,
            comparison_operator=cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD if above
            else cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
            alarm_description=description, treat_missing_data=cloudwatch.TreatMissingData.NOT_BREACHING)
        alarm.add_alarm_action(cloudwatch_actions.SnsAction(self.alarm_topic))
        return alarm

    def _queue_alarm(self, logical_id: str, queue: sqs.Queue, description: str) -> cloudwatch.Alarm:
        """An alarm as soon as a failure queue holds a message."""
        return self._alarm(logical_id, queue.metric_approximate_number_of_messages_visible(
            period=FIVE_MINUTES, statistic="Maximum"), 0, description, above=True)

    def _alarms(self, settings: Settings) -> None:
        """The outbox's failure queue, the API's 5xx and move latency, the stream's lag, DynamoDB's
        throttles, and every function's errors and throttles (the firewall's, SES's and the failure
        queues' alarms are made with them)."""
        api = {"ApiName": f"{settings.name}-api", "Stage": API_STAGE}
        move_path, move_method = MOVE_ROUTE
        self._queue_alarm("OutboxFailuresAlarm", self.failures,
                          "Outbox records failed after every retry: notifications or settlements are "
                          "waiting in the failure queue")
        self._alarm("Api5xxAlarm", cloudwatch.Metric(namespace="AWS/ApiGateway", metric_name="5XXError",
                                                     dimensions_map=api, statistic="Sum", period=FIVE_MINUTES),
                    1, "The API answered 5xx")
        # Moves' latency (per-method metrics, _api_stage): the stage's own holds the long-polls' waits.
        self._alarm("MoveLatencyAlarm", cloudwatch.Metric(
            namespace="AWS/ApiGateway", metric_name="Latency", statistic="p99", period=FIVE_MINUTES,
            dimensions_map={**api, "Resource": move_path, "Method": move_method}),
            settings.api_latency_p99_ms, f"p99 of postAction over {settings.api_latency_p99_ms} ms for 15 minutes",
            periods=3)
        self._alarm("OutboxIteratorAgeAlarm", cloudwatch.Metric(
            namespace="AWS/Lambda", metric_name="IteratorAge", statistic="Maximum", period=FIVE_MINUTES,
            dimensions_map={"FunctionName": self.function_name("OutboxConsumer")}),
            settings.iterator_age_alarm_minutes * 60_000,
            f"The outbox consumer is {settings.iterator_age_alarm_minutes} minutes behind the stream "
            f"(records are lost after 24 h)")
        # The table and each index: an index's throttle events are published under TableName and
        # GlobalSecondaryIndexName only, and a throttled index throttles the table's writes too.
        indexes = [i["IndexName"] for i in table_definition(settings.table_name)["GlobalSecondaryIndexes"]]
        for metric_name in ("ReadThrottleEvents", "WriteThrottleEvents"):
            def throttles(index: str | None, metric_name: str = metric_name) -> cloudwatch.Metric:
                dimensions = {"TableName": self.table.table_name}
                if index:
                    dimensions["GlobalSecondaryIndexName"] = index
                return cloudwatch.Metric(namespace="AWS/DynamoDB", metric_name=metric_name, statistic="Sum",
                                         period=FIVE_MINUTES, dimensions_map=dimensions)
            every = {"table": throttles(None), **{f"index{n}": throttles(i) for n, i in enumerate(indexes)}}
            self._alarm(f"Table{metric_name}Alarm", cloudwatch.MathExpression(
                expression="SUM(METRICS())", using_metrics=every, period=FIVE_MINUTES,
                label=f"{metric_name}, the table and its indexes"), 1,
                f"DynamoDB throttled the table or an index ({metric_name}): on demand, a burst beyond twice the "
                f"last peak, or a hot index key")
        for logical in FUNCTIONS:  # every function, so a function added to FUNCTIONS is watched too
            # Throttles of the long-polls (a full pool answers 429: designed) and of the schedules (a
            # retried tick meeting the next one) alarm only when they go on for 15 minutes.
            sustained = 3 if logical in ("LongPoll", *SCHEDULES) else 1
            for metric_name, what, periods in (
                    ("Errors", "failed", 1),
                    ("Throttles", "was throttled (its concurrency is used up)"
                                  + (" for 15 minutes" if sustained > 1 else ""), sustained)):
                self._alarm(f"{logical}{metric_name}Alarm", cloudwatch.Metric(
                    namespace="AWS/Lambda", metric_name=metric_name, statistic="Sum", period=FIVE_MINUTES,
                    dimensions_map={"FunctionName": self.function_name(logical)}), 1,
                    f"{self.function_name(logical)} {what}", periods=periods)

    # ------------------------------------------------------------------ mail that does not arrive

    def _mail_events(self, settings: Settings) -> None:
        """Every email is sent with a configuration set (reputation metrics on) whose bounce,
        complaint, reject and delivery-delay events SES publishes to a topic that invokes
        mail-events: a permanent bounce or a complaint stops mail to that address
        (chalicelib/services/mailevents.py). Alarms on the account's bounce and complaint rates,
        which SES itself watches (at 5% and 0.1% it reviews the account, at 10% and 0.5% it may pause
        sending): the defaults (2%, AWS's recommended ceiling, and 0.05%) warn before the review."""
        if not settings.mail_domain:
            return
        # The event destination gives SES its Allow on the topic itself (scoped by aws:SourceAccount
        # and aws:SourceArn, the configuration set); enforce_ssl adds the Deny without TLS.
        topic = sns.Topic(self, "MailEventsTopic", display_name="SES bounces and complaints", enforce_ssl=True)
        configuration_set = ses.ConfigurationSet(self, "MailConfigurationSet",
                                                 configuration_set_name=f"{settings.name}-mail",
                                                 reputation_metrics=True, sending_enabled=True)
        configuration_set.add_event_destination(
            "MailEventsDestination", destination=ses.EventDestination.sns_topic(topic),
            events=[ses.EmailSendingEvent.BOUNCE, ses.EmailSendingEvent.COMPLAINT, ses.EmailSendingEvent.REJECT,
                    ses.EmailSendingEvent.DELIVERY_DELAY])
        arn = self.format_arn(service="ses", resource="configuration-set",
                              resource_name=configuration_set.configuration_set_name)
        for logical in SENDS_EMAIL:
            self.app.get_resource(logical).add_property_override(
                "Environment.Variables.MAIL_CONFIGURATION_SET", configuration_set.configuration_set_name)
            # Sending with a configuration set is authorized on it as well as on the identity.
            self.roles[logical].add_to_policy(iam.PolicyStatement(actions=["ses:SendEmail", "ses:SendRawEmail"],
                                                                  resources=[arn]))
        self.app.get_resource("MailEvents").add_property_override(
            "Events.Bounces", {"Type": "SNS", "Properties": {"Topic": topic.topic_arn}})
        for metric, threshold, what in (("Reputation.BounceRate", settings.ses_bounce_rate_alarm, "bounce"),
                                        ("Reputation.ComplaintRate", settings.ses_complaint_rate_alarm, "complaint")):
            self._alarm(f"Ses{what.title()}RateAlarm", cloudwatch.Metric(
                namespace="AWS/SES", metric_name=metric, statistic="Maximum", period=cdk.Duration.hours(1)),
                threshold, f"SES's {what} rate for the account reached {threshold:.2%}: find why before it "
                           f"reaches SES's review threshold, where SES reviews the account and may then "
                           f"pause its sending (docs/deploy.md, SES)")

    # ------------------------------------------------------------------ nothing silently dropped

    def _async_failures(self, settings: Settings) -> None:
        """Each function Lambda invokes asynchronously gets a queue of its own for the events that
        still fail after ``async_retry_attempts`` retries (Lambda's on-failure destination), which is
        also its SNS subscription's dead-letter queue: one queue a function says at once which part
        is failing, and what it holds can be replayed to that function alone. An alarm on each."""
        for logical in ASYNC_FUNCTIONS:
            queue = sqs.Queue(self, f"{logical}Failures", retention_period=cdk.Duration.days(14),
                              encryption=sqs.QueueEncryption.SQS_MANAGED, enforce_ssl=True)
            function = self.app.get_resource(logical)
            function.add_property_override("EventInvokeConfig", {
                "MaximumRetryAttempts": settings.async_retry_attempts,
                "DestinationConfig": {"OnFailure": {"Type": "SQS", "Destination": queue.queue_arn}}})
            if logical in SCHEDULES:
                # A throttled or failed tick is retried by Lambda for up to 6 hours unless it expires
                # sooner: a stale tick is dropped (to this queue, as Lambda does with expired events:
                # a sign runs are backing up), and the next tick does all that is due.
                function.add_property_override("EventInvokeConfig.MaximumEventAgeInSeconds",
                                               settings.schedule_event_max_age_seconds)
            self.roles[logical].add_to_policy(iam.PolicyStatement(actions=["sqs:SendMessage"],
                                                                  resources=[queue.queue_arn]))
            topic_id, event = SUBSCRIPTIONS.get(logical, (None, None))
            topic = self.node.try_find_child(topic_id) if topic_id else None
            if topic is not None:
                function.add_property_override(f"Events.{event}.Properties.RedrivePolicy",
                                               {"deadLetterTargetArn": queue.queue_arn})
                queue.add_to_resource_policy(iam.PolicyStatement(
                    actions=["sqs:SendMessage"], principals=[iam.ServicePrincipal("sns.amazonaws.com")],
                    resources=[queue.queue_arn], conditions={"ArnEquals": {"aws:SourceArn": topic.topic_arn}}))
            self._queue_alarm(f"{logical}FailuresAlarm", queue,
                              f"{self.function_name(logical)} failed an event after every retry: it waits in "
                              f"the queue {logical}Failures (docs/deploy.md)")
            cdk.CfnOutput(self, f"{logical}FailureQueue", value=queue.queue_url)
