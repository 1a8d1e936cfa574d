"""The store's lean DynamoDB calls (store/dynamo/wire.py, issue 39 item 3): signed exactly as
botocore signs, values as botocore gives them, refusals as the client's own exceptions, retried as
botocore's standard mode retries, and an unreachable DynamoDB still a 503 in seconds; items typed
and read as boto3 types and reads them. The store's contract tests run through it on DynamoDB Local
(tests/conftest.py)."""

from __future__ import annotations

import datetime
import http.client
import io
import http.server
import threading
import time
import zlib

from decimal import Decimal

import boto3
import pytest
from boto3.dynamodb.types import Binary, TypeDeserializer, TypeSerializer
from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.credentials import Credentials
from botocore.exceptions import ChecksumError, ConnectionClosedError

from chalicelib import config
from chalicelib.store.dynamo import wire
from chalicelib.store.dynamo.wire import LeanDynamoDB, decode, encode
from chalicelib.store.items import plain, typed
from chalicelib.store.dynamodb import DynamoStore, StoreUnavailable, Throttled, store_error
from devtools.dynamodb_local import free_port

NOW = datetime.datetime(2026, 11, 28, 12, 34, 56, tzinfo=datetime.timezone.utc)


SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"


def client(endpoint: str = "https://dynamodb.eu-west-1.amazonaws.com"):
    return boto3.client("dynamodb", region_name="eu-west-1", endpoint_url=endpoint, aws_access_key_id="AKIDEXAMPLE",
                        aws_secret_access_key=SECRET, config=config.dynamodb_config())


@pytest.mark.parametrize("token", [None, "a-session-token"], ids=["keys", "session"])
def test_item_3_a_lean_call_is_signed_as_botocore_signs_it(monkeypatch, token):
    monkeypatch.setattr("botocore.auth.get_current_datetime", lambda: NOW.replace(tzinfo=None))
    lean = LeanDynamoDB(client(), Credentials("AKIDEXAMPLE", SECRET, token))
    body = encode({"TableName": "battleline", "Key": {"PK": {"S": "g#1"}, "SK": {"S": "settings"}}})
    headers = lean.signed({"Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": wire.TARGET + "GetItem"},
                          body)
    request = AWSRequest("POST", "https://dynamodb.eu-west-1.amazonaws.com/", data=body, headers={
        "Content-Type": "application/x-amz-json-1.0", "X-Amz-Target": wire.TARGET + "GetItem"})
    SigV4Auth(Credentials("AKIDEXAMPLE", SECRET, token), "dynamodb", "eu-west-1").add_auth(request)
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
        super().__init__(client(), Credentials("AKIDEXAMPLE", SECRET), **kwargs)
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
    assert lean.sent == 3 and len(waits) == 2 and waits[0] <= 1 and waits[1] <= 2  # from 1 s, as botocore
    lean = Scripted([throttled] * 3, sleep=lambda s: None)
    with pytest.raises(Exception) as failed:
        lean.get_item(TableName="t", Key={})
    assert lean.sent == 3 and isinstance(store_error(failed.value), Throttled)


def test_item_3_a_server_error_or_a_lost_connection_is_retried_soon_and_then_unavailable():
    waits: list[float] = []
    lean = Scripted([(500, {"__type": "InternalServerError"})] * 3, sleep=waits.append)
    with pytest.raises(Exception) as failed:
        lean.query(TableName="t")
    assert lean.sent == 3 and isinstance(store_error(failed.value), StoreUnavailable)
    assert waits[0] <= 0.025 and waits[1] <= 0.05  # from 25 ms, as botocore waits for DynamoDB
    lean = Scripted([ConnectionClosedError(endpoint_url="x"), (200, {})], sleep=waits.append)
    assert lean.query(TableName="t") == {} and lean.sent == 2


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
    lean = LeanDynamoDB(dynamodb, Credentials("AKIDEXAMPLE", SECRET))
    assert lean.meta is dynamodb.meta and lean.exceptions is dynamodb.exceptions
    assert lean.describe_table == dynamodb.describe_table
    assert isinstance(DynamoStore(lean, "battleline").client.wrapped, LeanDynamoDB)


# ids by position and type: a set's repr follows the hash seed, which differs between xdist workers
VALUES = ["", "text", "名前", 0, 1, -7, 2**53, 10**37, -(10**37), True, False, b"", b"\x00\xff", 3.5,
          Decimal("2.50"), {"a": 1, "b": [1, "x"]}, [1, "two", None], {"x", "y"}, {1, 2}, {b"\x01"}]


