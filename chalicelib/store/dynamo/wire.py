"""The DynamoDB calls the store makes, sent lean: the low-level API's parameters are the request's
JSON as they stand (binary values base64-encoded), signed (AWS Signature Version 4, by botocore's signer), posted on
a kept-alive connection, and answered as botocore answers (binary values as bytes; a refusal as
the client's own modelled exception: ``client.exceptions.ConditionalCheckFailedException``, ...),
without the botocore client's per-call machinery: event hooks, parameter validation, endpoint
rules, shape-driven serialising and parsing, its request and response objects. That machinery was
three quarters of a move's CPU in the handler (issue 39: about 2.5 ms a call on DynamoDB Local
against 1 ms here; docs/benchmarks.md).

The connection (:class:`Connection`) is a socket (TLS over it for ``https``) with Nagle's
algorithm off, as botocore's urllib3 pool has it: a request goes out whole in one write (its head
and its JSON), and the answer is read by :func:`read_response`, HTTP/1.1 as RFC 9112 frames it
(a status line, header fields, a body by Content-Length, chunked, or up to the connection's end).
The standard library's ``http.client`` did this before at about a quarter of a millisecond of CPU
a call more, mostly its header parsing through the ``email`` package (a quarter of what was left of
a move's handler CPU: issue 39, item 3); a C parser (httptools) would have taken the Lambda
package past its 8 MiB.

The client it wraps still gives what it knows: the endpoint and region, the timeouts, the pool size and the number of
attempts. What botocore's standard retry mode does is done here too: at most
``total_max_attempts`` tries (config.py: 3), again after a connection error, a 5xx or a throttling
refusal, each wait random up to 1, 2, 4 ... s after throttling, 25, 50 ... ms otherwise (at most
20 s); a connection failure leaves as
botocore's own exception, which the store reads as "unavailable". Every other operation (tables,
waiters) is the wrapped client's own. Proxies are not supported (the server uses none).

Only the deployed store uses it (``config.store``) and the tests on DynamoDB Local; moto's tests
talk to botocore's client, which moto patches.
"""

from __future__ import annotations

import base64
import json
import random
import time
from typing import Any
from urllib.parse import urlsplit

import http.client
import socket
import ssl
import threading
import zlib
from io import BufferedReader

from botocore.auth import SigV4Auth
from botocore.awsrequest import AWSRequest
from botocore.exceptions import ChecksumError, ConnectionClosedError, ConnectTimeoutError, EndpointConnectionError
from botocore.exceptions import HTTPClientError
from botocore.exceptions import ConnectionError as BotoConnectionError
from botocore.exceptions import NoCredentialsError, ReadTimeoutError
from botocore.httpsession import get_cert_path

TARGET = "DynamoDB_20120810."
# botocore's standard retry mode (retries/standard.py): the codes it retries as throttling (waits from
# 1 s) and as transient (waits from 25 ms for DynamoDB, as 5xx and connection errors do).
THROTTLING_CODES = frozenset({
    "Throttling", "ThrottlingException", "ThrottledException", "RequestThrottledException",
    "TooManyRequestsException", "ProvisionedThroughputExceededException", "TransactionInProgressException",
    "RequestLimitExceeded", "BandwidthLimitExceeded", "LimitExceededException", "RequestThrottled",
    "SlowDown", "PriorRequestNotComplete", "EC2ThrottledException",
})
TRANSIENT_CODES = frozenset({"RequestTimeout", "RequestTimeoutException", "PriorRequestNotComplete"})
RETRIED_STATUS = frozenset({500, 502, 503, 504})
THROTTLING_SCALE, TRANSIENT_SCALE = 1.0, 0.025  # seconds: the first wait's longest
LONGEST_WAIT = 20.0

MAX_LINE = 65536  # http.client's limits: a status or header line's length, the number of header fields
MAX_HEADERS = 100

