"""The answers to inbound mail (``store.protocol.MailAnswerStore``) in memory: counters and marks per
address hash. Their TTLs are not read back (DynamoDB deletes expired items lazily, and the callers
key each counter by its window)."""

from __future__ import annotations

from .table import MemoryTable


class MemoryMailAnswers(MemoryTable):
    def count_mail_answer(self, email_hash: str, window: str, most: int, expires_at: int) -> int:
        found = self._mail.get((email_hash, "ANSWERS#" + window))
        count, expires = found or (0, expires_at)
        if found is not None and count >= most:  # a first answer is counted whatever ``most`` (as DynamoDB's ADD)
            return 0
        self._mail[(email_hash, "ANSWERS#" + window)] = (count + 1, expires)
        return count + 1

    def count_unread_mail(self, email_hash: str, unread: bool, expires_at: int) -> int:
        before, _ = self._mail.pop((email_hash, "UNREAD"), (0, 0))
        if unread:
            self._mail[(email_hash, "UNREAD")] = (before + 1, expires_at)
        return before

    def mail_answered(self, email_hash: str, message_hash: str) -> bool:
        return (email_hash, "ANSWERED#" + message_hash) in self._mail

    def mark_mail_answered(self, email_hash: str, message_hash: str, expires_at: int) -> None:
        self._mail[(email_hash, "ANSWERED#" + message_hash)] = (1, expires_at)
