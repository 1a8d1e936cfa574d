"""Notifications: the outbox's messages, webhook delivery (Standard Webhooks), the dispatcher."""