OPERATIONS = {
    "get_item": "GetItem", "put_item": "PutItem", "update_item": "UpdateItem", "delete_item": "DeleteItem",
    "query": "Query", "scan": "Scan", "batch_get_item": "BatchGetItem", "batch_write_item": "BatchWriteItem",
    "transact_write_items": "TransactWriteItems", "transact_get_items": "TransactGetItems",
}


def _bytes_as_base64(value: Any) -> str:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return base64.b64encode(value).decode("ascii")
    raise TypeError(f"{type(value).__name__} is not a DynamoDB value")


def _binary_as_bytes(obj: dict) -> dict:
    """An attribute value ``{"B": base64}`` (or ``{"BS": [...]}``) as botocore gives it: bytes."""
    if len(obj) == 1:
        if "B" in obj and isinstance(obj["B"], str):
            return {"B": base64.b64decode(obj["B"])}
        if "BS" in obj and isinstance(obj["BS"], list):
            return {"BS": [base64.b64decode(v) for v in obj["BS"]]}
    return obj


def encode(params: dict) -> bytes:
    """A call's parameters as the request's JSON (bytes: binary attribute values, base64)."""
    return json.dumps(params, separators=(",", ":"), default=_bytes_as_base64).encode()


def decode(body: bytes) -> dict:
    """A response's JSON as botocore parses it (binary attribute values as bytes)."""
    return json.loads(body, object_hook=_binary_as_bytes) if body else {}


class _Request(AWSRequest):
    """botocore's request as its signer reads it. Its body is the bytes sent, as ``AWSRequest.body``
    gives bytes, without preparing a whole request to read them (a sixth of a signature's time)."""

    @property
    def body(self) -> bytes:
        return self.data


