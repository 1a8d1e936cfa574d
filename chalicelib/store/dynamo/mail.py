"""Answers to inbound mail: how many an address was sent in a window, how many of its messages in
a row could not be read, which of its messages were answered (``MailAnswerStore``). Each item lies
in the address's own partition (``EMAIL#<hash>``, never the address) and expires by TTL."""

from __future__ import annotations

from .. import keys
from ..items import typed, typed_key
from ..schema import TTL_ATTRIBUTE
from .table import Table


class DynamoMailAnswers(Table):
    def count_mail_answer(self, email_hash: str, window: str, most: int, expires_at: int) -> int:
        try:
            counted = self.client.update_item(**self._update(
                keys.mail_answers(email_hash, window), "ADD #n :one SET #t = if_not_exists(#t, :t)",
                {":one": {"N": "1"}, ":t": {"N": str(expires_at)}},
                condition={"ConditionExpression": "attribute_not_exists(#n) OR #n < :most",
                           "ExpressionAttributeValues": {":most": {"N": str(most)}}},
                names={"#n": "n", "#t": TTL_ATTRIBUTE}), ReturnValues="UPDATED_NEW")
        except self.client.exceptions.ConditionalCheckFailedException:
            return 0
        return int(counted["Attributes"]["n"]["N"])

    def count_unread_mail(self, email_hash: str, unread: bool, expires_at: int) -> int:
        key = typed_key(keys.mail_unread(email_hash))
        if not unread:
            before = self.client.delete_item(TableName=self.table, Key=key, ReturnValues="ALL_OLD")
        else:
            before = self.client.update_item(
                TableName=self.table, Key=key, UpdateExpression="ADD #n :one SET #t = :t",
                ExpressionAttributeNames={"#n": "n", "#t": TTL_ATTRIBUTE},
                ExpressionAttributeValues={":one": {"N": "1"}, ":t": {"N": str(expires_at)}}, ReturnValues="UPDATED_OLD")
        return int(before.get("Attributes", {}).get("n", {}).get("N", "0"))

    def mail_answered(self, email_hash: str, message_hash: str) -> bool:
        return self._get(keys.mail_answered(email_hash, message_hash)) is not None

    def mark_mail_answered(self, email_hash: str, message_hash: str, expires_at: int) -> None:
        self.client.put_item(TableName=self.table, Item=typed({
            **keys.mail_answered(email_hash, message_hash), "kind": "mail_answered", TTL_ATTRIBUTE: expires_at}))
