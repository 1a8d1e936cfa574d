"""What DynamoDB *bills* for each call, computed from the items written and read, by AWS's
published rules (DynamoDB Local's ``ReturnConsumedCapacity`` rounds a transaction as a whole and
so under-reports; this meter does not ask DynamoDB at all).

``Meter(raw_client, table_definition(name))`` goes wherever the app's low-level client goes
(``DynamoStore(Meter(raw, definition), name)``). Every data call is passed on unchanged; around
it the meter reads the items it touches with its own unmetered strongly consistent ``GetItem``
calls on the raw client (before a write, and after an ``UpdateItem``), and charges:

``meter.take()`` returns the :class:`Charge` since the last take (read units, table write units,
index write units, and a per-call breakdown); ``with meter.label("request") as step:`` labels the
calls made in the block and leaves their charge in ``step.charge``.

The rules, as AWS states them
=============================

Item sizes, "DynamoDB item sizes and formats"
(https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html):
"The total size of an item is the sum of the lengths of its attribute names and values";
strings: "(number of UTF-8-encoded bytes of attribute name) + (number of UTF-8-encoded bytes)";
numbers: "variable length, with up to 38 significant digits. Leading and trailing zeroes are
trimmed. The size of a number is approximately (... attribute name) + (1 byte per two significant
digits) + (1 byte)"; binary: "the value's raw byte length"; "The size of a null attribute or a
Boolean attribute is (... attribute name) + (1 byte)"; "An attribute of type List or Map
requires 3 bytes of overhead, regardless of its contents"; "Each List or Map element also
requires 1 byte of overhead"; a set "does not require any additional overhead beyond the sizes
of its elements". The page's "100 bytes of storage overhead per item" is "For storage billing
purposes" and is not counted here.

Reads and writes, "DynamoDB read and write operations"
(https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html):
- "Item sizes for reads are rounded up to the next 4 KB multiple. For example, reading a
  3,500-byte item consumes the same throughput as reading a 4 KB item." GetItem: strongly
  consistent = 1 unit per 4 KB, "For an eventually consistent read, which is the default,
  divide this number by two"; "A transactional read request of an item up to 4 KB requires
  two read units". "If you perform a read operation on an item that doesn't exist, DynamoDB
  will still consume read throughput": a miss costs the minimum (1, 0.5, or 2 units).
- BatchGetItem: "DynamoDB processes each item in the batch as an individual GetItem request ...
  first rounds up the size of each item to the next 4 KB boundary" (1.5 KB + 6.5 KB = 12 KB).
- Query: "All items returned are treated as a single read operation, where DynamoDB computes the
  total size of all items. DynamoDB then rounds up the size to the next 4 KB boundary" (per
  response page); Scan: "DynamoDB considers the size of the items that are evaluated, not the
  size of the items returned". A FilterExpression does not lower the cost (the meter sizes the
  page without it), nor does a projection: "you can request a subset of attributes to
  retrieve. However, doing so has no impact on the item size calculations". An empty page
  costs the minimum ("you'll still be charged additional read throughput").
- A query on a global secondary index is sized on the index entries: "The number of read
  capacity units is the sum of all projected attribute sizes across all of the items
  returned" (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html,
  "Read capacity units"); index queries are eventually consistent.
- Writes: "Item sizes for writes are rounded up to the next 1 KB multiple". PutItem: "the item
  size that matters is the larger of the two" (the old and the new item); UpdateItem: "the
  larger of the 'before' and 'after' item sizes"; DeleteItem: "based on the size of the
  deleted item" (at least 1 unit when there was none). BatchWriteItem: "processes each item in
  the batch as an individual PutItem or DeleteItem request ... first rounds up the size of each
  item to the next 1 KB boundary" (500 B + 3.5 KB = 5 KB).
- Failed conditions: "If the expression evaluates to false, DynamoDB still consumes write
  capacity units from the table. The amount of consumed write capacity units depends on the
  size of the item. This item can be an existing item in the table or a new one you're
  attempting to create or update. For example, say that an existing item is 300 KB. The new
  item you're trying to create or update is 310 KB. The write capacity units consumed will be
  310 KB for the new item." So a failed conditional write is charged what the write would have
  cost on the table (the larger of the existing item and the would-be item, at least 1 unit),
  and nothing on the indexes (nothing changed there). For an UpdateItem the would-be item is
  computed from the UpdateExpression (:func:`apply_update`); where the meter cannot evaluate
  it (nested document paths) it uses the existing item.

Transactions, "Amazon DynamoDB Transactions: How it works"
(https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/transaction-apis.html,
"Capacity management for transactions"): "DynamoDB performs two underlying reads or writes of
every item in the transaction: one to prepare the transaction and one to commit the
transaction ... Each item requires two write capacity units (WCUs)" (three 500-byte items = 6
WCUs), and "Reading each item require two RCUs". So TransactWriteItems costs 2 units per KB of
each item, rounded per item (a 1.5 KB put: 4 units); a ``ConditionCheck`` is an item of the
transaction, charged 2 write units per KB of the item it checks (at least 2; AWS's pages do not
give a ConditionCheck its own rule: see "uncertain" below). TransactGetItems: 2 units per 4 KB.

Global secondary indexes, "Global secondary indexes" → "Write capacity units"
(https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/GSI.html):
"The total provisioned throughput cost for a write consists of the sum of write capacity units
consumed by writing to the base table and those consumed by updating the global secondary
indexes. If a write to a table does not require a global secondary index update, no write
capacity is consumed from the index." Per index, comparing its entry before and after:
- "If you write a new item to the table that defines an indexed attribute, or you update an
  existing item to define a previously undefined indexed attribute, one write operation is
  required to put the item into the index."
- "If an update to the table changes the value of an indexed key attribute (from A to B), two
  writes are required, one to delete the previous item from the index and another write to put
  the new item into the index."
- "If an item was present in the index, but a write to the table caused the indexed attribute
  to be deleted, one write is required to delete the old item projection from the index."
- "If an item is not present in the index before or after the item is updated, there is no
  additional write cost for the index."
- "If an update to the table only changes the value of projected attributes in the index key
  schema, but does not change the value of any indexed key attribute, one write is required to
  update the values of the projected attributes into the index." (So a write that changes
  nothing the index holds costs the index nothing.)
- "All of these factors assume that the size of each item in the index is less than or equal
  to the 1 KB item size ... Larger index entries require additional write capacity units."
An index entry is "The size in bytes of the base table primary key (partition key and sort
key) + The size in bytes of the index key attribute + The size in bytes of the projected
attributes (if any) + 100 bytes of overhead per index item" ("Storage considerations"). Those
100 bytes are stated for storage, like the table item's 100 bytes that the item-size page
limits to "storage billing purposes"; the meter leaves them out of capacity by default
(``index_entry_overhead=0``; pass 100 to count them).

Index writes inside a transaction are NOT doubled. AWS's pages never double them: the
transaction page doubles the reads or writes "of every item in the transaction" and says "Changes
made with transactions are propagated to global secondary indexes (GSIs), DynamoDB streams, and
backups eventually, after the transaction completes successfully", i.e. the index write is the
ordinary asynchronous propagation, outside the prepare/commit pair. Measurements of the real
service published by the dynoxide emulator (github.com/nubo-db/dynoxide pull 188: "the
transactional 2x factor applies to the base table arm alone. An index arm inside a transaction
costs what the same write costs outside one") agree. DynamoDB Local doubles them.
``transaction_index_factor=2`` reproduces DynamoDB Local's reading.

Uncertain (rules AWS does not state; the choice made here):
- A canceled transaction (``TransactionCanceledException``) is charged as if every action had
  run on the table (2 units per KB each) and nothing on the indexes, following the
  failed-conditional-write rule and the prepare phase reading every item; AWS's developer guide
  does not give the figure, and the response carries no ConsumedCapacity.
- A ConditionCheck is charged as a transactional write of the checked item (2 units per KB, at
  least 2); third-party measurements of the service report "A standalone ConditionCheck costs
  2 WCU, billed as write rather than read" (github.com/paritysuite/dynamodb-conformance pull 67).
- Number sizes follow AWS's "approximately" (ceil(significant digits / 2) + 1 bytes).
- A write's "before" and "after" are read around the call: concurrent writers to the same
  items would blur them (the benchmarks are single-threaded).
"""