class LeanDynamoDB:
    """A botocore DynamoDB client whose item calls (``OPERATIONS``) are made lean, signed with
    ``credentials`` (botocore's, as the client's session resolved them); anything else (``meta``,
    ``exceptions``, tables, waiters) is the client's own."""

    def __init__(self, client, credentials, *, sleep=time.sleep) -> None:
        self._client = client
        self.meta = client.meta
        self.exceptions = client.exceptions
        config = client.meta.config
        self._url = client.meta.endpoint_url.rstrip("/") + "/"
        self._host = host_of(self._url)
        self._region = client.meta.region_name
        self._credentials = credentials  # botocore's: frozen anew for each call (refreshed ones too)
        self._tls = ssl.create_default_context(cafile=get_cert_path(True)) if self._url.startswith("https:") else None
        self._timeouts = (config.connect_timeout, config.read_timeout)
        self._local = threading.local()  # each thread's kept-alive connection
        self._attempts = max(1, (config.retries or {}).get("total_max_attempts", 3))
        self._sleep = sleep
        for method, operation in OPERATIONS.items():
            setattr(self, method, self._operation(operation))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._client, name)

    def _operation(self, operation: str):
        def call(**params: Any) -> dict:
            return self.call(operation, params)

        call.__name__ = operation
        return call

    def call(self, operation: str, params: dict) -> dict:
        """One DynamoDB operation, retried as botocore's standard mode retries it."""
        body = encode(params)
        attempt = 1
        while True:
            scale = TRANSIENT_SCALE
            try:
                status, headers, parsed = self._send(operation, body)
            except (BotoConnectionError, HTTPClientError, ChecksumError):
                if attempt >= self._attempts:
                    raise
            else:
                if status < 300:
                    return parsed
                error = self._error(operation, status, headers, parsed, attempt - 1)
                code = error.response["Error"]["Code"]
                if code in THROTTLING_CODES:
                    scale = THROTTLING_SCALE
                elif status not in RETRIED_STATUS and code not in TRANSIENT_CODES:
                    raise error
                if attempt >= self._attempts:
                    raise error
            self._sleep(random.random() * min(LONGEST_WAIT, scale * 2.0 ** (attempt - 1)))
            attempt += 1

    def _send(self, operation: str, body: bytes) -> tuple[int, Any, dict]:
        headers = self.signed({"Host": self._host, "Content-Type": "application/x-amz-json-1.0",
                               "X-Amz-Target": TARGET + operation}, body)
        connection = getattr(self._local, "connection", None) or self._connect()
        try:
            status, answer, data, keep = connection.exchange(headers, body)
        except (TimeoutError, socket.timeout) as error:
            self._drop(connection)
            raise ReadTimeoutError(endpoint_url=self._url, error=error) from error
        except (http.client.HTTPException, OSError, ValueError) as error:
            self._drop(connection)
            raise ConnectionClosedError(endpoint_url=self._url, error=error) from error
        if not keep:
            self._drop(connection)
        expected = answer.get("x-amz-crc32")
        if expected is not None and expected.isdigit() and zlib.crc32(data) != int(expected):
            # DynamoDB's checksum of the body, checked and retried as botocore's DynamoDB client does
            self._drop(connection)
            raise ChecksumError(checksum_type="crc32", expected_checksum=expected, actual_checksum=zlib.crc32(data))
        if status < 300:
            return status, answer, decode(data)
        try:  # a refusal's body is DynamoDB's JSON; a proxy's or a load balancer's may not be
            return status, answer, decode(data)
        except ValueError:
            return status, answer, {}

    def _connect(self) -> Connection:
        """A new connection for this thread, connected (in the connect timeout), then kept alive with
        the read timeout."""
        split = urlsplit(self._url)
        connect, read = self._timeouts
        try:
            sock = socket.create_connection((split.hostname, split.port or (443 if self._tls else 80)), connect)
        except (TimeoutError, socket.timeout) as error:
            raise ConnectTimeoutError(endpoint_url=self._url, error=error) from error
        except OSError as error:
            raise EndpointConnectionError(endpoint_url=self._url, error=error) from error
        try:
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            if self._tls is not None:
                sock = self._tls.wrap_socket(sock, server_hostname=split.hostname)
            sock.settimeout(read)
        except (TimeoutError, socket.timeout) as error:
            sock.close()
            raise ConnectTimeoutError(endpoint_url=self._url, error=error) from error
        except OSError as error:
            sock.close()
            raise EndpointConnectionError(endpoint_url=self._url, error=error) from error
        connection = Connection(sock)
        self._local.connection = connection
        return connection

    def _drop(self, connection: Connection) -> None:
        connection.close()
        if getattr(self._local, "connection", None) is connection:
            self._local.connection = None

    def signed(self, headers: dict, body: bytes) -> dict:
        """``headers`` with AWS Signature Version 4 for a POST of ``body`` to the endpoint's ``/``, signed
        by botocore's own signer (``SigV4Auth``) with the credentials as they are now (refreshed ones too).
        A ``Host`` among them is signed as it is (the one sent); without it, the signer derives it."""
        if self._credentials is None:
            raise NoCredentialsError()
        request = _Request("POST", self._url, data=body, headers=headers)
        SigV4Auth(self._credentials.get_frozen_credentials(), "dynamodb", self._region).add_auth(request)
        return dict(request.headers.items())

    def _error(self, operation: str, status: int, headers, parsed: dict, retries: int) -> Exception:
        """The client's own exception for a refusal, with the response botocore would have parsed."""
        code = str(parsed.get("__type", "")).rpartition("#")[2] or str(status)
        message = parsed.get("message", parsed.get("Message", ""))
        response = {key: value for key, value in parsed.items() if key not in ("__type", "message", "Message")}
        response["Error"] = {"Code": code, "Message": message}
        response["ResponseMetadata"] = {"RequestId": headers.get("x-amzn-requestid", ""), "HTTPStatusCode": status,
                                        "HTTPHeaders": dict(headers), "RetryAttempts": retries}
        return self._client.exceptions.from_code(code)(response, operation)