@pytest.mark.parametrize("value", VALUES, ids=[f"{i}-{type(v).__name__}" for i, v in enumerate(VALUES)])
def test_item_3_items_are_typed_and_read_as_boto3_types_and_reads_them(value):
    serializer, deserializer = TypeSerializer(), TypeDeserializer()

    def boto3_plain(found):
        found = deserializer.deserialize(found)
        if isinstance(found, Decimal):
            return int(found) if found == found.to_integral_value() else float(found)
        return found.value if isinstance(found, Binary) else found

    if isinstance(value, float):
        with pytest.raises(TypeError):  # boto3 refuses floats; so does the store
            typed({"v": value})
        return
    assert typed({"v": value, "none": None}) == {"v": serializer.serialize(value)}
    attribute = serializer.serialize(value)
    assert plain({"v": attribute}) == {"v": boto3_plain(attribute)}
    assert type(plain({"v": attribute})["v"]) is type(boto3_plain(attribute))


def test_item_3_numbers_beyond_38_digits_are_refused_as_before():
    with pytest.raises(Exception) as ours:
        typed({"n": 10**40})
    with pytest.raises(Exception) as theirs:
        TypeSerializer().serialize(10**40)
    assert type(ours.value) is type(theirs.value)


class Gateway(http.server.BaseHTTPRequestHandler):
    """A load balancer in front of DynamoDB that answers 502 with an HTML page."""

    protocol_version = "HTTP/1.1"
    seen: list[str] = []

    def do_POST(self):
        self.rfile.read(int(self.headers["Content-Length"]))
        Gateway.seen.append(self.headers["X-Amz-Target"])
        page = b"<html>Bad Gateway</html>"
        self.send_response(502)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(page)))
        self.end_headers()
        self.wfile.write(page)

    def log_message(self, *args):
        pass


def test_item_3_a_refusal_that_is_not_dynamodbs_json_is_still_unavailable_after_the_retries():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Gateway)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        lean = LeanDynamoDB(client(f"http://127.0.0.1:{server.server_address[1]}"), Credentials("AKIDEXAMPLE", SECRET),
                            sleep=lambda s: None)
        Gateway.seen.clear()
        with pytest.raises(StoreUnavailable):
            DynamoStore(lean, "battleline").load_game("g_0123456789abcdef")
        assert Gateway.seen == ["DynamoDB_20120810.Query"] * 3
    finally:
        server.shutdown()
        server.server_close()


def answer(raw: bytes):
    return wire.read_response(io.BufferedReader(io.BytesIO(raw)))


@pytest.mark.parametrize(("raw", "expected"), [
    (b"HTTP/1.1 200 OK\r\nContent-Type: application/x-amz-json-1.0\r\nx-amzn-RequestId: r1\r\n"
     b"Content-Length: 2\r\n\r\n{}next", (200, "r1", b"{}", True)),
    (b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nx-amzn-RequestId: r2\r\n\r\n"
     b"3;ext=1\r\n{\"a\r\n4\r\n\":1}\r\n0\r\nTrailer: x\r\n\r\n", (200, "r2", b'{"a":1}', True)),
    (b"HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 400 Bad Request\r\nX-Amzn-RequestId: r3\r\nContent-Length: 0\r\n\r\n",
     (400, "r3", b"", True)),
    (b"HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\nx-amzn-RequestId: r4\r\nContent-Length: 3\r\n\r\nbad",
     (502, "r4", b"bad", False)),
    (b"HTTP/1.1 503 Service Unavailable\r\nx-amzn-RequestId: r5\r\n\r\nuntil the end", (503, "r5", b"until the end", False)),
    (b"HTTP/1.0 200 OK\r\nx-amzn-RequestId: r6\r\nContent-Length: 2\r\n\r\n{}", (200, "r6", b"{}", False)),
    (b"HTTP/1.1 204 No Content\r\nx-amzn-RequestId: a\r\nX-AMZN-REQUESTID: b\r\n\r\n", (204, "a, b", b"", True)),
], ids=["length", "chunked", "interim", "close", "to-the-end", "http-1.0", "repeated"])
def test_item_3_an_answer_is_read_as_http_1_1_frames_it(raw, expected):
    status, headers, body, keep = answer(raw)
    assert (status, headers["x-amzn-requestid"], body, keep) == expected


@pytest.mark.parametrize("raw", [
    b"", b"garbage\r\n\r\n", b"HTTP/1.1 2x0 OK\r\n\r\n", b"HTTP/1.1 200 OK\r\nno colon\r\n\r\n",
    b"HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{}", b"HTTP/1.1 200 OK\r\nContent-Length: ten\r\n\r\n{}",
    b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{}", b"HTTP/1.1 200 OK\r\nX: " + b"x" * 70000 + b"\r\n\r\n",
], ids=["nothing", "not-http", "status", "header", "cut", "length", "chunk", "long-line"])
def test_item_3_a_malformed_or_cut_answer_is_refused(raw):
    with pytest.raises((http.client.HTTPException, ValueError)):
        answer(raw)


