"""The store's lean DynamoDB calls (store/dynamo/wire.py, issue 39 item 3): signed exactly as
botocore signs, values as botocore gives them, refusals as the client's own exceptions, retried as
botocore's standard mode retries, and an unreachable DynamoDB still a 503 in seconds. The store's
contract tests run through it on DynamoDB Local (tests/conftest.py)."""

from __future__ import annotations

import datetime
import time

import boto3
import pytest
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials

from chalicelib import config
from chalicelib.store.dynamo import wire
from chalicelib.store.dynamo.wire import LeanDynamoDB, decode, encode
from chalicelib.store.dynamodb import DynamoStore, StoreUnavailable, Throttled, store_error
from devtools.dynamodb_local import free_port

NOW = datetime.datetime(2026, 11, 28, 12, 34, 56, tzinfo=datetime.timezone.utc)


def client(endpoint: str = "https://dynamodb.eu-west-1.amazonaws.com", **keys):
    return boto3.client("dynamodb", region_name="eu-west-1", endpoint_url=endpoint,
                        aws_access_key_id=keys.get("key", "AKIDEXAMPLE"),
                        aws_secret_access_key="wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
                        aws_session_token=keys.get("token"), config=config.dynamodb_config())


@pytest.mark.parametrize("token", [None, "a-session-token"], ids=["keys", "session"])
def test_item_3_a_lean_call_is_signed_as_botocore_signs_it(monkeypatch, token):
    dynamodb = client(token=token)
    lean = LeanDynamoDB(dynamodb, now=lambda: NOW)
    body = encode({"TableName": "battleline", "Key": {"PK": {"S": "g#1"}, "SK": {"S": "settings"}}})
    headers = lean.signed({"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": wire.TARGET + "GetItem"},
                          body)
    monkeypatch.setattr("botocore.auth.get_current_datetime", lambda: NOW.replace(tzinfo=None))
    request = AWSRequest("POST", "https://dynamodb.eu-west-1.amazonaws.com/", data=body, headers={
        "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": wire.TARGET + "GetItem"})
    SigV4Auth(Credentials("AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", token), "dynamodb",
              "eu-west-1").add_auth(request)
    assert headers["Authorization"] == request.headers["Authorization"]
    assert headers["X-Amz-Date"] == request.headers["X-Amz-Date"]
    assert headers.get("X-Amz-Security-Token") == request.headers.get("X-Amz-Security-Token")


def test_item_3_binary_values_go_as_base64_and_come_back_as_bytes():
    item = {"body": {"B": b"\x01\xffzz"}, "m": {"M": {"B": {"S": "an attribute named B"}, "x": {"B": b"\x00"}}},
            "l": {"L": [{"B": b"\x02"}, {"S": "s"}]}, "bs": {"BS": [b"\x03", b"\x04"]}, "n": {"N": "7"}}
    assert decode(encode({"Item": item})) == {"Item": item}
    assert b'"body":{"B":"Af96eg=="}' in encode({"Item": item})


class Scripted(LeanDynamoDB):
    """Answers from a script instead of the network: (status, body) per attempt."""

    def __init__(self, answers, **kwargs) -> None:
        super().__init__(client(), **kwargs)
        self.answers = list(answers)
        self.sent = 0

    def _send(self, operation, body):
        self.sent += 1
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer[0], {"x-amzn-RequestId": "r"}, answer[1]


def test_item_3_a_failed_condition_is_the_clients_own_exception_and_never_retried():
    lean = Scripted([(400, {"__type": "com.amazonaws.dynamodb.v20120810#ConditionalCheckFailedException",
                            "message": "The conditional request failed"})], sleep=lambda s: None)
    with pytest.raises(lean.exceptions.ConditionalCheckFailedException) as failed:
        lean.put_item(TableName="t", Item={})
    assert failed.value.response["Error"] == {"Code": "ConditionalCheckFailedException",
                                              "Message": "The conditional request failed"}
    assert lean.sent == 1 and store_error(failed.value) is None


def test_item_3_a_cancelled_transaction_keeps_its_reasons():
    reasons = [{"Code": "None"}, {"Code": "ConditionalCheckFailed", "Message": "The conditional request failed"}]
    lean = Scripted([(400, {"__type": "com.amazonaws.dynamodb.v20120810#TransactionCanceledException",
                            "Message": "Transaction cancelled", "CancellationReasons": reasons})])
    with pytest.raises(lean.exceptions.TransactionCanceledException) as failed:
        lean.transact_write_items(TransactItems=[])
    assert failed.value.response["CancellationReasons"] == reasons


def test_item_3_throttling_is_retried_as_botocore_retries_it_then_is_throttled():
    throttled = (400, {"__type": "com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException"})
    waits: list[float] = []
    lean = Scripted([throttled, throttled, (200, {"Item": {"n": {"N": "1"}}})], sleep=waits.append)
    assert lean.get_item(TableName="t", Key={}) == {"Item": {"n": {"N": "1"}}}
    assert lean.sent == 3 and len(waits) == 2 and waits[0] <= 1 and waits[1] <= 2
    lean = Scripted([throttled] * 3, sleep=lambda s: None)
    with pytest.raises(Exception) as failed:
        lean.get_item(TableName="t", Key={})
    assert lean.sent == 3 and isinstance(store_error(failed.value), Throttled)


def test_item_3_a_server_error_is_retried_and_then_unavailable():
    lean = Scripted([(500, {"__type": "InternalServerError"})] * 3, sleep=lambda s: None)
    with pytest.raises(Exception) as failed:
        lean.query(TableName="t")
    assert lean.sent == 3 and isinstance(store_error(failed.value), StoreUnavailable)


def test_item_3_the_deployed_store_is_lean_and_gives_up_on_an_unreachable_store_in_seconds(monkeypatch):
    monkeypatch.setenv("DYNAMODB_ENDPOINT", f"http://127.0.0.1:{free_port()}")  # nothing listens there
    config.store.cache_clear()
    try:
        store = config.store()
        assert isinstance(store.client.wrapped, LeanDynamoDB)
        began = time.monotonic()
        with pytest.raises(StoreUnavailable):
            store.load_game("g_nothing")
        assert time.monotonic() - began < 8
    finally:
        config.store.cache_clear()


def test_item_3_operations_the_store_does_not_make_lean_are_the_clients_own():
    dynamodb = client()
    lean = LeanDynamoDB(dynamodb)
    assert lean.meta is dynamodb.meta and lean.exceptions is dynamodb.exceptions
    assert lean.describe_table == dynamodb.describe_table
    assert isinstance(DynamoStore(lean, "battleline").client.wrapped, LeanDynamoDB)
