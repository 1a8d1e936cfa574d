"""DynamoStore and MemoryStore are each a Store: the protocol the services depend on names each of
their methods with the same parameters, so they cannot drift apart unnoticed."""

import inspect

import pytest

from chalicelib.store import Store
from chalicelib.store.dynamodb import DynamoStore
from chalicelib.store.memory.store import MemoryStore


def members(cls) -> dict[str, object]:
    """The public methods a class defines itself or takes from its areas' classes (static methods
    included): ``Store`` and ``DynamoStore`` are each made of one class per area."""
    found: dict[str, object] = {}
    for part in reversed(cls.__mro__):
        if part.__module__.startswith("chalicelib."):
            found.update({name: value for name, value in vars(part).items()
                          if not name.startswith("_") and isinstance(value, (staticmethod, type(members)))})
    return found


PROTOCOL = members(Store)


def test_the_protocol_names_every_method_the_services_call():
    """One member of each concern at least, so that an empty protocol cannot pass the tests below."""
    some = {"create_player", "save_game", "send_reminder", "save_ratings", "put_tournament", "get_idempotency",
            "due_deliveries", "changes", "project", "message_from"}
    assert some <= set(PROTOCOL)


@pytest.mark.parametrize("name", sorted(PROTOCOL))
@pytest.mark.parametrize("implementation", [DynamoStore, MemoryStore])
def test_each_store_has_the_protocol_member_with_its_parameters(implementation, name):
    assert name in members(implementation), f"{implementation.__name__} has no {name}"
    wanted, found = inspect.getattr_static(Store, name), inspect.getattr_static(implementation, name)
    assert isinstance(found, staticmethod) == isinstance(wanted, staticmethod)
    assert inspect.signature(getattr(implementation, name)) == inspect.signature(getattr(Store, name))


@pytest.mark.parametrize("implementation", [DynamoStore, MemoryStore])
def test_every_public_method_of_each_store_is_in_the_protocol(implementation):
    """A method the services may call is in the protocol, where its guarantee is written."""
    assert set(members(implementation)) - set(PROTOCOL) == set()