from __future__ import annotations

import contextlib
import math
import re
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

KB = 1024
READ_UNIT = 4 * KB  # one strongly consistent read of up to 4 KB
WRITE_UNIT = KB  # one standard write of up to 1 KB

# ------------------------------------------------------------------ item sizes


def number_size(text: str) -> int:
    """Bytes of a number: 1 byte per two significant digits, plus 1 (leading and trailing zeroes
    trimmed; 0 counts as one digit)."""
    mantissa = text.strip().lstrip("+-").lower().split("e")[0]
    digits = mantissa.replace(".", "").strip("0")
    return math.ceil((len(digits) or 1) / 2) + 1


def _raw_bytes(value: Any) -> int:
    return len(value.encode()) if isinstance(value, str) else len(value)


def value_size(value: Mapping[str, Any]) -> int:
    """Bytes of one attribute value in the low-level form ({"S": ...}, {"N": ...}, ...), without its name."""
    (kind, raw), = value.items()
    if kind == "S":
        return len(raw.encode())
    if kind == "N":
        return number_size(raw)
    if kind == "B":
        return _raw_bytes(raw)
    if kind in ("BOOL", "NULL"):
        return 1
    if kind == "L":
        return 3 + sum(value_size(element) + 1 for element in raw)
    if kind == "M":
        return 3 + sum(len(name.encode()) + value_size(element) + 1 for name, element in raw.items())
    if kind == "SS":
        return sum(len(element.encode()) for element in raw)
    if kind == "NS":
        return sum(number_size(element) for element in raw)
    if kind == "BS":
        return sum(_raw_bytes(element) for element in raw)
    raise ValueError(f"unknown DynamoDB type {kind!r}")


