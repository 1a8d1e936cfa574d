"""The capacity meter charges what AWS bills, by AWS's own rules and worked examples (the figures
quoted in benchmarks/meter.py). Items are built to an exact byte size, so that each figure sits on
one side of a rounding boundary and a wrong rule changes it."""

from __future__ import annotations

import uuid

import boto3
import pytest
from moto import mock_aws

from benchmarks.meter import (Charge, Meter, apply_update, attribute_size, item_size, number_size, read_units,
                              value_size, write_units)
from chalicelib.store.dynamodb import DynamoStore
from chalicelib.store.schema import create_table_if_missing, table_definition

TABLE = "meter-test"


def definition(name: str = TABLE) -> dict:
    """A table with one global secondary index of each projection type."""
    return {
        "TableName": name,
        "AttributeDefinitions": [{"AttributeName": a, "AttributeType": t} for a, t in
                                 [("PK", "S"), ("SK", "S"), ("g_all", "S"), ("g_keys", "S"), ("rank", "N"),
                                  ("g_incl", "S")]],
        "KeySchema": [{"AttributeName": "PK", "KeyType": "HASH"}, {"AttributeName": "SK", "KeyType": "RANGE"}],
        "BillingMode": "PAY_PER_REQUEST",
        "GlobalSecondaryIndexes": [
            {"IndexName": "all_idx", "KeySchema": [{"AttributeName": "g_all", "KeyType": "HASH"}],
             "Projection": {"ProjectionType": "ALL"}},
            {"IndexName": "keys_idx", "KeySchema": [{"AttributeName": "g_keys", "KeyType": "HASH"},
                                                    {"AttributeName": "rank", "KeyType": "RANGE"}],
             "Projection": {"ProjectionType": "KEYS_ONLY"}},
            {"IndexName": "incl_idx", "KeySchema": [{"AttributeName": "g_incl", "KeyType": "HASH"}],
             "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["note"]}},
        ],
    }


def item(size: int, pk: str = "p", sk: str = "s", **attributes: dict) -> dict:
    """An item of exactly ``size`` bytes: its key, ``attributes``, and a string ``filler`` filling the rest."""
    found = {"PK": {"S": pk}, "SK": {"S": sk}, **attributes}
    pad = size - item_size(found) - len("filler")
    assert pad >= 0, f"{size} B is too small for {found}"
    found["filler"] = {"S": "x" * pad}
    assert item_size(found) == size
    return found


def key(pk: str = "p", sk: str = "s") -> dict:
    return {"PK": {"S": pk}, "SK": {"S": sk}}


@pytest.fixture
def raw():
    with mock_aws():
        client = boto3.client("dynamodb", region_name="us-east-1")
        client.create_table(**definition())
        yield client


@pytest.fixture
def meter(raw):
    return Meter(raw, definition())


def put(raw, *items: dict) -> None:
    """Items written past the meter (set-up, not charged)."""
    for one in items:
        raw.put_item(TableName=TABLE, Item=one)


# ------------------------------------------------------------------ item sizes


def test_strings_count_utf8_bytes_of_name_and_value():
    assert attribute_size("name", {"S": "héllo"}) == 4 + 6
    assert attribute_size("ñ", {"S": ""}) == 2


def test_binary_counts_raw_bytes():
    assert attribute_size("b", {"B": b"\x00\x01\x02"}) == 1 + 3


def test_numbers_count_one_byte_per_two_significant_digits_plus_one():
    assert number_size("12345") == 3 + 1
    assert number_size("-0.0012300") == 2 + 1  # leading and trailing zeroes trimmed: 123
    assert number_size("1000") == 1 + 1
    assert number_size("1.5e3") == 1 + 1
    assert attribute_size("n", {"N": "123456"}) == 1 + 3 + 1


def test_booleans_and_nulls_are_one_byte():
    assert attribute_size("flag", {"BOOL": False}) == 5
    assert attribute_size("x", {"NULL": True}) == 2


def test_lists_and_maps_take_3_bytes_and_1_byte_per_element():
    assert value_size({"L": []}) == 3
    assert value_size({"L": [{"S": "ab"}, {"N": "1"}]}) == 3 + (2 + 1) + (2 + 1)
    assert value_size({"M": {"k": {"BOOL": True}}}) == 3 + (1 + 1 + 1)  # element names count
    assert value_size({"M": {"in": {"L": [{"NULL": True}]}}}) == 3 + (2 + (3 + 1 + 1) + 1)


def test_sets_are_the_sum_of_their_elements():
    assert value_size({"SS": ["a", "bc"]}) == 3
    assert value_size({"NS": ["1", "100", "12345"]}) == 2 + 2 + 4
    assert value_size({"BS": [b"ab", b"c"]}) == 3


def test_unit_rounding():
    assert [read_units(n, consistent=True) for n in (0, 1, 4096, 4097)] == [1, 1, 1, 2]
    assert [read_units(n, consistent=False) for n in (0, 4096, 4097)] == [0.5, 0.5, 1]
    assert [write_units(n) for n in (0, 1024, 1025, 1536)] == [1, 1, 2, 2]


# ------------------------------------------------------------------ reads


def test_get_item_of_3_5_kb_is_one_unit_strongly_and_half_eventually(raw, meter):
    put(raw, item(3500))
    meter.get_item(TableName=TABLE, Key=key(), ConsistentRead=True)
    meter.get_item(TableName=TABLE, Key=key())  # eventually consistent, the default
    assert [call.read_units for call in meter.take().calls] == [1.0, 0.5]


def test_get_item_of_10_kb_rounds_to_12_kb(raw, meter):
    put(raw, item(10 * 1024))
    meter.get_item(TableName=TABLE, Key=key(), ConsistentRead=True)
    assert meter.take().read_units == 3


def test_an_item_not_found_still_costs_the_minimum(meter):
    meter.get_item(TableName=TABLE, Key=key("nobody"), ConsistentRead=True)
    meter.get_item(TableName=TABLE, Key=key("nobody"))
    assert [call.read_units for call in meter.take().calls] == [1.0, 0.5]


def test_a_projection_does_not_lower_the_read(raw, meter):
    put(raw, item(8 * 1024 + 1))
    response = meter.get_item(TableName=TABLE, Key=key(), ConsistentRead=True, ProjectionExpression="PK")
    assert response["Item"] == {"PK": {"S": "p"}}
    assert meter.take().read_units == 3


def test_batch_get_item_rounds_each_item(raw, meter):
    """AWS's example: 1.5 KB and 6.5 KB are read as 4 KB + 8 KB; a key not found costs the minimum."""
    put(raw, item(1536, sk="a"), item(6656, sk="b"))
    keys = [key(sk="a"), key(sk="b"), key(sk="none")]
    meter.batch_get_item(RequestItems={TABLE: {"Keys": keys, "ConsistentRead": True}})
    meter.batch_get_item(RequestItems={TABLE: {"Keys": keys}})
    strong, eventual = meter.take().calls
    assert [i.read_units for i in strong.items] == [1, 2, 1]
    assert (strong.read_units, eventual.read_units) == (4, 2)


def test_transact_get_items_is_two_units_per_4_kb(raw, meter):
    put(raw, item(1536, sk="a"), item(5000, sk="b"))
    meter.transact_get_items(TransactItems=[{"Get": {"TableName": TABLE, "Key": key(sk=s)}} for s in "ab"] +
                             [{"Get": {"TableName": TABLE, "Key": key(sk="none")}}])
    assert [i.read_units for i in meter.take().calls[0].items] == [2, 4, 2]


def test_query_rounds_the_page_as_a_whole(raw, meter):
    """Three 1.5 KB items: 4.5 KB read as one, rounded to 8 KB (and not 3 units, one per item)."""
    put(raw, *[item(1536, sk=s) for s in "abc"])
    query = {"TableName": TABLE, "KeyConditionExpression": "PK = :p", "ExpressionAttributeValues": {":p": {"S": "p"}}}
    assert len(meter.query(**query, ConsistentRead=True)["Items"]) == 3
    meter.query(**query)
    assert [call.read_units for call in meter.take().calls] == [2.0, 1.0]


def test_a_filter_does_not_lower_what_the_query_reads(raw, meter):
    put(raw, *[item(1536, sk=s) for s in "abc"])
    response = meter.query(TableName=TABLE, KeyConditionExpression="PK = :p", FilterExpression="SK = :none",
                           ExpressionAttributeValues={":p": {"S": "p"}, ":none": {"S": "none"}},
                           ProjectionExpression="SK", ConsistentRead=True)
    assert response["Items"] == []
    charge = meter.take()
    assert charge.read_units == 2
    assert [i.size for i in charge.calls[0].items] == [1536] * 3


def test_an_empty_query_costs_the_minimum(meter):
    meter.query(TableName=TABLE, KeyConditionExpression="PK = :p", ExpressionAttributeValues={":p": {"S": "no"}},
                ConsistentRead=True)
    assert meter.take().read_units == 1


def test_each_page_is_charged(raw, meter):
    put(raw, *[item(3000, sk=s) for s in "abc"])
    meter.query(TableName=TABLE, KeyConditionExpression="PK = :p", ExpressionAttributeValues={":p": {"S": "p"}},
                Limit=2, ConsistentRead=True)
    assert meter.take().read_units == 2  # 6,000 B on the first page; a page is rounded by itself


def test_scan_counts_the_items_it_evaluates(raw, meter):
    put(raw, item(2000, pk="a"), item(2000, pk="b"), item(2000, pk="c"))
    meter.scan(TableName=TABLE, FilterExpression="PK = :a", ExpressionAttributeValues={":a": {"S": "a"}},
               ConsistentRead=True)
    assert meter.take().read_units == 2  # 6,000 B evaluated, though one item is returned


def test_a_query_on_an_index_reads_its_entries(raw, meter):
    """The same three 3 KB items: their KEYS_ONLY entries are tiny, their ALL entries whole."""
    put(raw, *[item(3000, sk=s, g_all={"S": "a"}, g_keys={"S": "k"}, rank={"N": "1"}) for s in "abc"])
    meter.query(TableName=TABLE, IndexName="keys_idx", KeyConditionExpression="g_keys = :k",
                ExpressionAttributeValues={":k": {"S": "k"}})
    meter.query(TableName=TABLE, IndexName="all_idx", KeyConditionExpression="g_all = :a",
                ExpressionAttributeValues={":a": {"S": "a"}})
    keys_only, everything = meter.take().calls
    entry = attribute_size("PK", {"S": "p"}) + attribute_size("SK", {"S": "a"}) + \
        attribute_size("g_keys", {"S": "k"}) + attribute_size("rank", {"N": "1"})
    assert [i.size for i in keys_only.items] == [entry] * 3
    assert (keys_only.read_units, everything.read_units) == (0.5, 1.5)  # 9,000 B: 12 KB, eventually


# ------------------------------------------------------------------ writes


def test_a_write_of_1_5_kb_is_two_units(meter):
    meter.put_item(TableName=TABLE, Item=item(1536))
    meter.put_item(TableName=TABLE, Item=item(500, sk="small"))
    charge = meter.take()
    assert [call.write_units for call in charge.calls] == [2, 1]
    assert charge.index_write_units == 0  # in no index: no index key attribute


def test_a_put_over_an_item_pays_for_the_larger_of_the_two(raw, meter):
    put(raw, item(3500))
    meter.put_item(TableName=TABLE, Item=item(500))
    assert meter.take().write_units == 4


def test_an_update_pays_for_the_larger_of_before_and_after(raw, meter):
    put(raw, item(1536))
    meter.update_item(TableName=TABLE, Key=key(), UpdateExpression="SET filler = :big",
                      ExpressionAttributeValues={":big": {"S": "x" * 2500}})
    assert meter.take().write_units == 3  # after: 2,512 B


def test_a_delete_pays_for_the_deleted_item(raw, meter):
    put(raw, item(int(1.6 * 1024)))
    meter.delete_item(TableName=TABLE, Key=key())
    meter.delete_item(TableName=TABLE, Key=key())  # nothing left to delete: the minimum
    assert [call.write_units for call in meter.take().calls] == [2, 1]


def test_batch_write_item_rounds_each_item(raw, meter):
    """AWS's example: 500 bytes and 3.5 KB are written as 1 KB + 4 KB; a delete of 1.5 KB adds 2."""
    put(raw, item(1536, sk="old"))
    meter.batch_write_item(RequestItems={TABLE: [{"PutRequest": {"Item": item(500, sk="a")}},
                                                 {"PutRequest": {"Item": item(3584, sk="b")}},
                                                 {"DeleteRequest": {"Key": key(sk="old")}}]})
    call, = meter.take().calls
    assert [i.write_units for i in call.items] == [1, 4, 2]
    assert call.write_units == 7


def test_a_failed_condition_still_pays_for_the_larger_item(raw, meter):
    """AWS's example, scaled: the existing item is 2.5 KB, the new one 3.5 KB: 4 units, no index write."""
    put(raw, item(2560, g_all={"S": "a"}))
    with pytest.raises(raw.exceptions.ConditionalCheckFailedException):
        meter.put_item(TableName=TABLE, Item=item(3584, g_all={"S": "b"}), ConditionExpression="attribute_not_exists(PK)")
    call, = meter.take().calls
    assert (call.outcome, call.write_units, call.index_write_units) == ("condition failed", 4, 0)


def test_a_failed_condition_on_a_missing_item_pays_for_the_new_one(meter):
    with pytest.raises(meter.exceptions.ConditionalCheckFailedException):
        meter.put_item(TableName=TABLE, Item=item(1536), ConditionExpression="attribute_exists(PK)")
    assert meter.take().write_units == 2


def test_a_failed_update_pays_for_the_item_it_would_have_written(raw, meter):
    put(raw, item(1536, version={"N": "1"}))
    with pytest.raises(meter.exceptions.ConditionalCheckFailedException):
        meter.update_item(TableName=TABLE, Key=key(), UpdateExpression="SET filler = :big, version = version + :one",
                          ConditionExpression="version = :stale",
                          ExpressionAttributeValues={":big": {"S": "x" * 3500}, ":one": {"N": "1"},
                                                     ":stale": {"N": "0"}})
    assert meter.take().write_units == 4


def test_a_failed_delete_pays_for_the_existing_item(raw, meter):
    put(raw, item(2560))
    with pytest.raises(meter.exceptions.ConditionalCheckFailedException):
        meter.delete_item(TableName=TABLE, Key=key(), ConditionExpression="attribute_not_exists(PK)")
    assert meter.take().write_units == 3


def test_other_errors_are_not_charged(meter):
    with pytest.raises(meter.exceptions.ClientError):
        meter.put_item(TableName=TABLE, Item={"PK": {"S": "p"}})  # no sort key
    assert meter.take().calls == ()


# ------------------------------------------------------------------ transactions


def test_a_transactional_write_is_two_units_per_kb_of_each_item(meter):
    """AWS's examples: a 1.5 KB item in a transaction is 4 units; three 500-byte items are 6 (2 each)."""
    meter.transact_write_items(TransactItems=[{"Put": {"TableName": TABLE, "Item": item(1536, sk="big")}}])
    meter.transact_write_items(TransactItems=[{"Put": {"TableName": TABLE, "Item": item(500, sk=s)}} for s in "abc"])
    assert [call.write_units for call in meter.take().calls] == [4, 6]


def test_a_condition_check_is_charged_on_the_item_it_checks(raw, meter):
    put(raw, item(1536, sk="checked"))
    meter.transact_write_items(TransactItems=[
        {"ConditionCheck": {"TableName": TABLE, "Key": key(sk="checked"), "ConditionExpression": "attribute_exists(PK)"}},
        {"Put": {"TableName": TABLE, "Item": item(500, sk="new")}},
    ])
    call, = meter.take().calls
    assert [(i.action, i.write_units) for i in call.items] == [("check", 4), ("put", 2)]


def test_index_writes_in_a_transaction_are_not_doubled(raw):
    for factor, index_units in ((1, 2), (2, 4)):
        meter = Meter(raw, definition(), transaction_index_factor=factor)
        meter.transact_write_items(TransactItems=[{"Put": {"TableName": TABLE,
                                                           "Item": item(1536, sk=f"f{factor}", g_all={"S": "a"})}}])
        charge = meter.take()
        assert (charge.write_units, charge.index_write_units) == (4, index_units)


def test_a_transactional_update_that_moves_an_index_key(raw, meter):
    put(raw, item(1536, g_all={"S": "a"}))
    meter.transact_write_items(TransactItems=[{"Update": {"TableName": TABLE, "Key": key(),
                                                          "UpdateExpression": "SET g_all = :b",
                                                          "ExpressionAttributeValues": {":b": {"S": "b"}}}}])
    call, = meter.take().calls
    assert call.write_units == 4
    assert [(w.kind, w.units) for w in call.items[0].index_writes] == [("delete", 2), ("put", 2)]


def test_a_canceled_transaction_pays_for_its_items_on_the_table(raw, meter):
    put(raw, item(1536, sk="taken"))
    with pytest.raises(meter.exceptions.TransactionCanceledException):
        meter.transact_write_items(TransactItems=[
            {"Put": {"TableName": TABLE, "Item": item(1000, sk="taken", g_all={"S": "a"}),
                     "ConditionExpression": "attribute_not_exists(PK)"}},
            {"Put": {"TableName": TABLE, "Item": item(500, sk="free", g_all={"S": "a"})}},
        ])
    call, = meter.take().calls
    assert (call.outcome, call.write_units, call.index_write_units) == ("canceled", 4 + 2, 0)


# ------------------------------------------------------------------ index writes


def test_a_new_item_in_an_all_index_is_one_put_of_its_size(meter):
    meter.put_item(TableName=TABLE, Item=item(1536, g_all={"S": "a"}))
    call, = meter.take().calls
    assert [(w.index, w.kind, w.size, w.units) for w in call.items[0].index_writes] == [("all_idx", "put", 1536, 2)]


def test_an_update_that_moves_the_index_key_is_a_delete_and_a_put(raw, meter):
    put(raw, item(1536, g_all={"S": "a"}))
    meter.update_item(TableName=TABLE, Key=key(), UpdateExpression="SET g_all = :b",
                      ExpressionAttributeValues={":b": {"S": "b"}})
    call, = meter.take().calls
    assert [(w.kind, w.units) for w in call.items[0].index_writes] == [("delete", 2), ("put", 2)]
    assert (call.write_units, call.index_write_units) == (2, 4)


def test_a_sort_key_move_in_the_index_is_a_delete_and_a_put(raw, meter):
    put(raw, item(800, g_keys={"S": "k"}, rank={"N": "1"}))
    meter.update_item(TableName=TABLE, Key=key(), UpdateExpression="SET #r = :two",
                      ExpressionAttributeNames={"#r": "rank"}, ExpressionAttributeValues={":two": {"N": "2"}})
    call, = meter.take().calls
    assert [w.kind for w in call.items[0].index_writes] == ["delete", "put"]


def test_changing_nothing_a_keys_only_index_holds_costs_it_nothing(raw, meter):
    put(raw, item(1536, g_keys={"S": "k"}, rank={"N": "1"}))
    meter.update_item(TableName=TABLE, Key=key(), UpdateExpression="SET filler = :p",
                      ExpressionAttributeValues={":p": {"S": "y" * 1400}})
    call, = meter.take().calls
    assert (call.write_units, call.index_write_units) == (2, 0)


def test_an_include_index_is_written_when_an_included_attribute_changes(raw, meter):
    put(raw, item(700, g_incl={"S": "i"}, note={"S": "first"}))
    meter.update_item(TableName=TABLE, Key=key(), UpdateExpression="SET note = :n",
                      ExpressionAttributeValues={":n": {"S": "second"}})
    meter.update_item(TableName=TABLE, Key=key(), UpdateExpression="SET filler = :p",
                      ExpressionAttributeValues={":p": {"S": "not projected"}})
    included, other = meter.take().calls
    assert [(w.index, w.kind, w.units) for w in included.items[0].index_writes] == [("incl_idx", "update", 1)]
    assert other.index_write_units == 0


def test_removing_the_index_key_is_one_delete(raw, meter):
    put(raw, item(2500, g_all={"S": "a"}))
    meter.update_item(TableName=TABLE, Key=key(), UpdateExpression="REMOVE g_all")
    call, = meter.take().calls
    assert [(w.kind, w.size, w.units) for w in call.items[0].index_writes] == [("delete", 2500, 3)]


def test_an_identical_overwrite_costs_the_indexes_nothing(raw, meter):
    same = item(1536, g_all={"S": "a"}, g_keys={"S": "k"}, rank={"N": "1"})
    put(raw, same)
    meter.put_item(TableName=TABLE, Item=same)
    assert (meter.peek().write_units, meter.take().index_write_units) == (2, 0)


def test_deleting_an_item_deletes_its_entries(raw, meter):
    put(raw, item(3000, g_all={"S": "a"}, g_keys={"S": "k"}, rank={"N": "1"}))
    meter.delete_item(TableName=TABLE, Key=key())
    call, = meter.take().calls
    assert call.write_units == 3
    assert call.index_units == {"all_idx": 3, "keys_idx": 1}


def test_an_index_entry_is_the_keys_and_what_is_projected(raw):
    entry = sum(attribute_size(n, v) for n, v in
                {"PK": {"S": "p"}, "SK": {"S": "s"}, "g_keys": {"S": "k"}, "rank": {"N": "7"}}.items())
    for overhead in (0, 100):
        meter = Meter(raw, definition(), index_entry_overhead=overhead)
        meter.put_item(TableName=TABLE, Item=item(3000, g_keys={"S": "k"}, rank={"N": "7"}))
        meter.delete_item(TableName=TABLE, Key=key())
        written, deleted = meter.take().calls
        assert [w.size for w in written.items[0].index_writes] == [entry + overhead]
        assert [w.size for w in deleted.items[0].index_writes] == [entry + overhead]


# ------------------------------------------------------------------ the meter as a client


def test_take_returns_the_charge_since_the_last_take(raw, meter):
    meter.put_item(TableName=TABLE, Item=item(500))
    assert len(meter.take().calls) == 1  # the meter's own reads are not charged
    assert meter.take() == Charge()


def test_labels_attribute_calls_to_steps(meter):
    with meter.label("request") as request:
        meter.put_item(TableName=TABLE, Item=item(1536))
        with meter.label("background") as background:
            meter.get_item(TableName=TABLE, Key=key(), ConsistentRead=True)
    meter.get_item(TableName=TABLE, Key=key())
    charge = meter.take()
    assert [call.label for call in charge.calls] == ["request", "background", None]
    assert (request.charge.write_units, request.charge.read_units) == (2, 1)
    assert background.charge.calls == charge.calls[1:2]
    assert {label: c.read_units for label, c in charge.by_label().items()} == \
        {"request": 0, "background": 1, None: 0.5}
    assert set(charge.by_operation()) == {"PutItem", "GetItem"}
    assert "| request | PutItem | ok | put PK=p, SK=s (1536 B) |" in charge.table()


def test_non_data_calls_pass_through_unmetered(raw, meter):
    assert meter.describe_table(TableName=TABLE)["Table"]["TableName"] == TABLE
    assert meter.exceptions is raw.exceptions
    assert meter.raw is raw
    assert meter.take() == Charge()


def test_paginators_and_partiql_are_refused_rather_than_left_unmetered(meter):
    with pytest.raises(NotImplementedError):
        meter.get_paginator("query")
    with pytest.raises(NotImplementedError):
        meter.execute_statement(Statement="SELECT * FROM x")
    assert meter.get_paginator("list_tables") is not None


def test_a_table_not_given_is_described(raw):
    meter = Meter(raw)
    meter.put_item(TableName=TABLE, Item=item(1536, g_all={"S": "a"}))
    assert meter.take().index_write_units == 2


def test_the_store_runs_on_the_meter():
    with mock_aws():
        raw = boto3.client("dynamodb", region_name="us-east-1")
        name = f"store-{uuid.uuid4().hex[:8]}"
        create_table_if_missing(raw, name)
        meter = Meter(raw, table_definition(name))
        store = DynamoStore(meter, name)
        assert store.get_player("p_nobody") is None
        call, = meter.take().calls
        assert (call.operation, call.read_units) == ("GetItem", 1)


def test_issue39_item6_an_index_entry_whose_sort_key_changes_is_a_delete_and_a_put():
    """AWS's rule on the table's own indexes, as a game's head meets them: its ``due`` entry (keys
    only) whose sort key ``due_at`` changes is a delete and a put; its ``my_move`` entry whose keys
    stay but whose projected version changes is one write; an entry that appears or goes is one."""
    with mock_aws():
        raw = boto3.client("dynamodb", region_name="us-east-1")
        name = f"due-{uuid.uuid4().hex[:8]}"
        create_table_if_missing(raw, name)
        meter = Meter(raw, table_definition(name))
        head = {"PK": {"S": "GAME#g_1"}, "SK": {"S": "HEAD"}, "game": {"S": "battleline"}, "v": {"N": "4"},
                "tm": {"N": "1"}, "at": {"S": "2026-11-28T12:00:00Z"}, "mover": {"S": "p_1"},
                "move_due": {"S": "2026-12-01T12:00:00Z"}}
        raw.put_item(TableName=name, Item=head)

        def writes(expression: str, values: dict | None = None) -> list[tuple[str, str]]:
            meter.update_item(TableName=name, Key={"PK": head["PK"], "SK": head["SK"]}, UpdateExpression=expression,
                              **({"ExpressionAttributeValues": values} if values else {}))
            call, = meter.take().calls
            return sorted((w.index, w.kind) for w in call.items[0].index_writes)

        clock = {":d": {"S": "CLOCK#03"}, ":at": {"S": "2026-12-01T12:00:00Z"}}
        assert writes("SET due = :d, due_at = :at", clock) == [("due", "put")]  # the clock starts: one
        assert writes("SET due_at = :at, v = :v", {":at": {"S": "2026-12-04T12:00:00Z"}, ":v": {"N": "5"}}) == [
            ("due", "delete"), ("due", "put"), ("my_move", "update")]  # its sort key moves: two; my_move's stays: one
        assert writes("SET v = :v", {":v": {"N": "6"}}) == [("my_move", "update")]  # due's entry unchanged: none
        assert writes("REMOVE due, due_at") == [("due", "delete")]  # the clock stops: one


# ------------------------------------------------------------------ the would-be item of a failed update


def test_apply_update_evaluates_top_level_actions():
    before = {"PK": {"S": "p"}, "n": {"N": "5"}, "l": {"L": [{"S": "a"}]}, "s": {"SS": ["a", "b"]}, "gone": {"S": "x"}}
    after = apply_update(before, "SET n = n + :one, l = list_append(l, :more), #f = if_not_exists(#f, :new) "
                                 "REMOVE gone ADD s :c, c :one DELETE s :a",
                         {"#f": "fresh"}, {":one": {"N": "1"}, ":more": {"L": [{"S": "b"}]}, ":new": {"S": "v"},
                                           ":c": {"SS": ["c"]}, ":a": {"SS": ["a"]}})
    assert after == {"PK": {"S": "p"}, "n": {"N": "6"}, "l": {"L": [{"S": "a"}, {"S": "b"}]},
                     "fresh": {"S": "v"}, "s": {"SS": ["b", "c"]}, "c": {"N": "1"}}


def test_apply_update_gives_up_on_nested_paths_and_malformed_expressions():
    assert apply_update({"m": {"M": {}}}, "SET m.a = :v", {}, {":v": {"S": "x"}}) is None
    assert apply_update({}, "SET a =", {}, {}) is None
    assert apply_update({}, "SET a = list_append(:v, :v)", {}, {":v": {"S": "not a list"}}) is None
    assert apply_update({}, "SET a = :missing", {}, {}) is None


# ------------------------------------------------------------------ DynamoDB Local


@pytest.mark.integration
def test_single_item_puts_and_gets_agree_with_dynamodb_local(dynamodb_local):
    """For one item at a time DynamoDB Local sizes as AWS does: both sides of each boundary agree."""
    raw = dynamodb_local.client()
    name = f"meter-{uuid.uuid4().hex[:8]}"
    table = definition(name)
    raw.create_table(**table)
    raw.get_waiter("table_exists").wait(TableName=name, WaiterConfig={"Delay": 0.2, "MaxAttempts": 100})
    meter = Meter(raw, table)
    mixed = {"l": {"L": [{"S": "ab"}, {"BOOL": True}, {"NULL": True}]}, "m": {"M": {"k": {"S": "v"}, "z": {"L": []}}},
             "b": {"B": b"\x00\x01\x02\x03"}, "ss": {"SS": ["a", "bb"]}, "flag": {"BOOL": False}}
    cases = [item(n) for n in (500, 1024, 1025, 1536, 3500, 4096, 4097, 10 * 1024)]
    cases += [item(n, **mixed) for n in (1024, 1025, 4096, 4097)]
    cases += [item(1536, g_all={"S": "a"}), item(2000, g_all={"S": "b"}, g_keys={"S": "k"}, rank={"N": "3"})]
    for one in cases:
        reported = meter.put_item(TableName=name, Item=one, ReturnConsumedCapacity="TOTAL")["ConsumedCapacity"]
        charge = meter.take()
        assert charge.total_write_units == reported["CapacityUnits"], (item_size(one), charge.table())
        for consistent in (True, False):
            reported = meter.get_item(TableName=name, Key=key(), ConsistentRead=consistent,
                                      ReturnConsumedCapacity="TOTAL")["ConsumedCapacity"]
            assert meter.take().read_units == reported["CapacityUnits"], (item_size(one), consistent)