def host_of(url: str) -> str:
    """The Host header for ``url`` as botocore's signer derives it: the host in lower case (an IPv6
    address in brackets), with the port unless it is the scheme's default."""
    split = urlsplit(url)
    host = split.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    if split.port is not None and split.port != {"http": 80, "https": 443}.get(split.scheme):
        host = f"{host}:{split.port}"
    return host


class Connection:
    """One kept-alive HTTP/1.1 connection to DynamoDB: a request written whole, its answer read."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self.reader = sock.makefile("rb")

    def exchange(self, headers: dict, body: bytes) -> tuple[int, dict, bytes, bool]:
        """POST ``body`` to ``/`` with ``headers``: the answer's status, header fields (names in lower
        case), body, and whether the connection stays open for the next request."""
        head = "".join(f"{name}: {value}\r\n" for name, value in headers.items())
        self.sock.sendall(f"POST / HTTP/1.1\r\n{head}Accept-Encoding: identity\r\nContent-Length: {len(body)}"
                          "\r\n\r\n".encode("latin-1") + body)
        return read_response(self.reader)

    def close(self) -> None:
        self.reader.close()
        self.sock.close()


def _line(reader: BufferedReader) -> bytes:
    line = reader.readline(MAX_LINE + 1)
    if len(line) > MAX_LINE:
        raise http.client.LineTooLong("header line")
    return line


def read_response(reader: BufferedReader) -> tuple[int, dict, bytes, bool]:
    """An HTTP/1.x response read from ``reader``: its status, its header fields (names in lower case;
    a repeated field's values joined by commas), its body, and whether the connection may carry the
    next request. Interim (1xx) responses are skipped. A malformed or cut answer raises one of
    ``http.client``'s exceptions (the caller drops the connection)."""
    while True:
        line = _line(reader)
        if not line:
            raise http.client.RemoteDisconnected("the connection closed without an answer")
        version, _, rest = line.partition(b" ")
        code = rest[:3]
        if not version.startswith(b"HTTP/1.") or len(code) != 3 or not code.isdigit() or \
                rest[3:4] not in (b" ", b"\r", b"\n", b""):
            raise http.client.BadStatusLine(repr(line))
        status = int(code)
        headers: dict[str, str] = {}
        while True:
            line = _line(reader)
            if line in (b"\r\n", b"\n", b""):
                break
            if len(headers) >= MAX_HEADERS:
                raise http.client.HTTPException(f"got more than {MAX_HEADERS} headers")
            name, colon, value = line.partition(b":")
            if not colon or not name or name != name.strip():
                raise http.client.HTTPException(f"a malformed header line: {line!r}")
            key, text = name.decode("latin-1").lower(), value.strip().decode("latin-1")
            headers[key] = f"{headers[key]}, {text}" if key in headers else text
        if status >= 200:
            break
    connection = headers.get("connection", "").lower()
    keep = "close" not in connection if version != b"HTTP/1.0" else "keep-alive" in connection
    if status in (204, 304):
        return status, headers, b"", keep
    if "chunked" in headers.get("transfer-encoding", "").lower():
        return status, headers, _chunked(reader), keep
    if "content-length" in headers:
        length = int(headers["content-length"])
        if length < 0:
            raise ValueError("a negative Content-Length")
        body = reader.read(length)
        if len(body) < length:
            raise http.client.IncompleteRead(body, length - len(body))
        return status, headers, body, keep
    return status, headers, reader.read(), False  # the body ends with the connection


def _chunked(reader: BufferedReader) -> bytes:
    chunks = []
    while True:
        size = int(_line(reader).split(b";", 1)[0].strip(), 16)
        if size == 0:
            break
        chunk = reader.read(size)
        if len(chunk) < size or _line(reader) not in (b"\r\n", b"\n"):
            raise http.client.IncompleteRead(b"".join(chunks) + chunk)
        chunks.append(chunk)
    while _line(reader) not in (b"\r\n", b"\n", b""):  # trailer fields, unused
        pass
    return b"".join(chunks)
