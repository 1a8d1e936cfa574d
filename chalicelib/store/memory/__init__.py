"""In-memory storage, one class per area (``store/protocol.py``'s protocols), composed into
``memory.store.MemoryStore`` (the whole ``Store``) and held to the same contract tests as DynamoDB's
(tests/store/test_contract_*.py). The unit tests run on it; DynamoDB Local keeps the integration,
concurrency and capacity tests (docs/storage.md)."""