class Echo(http.server.BaseHTTPRequestHandler):
    """DynamoDB as far as the connection goes: an empty JSON answer; the first request's connection
    is cut before any answer. Records each request's client port and headers."""

    protocol_version = "HTTP/1.1"
    seen: list[tuple[int, dict]] = []

    def do_POST(self):
        self.rfile.read(int(self.headers["Content-Length"]))
        Echo.seen.append((self.client_address[1], dict(self.headers)))
        if len(Echo.seen) == 1:
            self.close_connection = True
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/x-amz-json-1.0")
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args):
        pass


def test_item_3_a_call_is_signed_for_the_host_it_is_sent_to_and_its_connection_kept(monkeypatch):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Echo)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        waits: list[float] = []
        lean = LeanDynamoDB(client(f"http://127.0.0.1:{server.server_address[1]}"), Credentials("AKIDEXAMPLE", SECRET),
                            sleep=waits.append)
        Echo.seen.clear()
        assert lean.get_item(TableName="t", Key={}) == {}  # the first try's connection is cut: tried again
        assert lean.query(TableName="t") == {}
        assert len(Echo.seen) == 3 and len(waits) == 1
        (cut, _), (port, first), (again, second) = Echo.seen
        assert cut != port == again  # a new connection after the cut one, then kept alive
        assert first["Host"] == f"127.0.0.1:{server.server_address[1]}"
        assert "host;" in first["Authorization"] and first["X-Amz-Target"] == wire.TARGET + "GetItem"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize(("url", "host"), [
    ("https://dynamodb.eu-west-1.amazonaws.com/", "dynamodb.eu-west-1.amazonaws.com"),
    ("https://DynamoDB.eu-west-1.amazonaws.com:443/", "dynamodb.eu-west-1.amazonaws.com"),
    ("http://localhost:8000/", "localhost:8000"), ("http://[::1]:8000/", "[::1]:8000"), ("http://[::1]/", "[::1]"),
])
def test_item_3_the_host_sent_and_signed_is_the_one_botocore_derives(monkeypatch, url, host):
    monkeypatch.setattr("botocore.auth.get_current_datetime", lambda: NOW.replace(tzinfo=None))
    assert wire.host_of(url) == host

    def authorization(headers: dict) -> str:
        request = AWSRequest("POST", url, data=b"{}", headers=headers)
        SigV4Auth(Credentials("AKIDEXAMPLE", SECRET), "dynamodb", "eu-west-1").add_auth(request)
        return request.headers["Authorization"]

    assert authorization({"Host": host}) == authorization({})  # botocore derives the same host from the URL


class Garbled(http.server.BaseHTTPRequestHandler):
    """DynamoDB whose answer is damaged on the way the first ``bad`` times: its x-amz-crc32 is the
    checksum of the body DynamoDB sent, not of the one that arrives."""

    protocol_version = "HTTP/1.1"
    bad = 1
    seen = 0

    def do_POST(self):
        self.rfile.read(int(self.headers["Content-Length"]))
        Garbled.seen += 1
        sent = b'{"Item": {"pk": {"S": "game#g_0123456789abcdef"}}}'
        arrived = sent.replace(b"game", b"gamf") if Garbled.seen <= Garbled.bad else sent
        self.send_response(200)
        self.send_header("Content-Type", "application/x-amz-json-1.0")
        self.send_header("x-amz-crc32", str(zlib.crc32(sent)))
        self.send_header("Content-Length", str(len(arrived)))
        self.end_headers()
        self.wfile.write(arrived)

    def log_message(self, *args):
        pass


@pytest.mark.parametrize("bad", [1, 3])
def test_item_3_an_answer_whose_crc32_does_not_match_is_retried_as_botocore_does_never_read(bad):
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Garbled)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        lean = LeanDynamoDB(client(f"http://127.0.0.1:{server.server_address[1]}"), Credentials("AKIDEXAMPLE", SECRET),
                            sleep=lambda s: None)
        Garbled.bad, Garbled.seen = bad, 0
        if bad < 3:
            assert lean.get_item(TableName="t", Key={}) == {"Item": {"pk": {"S": "game#g_0123456789abcdef"}}}
            assert Garbled.seen == bad + 1
        else:
            with pytest.raises(ChecksumError):
                lean.get_item(TableName="t", Key={})
            assert Garbled.seen == 3  # botocore's standard mode: three attempts
    finally:
        server.shutdown()
        server.server_close()