def attribute_size(name: str, value: Mapping[str, Any]) -> int:
    """Bytes DynamoDB counts for one attribute: its name (UTF-8) plus its value."""
    return len(name.encode()) + value_size(value)


def item_size(item: Mapping[str, Any] | None) -> int:
    """Bytes of an item in the low-level form; 0 for no item."""
    return sum(attribute_size(name, value) for name, value in (item or {}).items())


def read_units(size: int, *, consistent: bool) -> float:
    """Units of one read of ``size`` bytes: per 4 KB, at least one; half when eventually consistent."""
    units = max(1, math.ceil(size / READ_UNIT))
    return float(units) if consistent else units / 2


def write_units(size: int) -> float:
    """Units of one standard write of ``size`` bytes: per 1 KB, at least one."""
    return float(max(1, math.ceil(size / WRITE_UNIT)))


# ------------------------------------------------------------------ the table's shape


@dataclass(frozen=True)
class Index:
    name: str
    keys: tuple[str, ...]  # its partition key, then its sort key if any
    projection: str  # ALL, KEYS_ONLY or INCLUDE
    included: frozenset[str] = frozenset()  # INCLUDE's NonKeyAttributes


@dataclass(frozen=True)
class Table:
    name: str
    keys: tuple[str, ...]
    indexes: tuple[Index, ...]

    @classmethod
    def from_definition(cls, definition: Mapping[str, Any]) -> "Table":
        """From ``CreateTable``'s arguments or ``DescribeTable``'s ``Table``: key schema and indexes."""

        def key_names(schema) -> tuple[str, ...]:
            ordered = sorted(schema, key=lambda k: k["KeyType"] != "HASH")
            return tuple(k["AttributeName"] for k in ordered)

        indexes = []
        for index in [*definition.get("GlobalSecondaryIndexes", []), *definition.get("LocalSecondaryIndexes", [])]:
            projection = index.get("Projection", {})
            indexes.append(Index(index["IndexName"], key_names(index["KeySchema"]),
                                 projection.get("ProjectionType", "ALL"),
                                 frozenset(projection.get("NonKeyAttributes", []))))
        return cls(definition["TableName"], key_names(definition["KeySchema"]), tuple(indexes))

    def key_of(self, item: Mapping[str, Any]) -> dict:
        """The item's primary key (what it has of it: a malformed request is DynamoDB's to refuse)."""
        return {name: item[name] for name in self.keys if name in item}

    def index(self, name: str) -> Index:
        for index in self.indexes:
            if index.name == name:
                return index
        raise KeyError(f"{self.name} has no index {name!r}")

    def entry(self, index: Index, item: Mapping[str, Any] | None) -> dict | None:
        """The item's entry in ``index`` (what the index stores of it), or None when the item is
        not in the index (no item, or an index key attribute missing: a sparse index)."""
        if item is None or any(name not in item for name in index.keys):
            return None
        if index.projection == "ALL":
            return dict(item)
        wanted = set(self.keys) | set(index.keys) | (index.included if index.projection == "INCLUDE" else set())
        return {name: value for name, value in item.items() if name in wanted}


# ------------------------------------------------------------------ what was charged


@dataclass(frozen=True)
class IndexWrite:
    """One write to an index: ``kind`` is "put" (the entry appears or moves in), "delete" (it goes
    or moves out) or "update" (a projected attribute changed under the same index key)."""

    index: str
    kind: str
    size: int
    units: float
    partition: str = ""  # the value of the entry's index partition key (which index partition was written)


