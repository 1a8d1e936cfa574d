"""The whole deployment as one CDK stack: the table, the Chalice app (API and functions), the
outbox stream consumer, the schedules, inbound mail, per-function IAM, log retention, alarms.

Stage settings come from CDK context (``cdk.json``, or ``-c name=value``), never from code
edits; docs/deploy.md lists them all.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import aws_cdk as cdk
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
from chalice.cdk import Chalice
from constructs import Construct

from chalicelib.errors import ERRORS
from chalicelib.web import PROBLEM_JSON
from chalicelib.store import keys
from chalicelib.store.schema import TTL_ATTRIBUTE, table_definition
from infra.package import precompile

ROOT = Path(__file__).resolve().parent.parent
API_STAGE = "api"

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
SENDS_EMAIL = ("OutboxConsumer", "WebhookRetries", "InboundMail")
SIGNS_LINKS = ("APIHandler", "OutboxConsumer", "WebhookRetries", "InboundMail")
# The functions Lambda invokes asynchronously (schedules, SNS): what still fails after Lambda's own
# retries goes to a queue of the function's own (_async_failures), never silently dropped.
ASYNC_FUNCTIONS = ("InboundMail", "ClockSweeper", "WebhookRetries", "MailEvents")
# The SNS topics that invoke a function: their subscription's redrive policy sends what SNS could not
# deliver to the function (Lambda throttled, the function gone) to that function's failure queue.
SUBSCRIPTIONS = {"InboundMail": ("InboundMailTopic", "Replies"), "MailEvents": ("MailEventsTopic", "Bounces")}
# API Gateway's own answers, each as a problem of chalicelib/errors.py (its status and title come
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
    # Lambda refused to run the function: its reserved concurrency is in use (the long-polls' pool is
    # full) or the account's is. API Gateway has no response type of its own for that.
    "INTEGRATION_FAILURE": ("rate_limited", f"Too many requests are being answered at once (long-polls have a "
                                            f"pool of their own); retry after Retry-After seconds, a write with the "
                                            f"same {RETRY}", {"Retry-After": "2"}),
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


class PrecompiledChalice(Chalice):
    """Chalice's construct, with the package precompiled before it becomes the functions' code
    (infra/package.py says why: a cold start then loads bytecode instead of compiling)."""

    def _package_app(self) -> None:
        super()._package_app()
        precompile(Path(self._sam_package_dir) / "deployment.zip")


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
    ses_bounce_rate_alarm: float
    ses_complaint_rate_alarm: float
    async_retry_attempts: int

    @classmethod
    def from_context(cls, scope: Construct) -> "Settings":
        def get(key: str, default=None):
            value = scope.node.try_get_context(key)
            return default if value in (None, "") else value

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
            ses_bounce_rate_alarm=float(get("ses_bounce_rate_alarm", 0.05)),
            ses_complaint_rate_alarm=float(get("ses_complaint_rate_alarm", 0.001)),
            async_retry_attempts=int(get("async_retry_attempts", 2)),
        ).checked()

    def checked(self) -> "Settings":
        """These settings, refused with a clear message when AWS would refuse them at deploy."""
        if not 0 <= self.async_retry_attempts <= 2:  # what Lambda takes for asynchronous invocations
            raise ValueError(f"async_retry_attempts must be 0, 1 or 2, not {self.async_retry_attempts}")
        return self


class BattlelineStack(cdk.Stack):
    def __init__(self, scope: Construct, construct_id: str, **kwargs) -> None:
        super().__init__(scope, construct_id, **kwargs)
        settings = Settings.from_context(self)
        self.settings = settings

        self.table = self._table(settings)
        self.link_secret = secretsmanager.Secret(
            self, "LinkSecret", description="Signs email links and reply addresses",
            generate_secret_string=secretsmanager.SecretStringGenerator(exclude_punctuation=True, password_length=48))
        self.failures = sqs.Queue(self, "OutboxFailures", retention_period=cdk.Duration.days(14),
                                  encryption=sqs.QueueEncryption.SQS_MANAGED, enforce_ssl=True)
        self.roles = {logical: self._role(logical, settings) for logical in FUNCTIONS}
        self.app = self._chalice(settings)
        self._outbox_consumer()
        self._inbound_mail(settings)
        self._gateway_problems()
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
        role.add_to_policy(iam.PolicyStatement(actions=TABLE_ACTIONS,
                                               resources=[self.table.table_arn, f"{self.table.table_arn}/index/*"]))
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
        }
        app = PrecompiledChalice(self, "App", source_dir=str(ROOT), stage_config={
            "environment_variables": {k: v for k, v in environment.items() if v != ""},
            "lambda_memory_size": settings.lambda_memory_mb,
            "lambda_timeout": 60,
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
        app.get_resource("APIHandler").add_property_override("Timeout", 29)  # API Gateway waits 29 s at most
        app.get_resource("RestAPI").add_property_override("Name", f"{settings.name}-api")
        self._long_poll(app, settings)
        return app

    def _long_poll(self, app: Chalice, settings: Settings) -> None:
        """listEvents and listGames run in LongPoll (the same app), with reserved concurrency: at most
        ``long_poll_concurrency`` requests wait at once, however many bots poll, and the rest of the
        account's concurrency stays for moves. Lambda refuses to run it beyond that, which API Gateway
        reports as INTEGRATION_FAILURE: 429 with Retry-After (GATEWAY_PROBLEMS)."""
        function = app.get_resource("LongPoll")
        function.add_property_override("Timeout", 29)  # a wait is at most 20 s (LONG_POLL_MAX_SECONDS)
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
        ses.ReceiptRuleSet(self, "InboundMailRules", rules=[ses.ReceiptRuleOptions(
            recipients=[settings.mail_domain], scan_enabled=True, tls_policy=ses.TlsPolicy.REQUIRE,
            actions=[ses_actions.Sns(topic=topic, encoding=ses_actions.EmailEncoding.BASE64)])])
        # A SAM event on the function: the subscription and the permission to invoke it.
        self.app.get_resource("InboundMail").add_property_override(
            "Events.Replies", {"Type": "SNS", "Properties": {"Topic": topic.topic_arn}})

    def _gateway_problems(self) -> None:
        """API Gateway's own refusals (an unknown route, a body too large, throttling, a timeout) as
        problem+json with a code of chalicelib/errors.py, as the app answers."""
        for kind, (code, detail, headers) in GATEWAY_PROBLEMS.items():
            body, status = gateway_problem(code, detail)
            parameters = {f"gatewayresponse.header.{name}": f"'{value}'"
                          for name, value in {"Content-Type": PROBLEM_JSON, **headers}.items()}
            cdk.CfnResource(self, f"Gateway{kind.title().replace('_', '')}", type="AWS::ApiGateway::GatewayResponse",
                            properties={"RestApiId": self.app.get_resource("RestAPI").ref, "ResponseType": kind,
                                        "StatusCode": str(status), "ResponseParameters": parameters,
                                        "ResponseTemplates": {"application/json": body}})

    # ------------------------------------------------------------------ alarms

    def _alarms(self, settings: Settings) -> None:
        topic = sns.Topic(self, "Alarms", display_name=f"{settings.name} alarms", enforce_ssl=True)
        self.alarm_topic = topic
        if settings.alarm_email:
            topic.add_subscription(subscriptions.EmailSubscription(settings.alarm_email))
        alarms = [
            cloudwatch.Alarm(self, "OutboxFailuresAlarm", metric=self.failures.metric_approximate_number_of_messages_visible(
                period=cdk.Duration.minutes(5), statistic="Maximum"), threshold=0,
                comparison_operator=cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD, evaluation_periods=1,
                alarm_description="Outbox records failed after every retry: notifications or settlements are "
                                  "waiting in the failure queue",
                treat_missing_data=cloudwatch.TreatMissingData.NOT_BREACHING),
            cloudwatch.Alarm(self, "Api5xxAlarm", metric=cloudwatch.Metric(
                namespace="AWS/ApiGateway", metric_name="5XXError",
                dimensions_map={"ApiName": f"{settings.name}-api", "Stage": API_STAGE}, statistic="Sum",
                period=cdk.Duration.minutes(5)), threshold=1,
                comparison_operator=cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                evaluation_periods=1, alarm_description="The API answered 5xx",
                treat_missing_data=cloudwatch.TreatMissingData.NOT_BREACHING),
        ]
        for logical in ("OutboxConsumer", "WebhookRetries", "ClockSweeper", "InboundMail"):
            alarms.append(cloudwatch.Alarm(
                self, f"{logical}ErrorsAlarm", metric=cloudwatch.Metric(
                    namespace="AWS/Lambda", metric_name="Errors",
                    dimensions_map={"FunctionName": self.function_name(logical)}, statistic="Sum",
                    period=cdk.Duration.minutes(5)), threshold=1,
                comparison_operator=cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
                evaluation_periods=1, alarm_description=f"{self.function_name(logical)} failed",
                treat_missing_data=cloudwatch.TreatMissingData.NOT_BREACHING))
        for alarm in alarms:
            alarm.add_alarm_action(cloudwatch_actions.SnsAction(topic))

    # ------------------------------------------------------------------ mail that does not arrive

    def _mail_events(self, settings: Settings) -> None:
        """Every email is sent with a configuration set (reputation metrics on) whose bounce,
        complaint, reject and delivery-delay events SES publishes to a topic that invokes
        mail-events: a permanent bounce or a complaint stops mail to that address
        (chalicelib/services/mailevents.py). Alarms on the account's bounce and complaint rates,
        which SES itself watches (above 5% and 0.1% it reviews the account, then may pause sending)."""
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
            alarm = cloudwatch.Alarm(
                self, f"Ses{what.title()}RateAlarm", metric=cloudwatch.Metric(
                    namespace="AWS/SES", metric_name=metric, statistic="Maximum", period=cdk.Duration.hours(1)),
                threshold=threshold, evaluation_periods=1,
                comparison_operator=cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
                alarm_description=f"SES's {what} rate for the account is above {threshold:.1%}: SES reviews the "
                                  f"account, then may pause its sending (docs/deploy.md, SES)",
                treat_missing_data=cloudwatch.TreatMissingData.NOT_BREACHING)
            alarm.add_alarm_action(cloudwatch_actions.SnsAction(self.alarm_topic))

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
            alarm = cloudwatch.Alarm(
                self, f"{logical}FailuresAlarm", metric=queue.metric_approximate_number_of_messages_visible(
                    period=cdk.Duration.minutes(5), statistic="Maximum"), threshold=0,
                comparison_operator=cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD, evaluation_periods=1,
                alarm_description=f"{self.function_name(logical)} failed an event after every retry: it waits in "
                                  f"the queue {logical}Failures (docs/deploy.md)",
                treat_missing_data=cloudwatch.TreatMissingData.NOT_BREACHING)
            alarm.add_alarm_action(cloudwatch_actions.SnsAction(self.alarm_topic))
            cdk.CfnOutput(self, f"{logical}FailureQueue", value=queue.queue_url)
