"""In-memory storage, one class per area (``store/protocol.py``'s protocols), held to the same
contract tests as DynamoDB's (tests/store/test_contract_*.py). Only some areas have one so far:
notes and notifications (webhooks and deliveries)."""