@dataclass(frozen=True)
class ItemCharge:
    """What one item cost in a call. ``action``: put, update, delete, check (a transaction's
    ConditionCheck), get or read (an item a Query or Scan page read: the page is rounded as a
    whole, so its units are the call's, not the item's). ``size``: the bytes the units were
    computed on (for a write the larger of before and after)."""

    table: str
    key: str
    action: str
    size: int
    read_units: float = 0.0
    write_units: float = 0.0
    index_writes: tuple[IndexWrite, ...] = ()

    @property
    def index_write_units(self) -> float:
        return sum(write.units for write in self.index_writes)


@dataclass(frozen=True)
class Call:
    """One metered API call. ``outcome``: "ok", "condition failed" (a single-item write whose
    condition was false) or "canceled" (a canceled transaction)."""

    operation: str
    label: str | None
    outcome: str
    read_units: float
    write_units: float
    items: tuple[ItemCharge, ...] = ()

    @property
    def index_write_units(self) -> float:
        return sum(item.index_write_units for item in self.items)

    @property
    def index_units(self) -> dict[str, float]:
        """Index write units by index name."""
        found: dict[str, float] = {}
        for item in self.items:
            for write in item.index_writes:
                found[write.index] = found.get(write.index, 0.0) + write.units
        return found

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(item.key for item in self.items)


@dataclass(frozen=True)
class Charge:
    """The calls charged over a stretch of time, and their sums."""

    calls: tuple[Call, ...] = ()

    @property
    def read_units(self) -> float:
        return sum(call.read_units for call in self.calls)

    @property
    def write_units(self) -> float:
        """Write units on the tables themselves."""
        return sum(call.write_units for call in self.calls)

    @property
    def index_write_units(self) -> float:
        return sum(call.index_write_units for call in self.calls)

    @property
    def total_write_units(self) -> float:
        return self.write_units + self.index_write_units

    def __add__(self, other: "Charge") -> "Charge":
        return Charge(self.calls + other.calls)

    def labelled(self, label: str | None) -> "Charge":
        return Charge(tuple(call for call in self.calls if call.label == label))

    def by_label(self) -> dict[str | None, "Charge"]:
        return {label: self.labelled(label) for label in dict.fromkeys(call.label for call in self.calls)}

    def by_operation(self) -> dict[str, "Charge"]:
        found: dict[str, list[Call]] = {}
        for call in self.calls:
            found.setdefault(call.operation, []).append(call)
        return {operation: Charge(tuple(calls)) for operation, calls in found.items()}

    def table(self) -> str:
        """A Markdown table of the calls: where the units went."""
        rows = ["| step | operation | outcome | items | read units | write units | index write units |",
                "|---|---|---|---|---|---|---|"]
        for call in self.calls:
            items = "; ".join(f"{item.action} {item.key} ({item.size} B)" for item in call.items)
            index = ", ".join(f"{name} {units:g}" for name, units in call.index_units.items())
            rows.append(f"| {call.label or ''} | {call.operation} | {call.outcome} | {items} | "
                        f"{call.read_units:g} | {call.write_units:g} | {index or 0} |")
        rows.append(f"| total | | | | {self.read_units:g} | {self.write_units:g} | {self.index_write_units:g} |")
        return "\n".join(rows)


@dataclass
class Step:
    """A labelled stretch (``with meter.label(name) as step``): its charge once the block is over."""

    label: str
    calls: list[Call] = field(default_factory=list)

    @property
    def charge(self) -> Charge:
        return Charge(tuple(self.calls))


# ------------------------------------------------------------------ the meter


def _error_code(error: Exception) -> str | None:
    response = getattr(error, "response", None)
    return response.get("Error", {}).get("Code") if isinstance(response, dict) else None


def _plain_value(typed: Mapping[str, Any]) -> str:
    """A key attribute's value as text (``{"S": "x"}`` -> ``x``)."""
    (_, value), = typed.items()
    return str(value)


def _describe_key(key: Mapping[str, Any]) -> str:
    def plain(value: Mapping[str, Any]) -> str:
        (kind, raw), = value.items()
        return raw.hex() if isinstance(raw, bytes) else str(raw)

    return ", ".join(f"{name}={plain(value)}" for name, value in key.items())


