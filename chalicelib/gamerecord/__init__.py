"""The open game-record format (format.py: game-record/1, docs/records.md) and its
verifier (verify.py: `battleline verify`). The service is services/gamerecords.py."""
