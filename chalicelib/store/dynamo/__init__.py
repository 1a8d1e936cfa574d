"""DynamoDB storage, one module per area (``store/protocol.py``'s protocols), over ``table.Table``."""