def _frozen(value: Any) -> Any:
    """A hashable copy of a low-level attribute value (to match keys)."""
    if isinstance(value, Mapping):
        return tuple(sorted((k, _frozen(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


_PROJECTING = ("ProjectionExpression", "AttributesToGet", "Select", "FilterExpression", "QueryFilter",
               "ScanFilter", "ConditionalOperator")
_PLACEHOLDER = re.compile(r"[#:][A-Za-z0-9_]+")
_UNMETERED_DATA_CALLS = ("execute_statement", "batch_execute_statement", "execute_transaction")
_METERED = ("get_item", "batch_get_item", "transact_get_items", "query", "scan", "put_item", "update_item",
            "delete_item", "batch_write_item", "transact_write_items")


class Meter:
    """A DynamoDB low-level client that charges every data call what AWS bills for it.

    ``client``: the raw boto3 client. ``tables``: the ``CreateTable`` arguments of the tables in
    use (one dict or several); a table not given is described on first use. Non-data calls
    (``describe_table``, ``get_waiter``, ``exceptions``, ``meta``, ...) pass through unmetered.
    """

    def __init__(self, client, tables: Mapping[str, Any] | Iterable[Mapping[str, Any]] = (), *,
                 index_entry_overhead: int = 0, transaction_index_factor: int = 1) -> None:
        self._client = client
        definitions = [tables] if isinstance(tables, Mapping) else list(tables)
        self._tables = {d["TableName"]: Table.from_definition(d) for d in definitions}
        self._index_entry_overhead = index_entry_overhead
        self._transaction_index_factor = transaction_index_factor
        self._calls: list[Call] = []
        self._steps: list[Step] = []

    # -------------------------------------------------------------- the public side

    @property
    def raw(self):
        """The client underneath (its calls are not metered)."""
        return self._client

    def take(self) -> Charge:
        """The charge since the last take, and start again from nothing."""
        found, self._calls = Charge(tuple(self._calls)), []
        return found

    def peek(self) -> Charge:
        """The charge since the last take, without resetting."""
        return Charge(tuple(self._calls))

    @contextlib.contextmanager
    def label(self, name: str) -> Iterator[Step]:
        """Label the calls made in the block ``name`` (the innermost label wins); the step's
        ``charge`` holds the calls made in the block."""
        step = Step(name)
        self._steps.append(step)
        try:
            yield step
        finally:
            self._steps.remove(step)

    def table(self, name: str) -> Table:
        if name not in self._tables:
            self._tables[name] = Table.from_definition(self._client.describe_table(TableName=name)["Table"])
        return self._tables[name]

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):  # the meter's own attributes (not set yet while it is being built)
            raise AttributeError(name)
        if name in _UNMETERED_DATA_CALLS:
            raise NotImplementedError(f"{name} (PartiQL) is not metered")
        return getattr(self._client, name)

    def get_paginator(self, operation_name: str):
        if operation_name in _METERED:
            raise NotImplementedError(f"a paginator would call {operation_name} past the meter: page by hand")
        return self._client.get_paginator(operation_name)

    # -------------------------------------------------------------- bookkeeping

    def _record(self, operation: str, items: Iterable[ItemCharge], *, outcome: str = "ok",
                read: float | None = None) -> None:
        items = tuple(items)
        call = Call(operation, self._steps[-1].label if self._steps else None, outcome,
                    sum(item.read_units for item in items) if read is None else read,
                    sum(item.write_units for item in items), items)
        self._calls.append(call)
        for step in self._steps:
            step.calls.append(call)

    def _get(self, table: str, key: Mapping[str, Any]) -> dict | None:
        """The item at ``key``, read strongly consistently past the meter (not charged); None for
        an incomplete key (the call it was read for will be refused)."""
        if any(name not in key for name in self.table(table).keys):
            return None
        return self._client.get_item(TableName=table, Key=dict(key), ConsistentRead=True).get("Item")

    def _entry_size(self, entry: Mapping[str, Any]) -> int:
        return item_size(entry) + self._index_entry_overhead

    def _index_writes(self, table: Table, before: dict | None, after: dict | None,
                      factor: int = 1) -> tuple[IndexWrite, ...]:
        """The writes each index of ``table`` takes when the item goes from ``before`` to ``after``."""
        writes = []
        for index in table.indexes:
            old, new = table.entry(index, before), table.entry(index, after)
            if old is None and new is None or old == new:
                continue
            if old is None:
                moves = [("put", self._entry_size(new), new)]
            elif new is None:
                moves = [("delete", self._entry_size(old), old)]
            elif any(old[name] != new[name] for name in index.keys):
                moves = [("delete", self._entry_size(old), old), ("put", self._entry_size(new), new)]
            else:
                moves = [("update", max(self._entry_size(old), self._entry_size(new)), new)]
            writes += [IndexWrite(index.name, kind, size, write_units(size) * factor,
                                  _plain_value(entry[index.keys[0]])) for kind, size, entry in moves]
        return tuple(writes)

    def _write(self, table: Table, key: Mapping[str, Any], action: str, before: dict | None, after: dict | None, *,
               applied: bool, transactional: bool = False) -> ItemCharge:
        """The charge of one item's write from ``before`` to ``after`` (None: no item). ``applied``:
        it happened; otherwise (a false condition, a canceled transaction) only the table pays."""
        size = max(item_size(before), item_size(after))
        factor = 2 if transactional else 1
        index_writes = (self._index_writes(table, before, after, self._transaction_index_factor if transactional
                                           else 1) if applied and action != "check" else ())
        return ItemCharge(table.name, _describe_key(key), action, size, write_units=write_units(size) * factor,
                          index_writes=index_writes)

    # -------------------------------------------------------------- reads

    def get_item(self, **kwargs: Any) -> dict:
        response = self._client.get_item(**kwargs)
        table = self.table(kwargs["TableName"])
        item = response.get("Item")
        if item is not None and any(name in kwargs for name in _PROJECTING):
            item = self._get(table.name, kwargs["Key"])  # a projection does not lower the size
        size = item_size(item)
        self._record("GetItem", [ItemCharge(table.name, _describe_key(kwargs["Key"]), "get", size,
                                            read_units(size, consistent=bool(kwargs.get("ConsistentRead"))))])
        return response

    def batch_get_item(self, **kwargs: Any) -> dict:
        response = self._client.batch_get_item(**kwargs)
        unprocessed = response.get("UnprocessedKeys", {})
        charges = []
        for name, wanted in kwargs["RequestItems"].items():
            table = self.table(name)
            returned = {_frozen(table.key_of(item)): item for item in response.get("Responses", {}).get(name, [])}
            skipped = {_frozen(key) for key in unprocessed.get(name, {}).get("Keys", [])}
            projected = any(option in wanted for option in _PROJECTING)
            for key in wanted["Keys"]:
                if _frozen(key) in skipped:
                    continue
                item = returned.get(_frozen(key))
                if item is not None and projected:
                    item = self._get(name, key)
                size = item_size(item)
                charges.append(ItemCharge(name, _describe_key(key), "get", size,
                                          read_units(size, consistent=bool(wanted.get("ConsistentRead")))))
        self._record("BatchGetItem", charges)
        return response

    def transact_get_items(self, **kwargs: Any) -> dict:
        response = self._client.transact_get_items(**kwargs)
        charges = []
        for action, answer in zip(kwargs["TransactItems"], response.get("Responses", [])):
            get = action["Get"]
            item = answer.get("Item")
            if item is not None and any(option in get for option in _PROJECTING):
                item = self._get(get["TableName"], get["Key"])
            size = item_size(item)
            charges.append(ItemCharge(get["TableName"], _describe_key(get["Key"]), "get", size,
                                      2 * read_units(size, consistent=True)))
        self._record("TransactGetItems", charges)
        return response

    def query(self, **kwargs: Any) -> dict:
        response = self._client.query(**kwargs)
        self._charge_page("Query", kwargs, response, self._client.query, ("KeyConditionExpression",))
        return response

    def scan(self, **kwargs: Any) -> dict:
        response = self._client.scan(**kwargs)
        self._charge_page("Scan", kwargs, response, self._client.scan, ())
        return response

    def _charge_page(self, operation: str, kwargs: dict, response: dict, call, expressions: tuple[str, ...]) -> None:
        """Charge one Query or Scan page on the items it read: re-read past the meter without the
        filter and projection when the request had either (they change what is returned, not what
        is read)."""
        table = self.table(kwargs["TableName"])
        index = table.index(kwargs["IndexName"]) if "IndexName" in kwargs else None
        items = response.get("Items")
        if items is None or any(option in kwargs for option in _PROJECTING):
            items = call(**self._unfiltered(kwargs, expressions)).get("Items", [])
        if index is not None:
            entries = [table.entry(index, item) or item for item in items]
            sizes = [item_size(entry) for entry in entries]
            keys = [{**table.key_of(item), **{k: item[k] for k in index.keys}} for item in items]
        else:
            sizes = [item_size(item) for item in items]
            keys = [table.key_of(item) for item in items]
        units = read_units(sum(sizes), consistent=bool(kwargs.get("ConsistentRead")))
        self._record(operation, [ItemCharge(table.name, _describe_key(key), "read", size)
                                 for key, size in zip(keys, sizes)], read=units)

    @staticmethod
    def _unfiltered(kwargs: dict, expressions: tuple[str, ...]) -> dict:
        """The same page request without filter, projection or Select, and only the placeholders
        the remaining expressions use (DynamoDB rejects unused ones)."""
        plain = {k: v for k, v in kwargs.items() if k not in _PROJECTING and k != "ReturnConsumedCapacity"}
        used = set()
        for name in expressions:
            used |= set(_PLACEHOLDER.findall(plain.get(name, "")))
        for option in ("ExpressionAttributeNames", "ExpressionAttributeValues"):
            kept = {k: v for k, v in plain.pop(option, {}).items() if k in used}
            if kept:
                plain[option] = kept
        return plain

    # -------------------------------------------------------------- writes

    def put_item(self, **kwargs: Any) -> dict:
        table = self.table(kwargs["TableName"])
        key = table.key_of(kwargs["Item"])
        return self._single("PutItem", self._client.put_item, kwargs, table, key, "put", self._get(table.name, key),
                            lambda: kwargs["Item"], lambda: kwargs["Item"])

    def update_item(self, **kwargs: Any) -> dict:
        table = self.table(kwargs["TableName"])
        before = self._get(table.name, kwargs["Key"])
        return self._single("UpdateItem", self._client.update_item, kwargs, table, kwargs["Key"], "update", before,
                            lambda: self._get(table.name, kwargs["Key"]),
                            lambda: _would_be(kwargs, before))

    def delete_item(self, **kwargs: Any) -> dict:
        table = self.table(kwargs["TableName"])
        before = self._get(table.name, kwargs["Key"])
        return self._single("DeleteItem", self._client.delete_item, kwargs, table, kwargs["Key"], "delete", before,
                            lambda: None, lambda: None)

    def _single(self, operation: str, call, kwargs: dict, table: Table, key: dict, action: str,
                before: dict | None, after, would_be) -> dict:
        """Make one single-item write; ``after()`` is the item once written, ``would_be()`` the item
        it would have been had its condition held."""
        try:
            response = call(**kwargs)
        except Exception as error:
            if _error_code(error) == "ConditionalCheckFailedException":
                self._record(operation, [self._write(table, key, action, before, would_be(), applied=False)],
                             outcome="condition failed")
            raise
        self._record(operation, [self._write(table, key, action, before, after(), applied=True)])
        return response

    def batch_write_item(self, **kwargs: Any) -> dict:
        befores = {}
        for name, requests in kwargs["RequestItems"].items():
            table = self.table(name)
            for request in requests:
                key = self._request_key(table, request)
                befores[(name, _frozen(key))] = self._get(name, key)
        response = self._client.batch_write_item(**kwargs)
        unprocessed = response.get("UnprocessedItems", {})
        charges = []
        for name, requests in kwargs["RequestItems"].items():
            table = self.table(name)
            skipped = {_frozen(self._request_key(table, r)) for r in unprocessed.get(name, [])}
            for request in requests:
                key = _frozen(self._request_key(table, request))
                if key in skipped:
                    continue
                before, plain_key = befores[(name, key)], self._request_key(table, request)
                if "PutRequest" in request:
                    charges.append(self._write(table, plain_key, "put", before, request["PutRequest"]["Item"],
                                               applied=True))
                else:
                    charges.append(self._write(table, plain_key, "delete", before, None, applied=True))
        self._record("BatchWriteItem", charges)
        return response

    @staticmethod
    def _request_key(table: Table, request: Mapping[str, Any]) -> dict:
        if "PutRequest" in request:
            return table.key_of(request["PutRequest"]["Item"])
        return dict(request["DeleteRequest"]["Key"])

    def transact_write_items(self, **kwargs: Any) -> dict:
        actions = []
        for entry in kwargs["TransactItems"]:
            (kind, action), = entry.items()
            table = self.table(action["TableName"])
            key = table.key_of(action["Item"]) if kind == "Put" else action["Key"]
            actions.append((kind, action, table, key, self._get(table.name, key)))
        try:
            response = self._client.transact_write_items(**kwargs)
        except Exception as error:
            if _error_code(error) == "TransactionCanceledException":
                self._record("TransactWriteItems", [self._transact_charge(kind, action, table, key, before,
                                                                          applied=False)
                                                    for kind, action, table, key, before in actions],
                             outcome="canceled")
            raise
        self._record("TransactWriteItems", [self._transact_charge(kind, action, table, key, before, applied=True)
                                            for kind, action, table, key, before in actions])
        return response

    def _transact_charge(self, kind: str, action: dict, table: Table, key: dict, before: dict | None, *,
                         applied: bool) -> ItemCharge:
        if kind == "Put":
            after, name = action["Item"], "put"
        elif kind == "Update":
            after = self._get(table.name, key) if applied else _would_be(action, before)
            name = "update"
        elif kind == "Delete":
            after, name = None, "delete"
        else:  # ConditionCheck: the checked item takes part in both phases, and is not written
            after, name = before, "check"
        return self._write(table, key, name, before, after, applied=applied, transactional=True)


def _would_be(update: Mapping[str, Any], before: dict | None) -> dict | None:
    """The item an UpdateItem (or a transaction's Update) would have written over ``before``; the
    item itself when the expression is beyond :func:`apply_update` (or absent)."""
    expression = update.get("UpdateExpression")
    start = dict(before) if before is not None else dict(update["Key"])
    if not expression:
        return before
    after = apply_update(start, expression, update.get("ExpressionAttributeNames", {}),
                         update.get("ExpressionAttributeValues", {}))
    return after if after is not None else before


# ------------------------------------------------------------------ update expressions

_TOKEN = re.compile(r"\s*(#[A-Za-z0-9_]+|:[A-Za-z0-9_]+|[A-Za-z_][A-Za-z0-9_]*|\d+|[\[\]().,=+\-])")
_CLAUSES = ("SET", "REMOVE", "ADD", "DELETE")


class _Unsupported(Exception):
    pass


def apply_update(item: dict, expression: str, names: Mapping[str, str], values: Mapping[str, Any]) -> dict | None:
    """``item`` after the UpdateExpression, for top-level attributes: SET (with ``+``, ``-``,
    ``if_not_exists`` and ``list_append``), REMOVE, ADD and DELETE. None for what it does not
    know (nested paths such as ``a.b`` or ``a[0]``)."""
    tokens = []
    position = 0
    expression = expression.strip()
    while position < len(expression):
        match = _TOKEN.match(expression, position)
        if match is None:
            return None
        tokens.append(match.group(1))
        position = match.end()
    result = dict(item)
    try:
        _Updater(tokens, names, values, result).run()
    except (_Unsupported, KeyError, IndexError, ValueError, TypeError, AttributeError, ArithmeticError):
        return None
    return result


class _Updater:
    def __init__(self, tokens: list[str], names: Mapping[str, str], values: Mapping[str, Any], item: dict) -> None:
        self.tokens, self.names, self.values, self.item = tokens, names, values, item
        self.at = 0

    def peek(self) -> str | None:
        return self.tokens[self.at] if self.at < len(self.tokens) else None

    def take(self, expected: str | None = None) -> str:
        token = self.tokens[self.at]
        if expected is not None and token != expected:
            raise _Unsupported(f"expected {expected}, found {token}")
        self.at += 1
        return token

    def run(self) -> None:
        while self.peek() is not None:
            clause = self.take().upper()
            if clause not in _CLAUSES:
                raise _Unsupported(clause)
            while True:
                getattr(self, clause.lower())()
                if self.peek() != ",":
                    break
                self.take(",")

    def path(self) -> str:
        token = self.take()
        name = self.names[token] if token.startswith("#") else token
        if self.peek() in (".", "["):
            raise _Unsupported("nested path")
        return name

    def operand(self) -> dict | None:
        token = self.peek()
        if token.startswith(":"):
            return self.values[self.take()]
        if token.lower() in ("if_not_exists", "list_append"):
            function = self.take().lower()
            self.take("(")
            first = self.value()
            self.take(",")
            second = self.value()
            self.take(")")
            if function == "if_not_exists":
                return first if first is not None else second
            return {"L": [*first["L"], *second["L"]]}
        return self.item.get(self.path())

    def value(self) -> dict | None:
        left = self.operand()
        if self.peek() in ("+", "-"):
            sign = self.take()
            right = self.operand()
            total = Decimal(left["N"]) + (Decimal(right["N"]) if sign == "+" else -Decimal(right["N"]))
            return {"N": str(total)}
        return left

    def set(self) -> None:
        name = self.path()
        self.take("=")
        value = self.value()
        if value is None:
            raise _Unsupported("SET from a missing attribute")
        self.item[name] = value

    def remove(self) -> None:
        self.item.pop(self.path(), None)

    def add(self) -> None:
        name = self.path()
        value = self.values[self.take()]
        current = self.item.get(name)
        (kind, raw), = value.items()
        if current is None:
            self.item[name] = value
        elif kind == "N":
            self.item[name] = {"N": str(Decimal(current["N"]) + Decimal(raw))}
        else:
            self.item[name] = {kind: [*current[kind], *[v for v in raw if v not in current[kind]]]}

    def delete(self) -> None:
        name = self.path()
        value = self.values[self.take()]
        current = self.item.get(name)
        if current is None:
            return
        (kind, raw), = value.items()
        left = [v for v in current[kind] if v not in raw]
        if left:
            self.item[name] = {kind: left}
        else:
            del self.item[name]
