"""Ladders' pure rules: gapped positions (positions.py). The service is
services/ladders.py; the storage store/*/competitions.py."""
