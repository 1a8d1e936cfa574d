"""Two-key rotation of the link secret (issue 24, item 7; docs/deploy.md, "Rotating the link
secret"): new links and reply addresses are signed with the current key, those signed with the
previous one keep working until they expire, any other key's are refused; a warm function
learns of a rotation from the first link signed with the new key; webhook signing secrets never
change with a rotation."""

import boto3
import pytest
from moto import mock_aws

from chalicelib import config
from chalicelib.presenting.links import REREAD_SECONDS, LinkError, Links
from chalicelib.notify.webhooks import SigningKeys

OLD, NEW, OTHER = "old-key", "new-key", "some-other-key"
URL = "http://play.example"


def token(url: str) -> str:
    from urllib.parse import unquote, urlsplit

    return unquote(urlsplit(url).path.rsplit("/", 1)[1]) if "?seat=" not in url else unquote(url.split("?seat=")[1])


# What each kind of link is made and read with.
KINDS = {
    "step": (lambda links: token(links.step_url("g_1", 1, 3, {"type": "pass"})), lambda links, t: links.read_step(t)),
    "board": (lambda links: token(links.board_url("g_1", 2)), lambda links, t: links.read_board(t, "g_1")),
    "invitation": (lambda links: token(links.invitation_url("g_1", 2, "cat@example.org")),
                   lambda links, t: links.read_invitation(t)),
    "answer": (lambda links: token(links.answer_url("g_1", 2, "p_1", "accept")), lambda links, t: links.read_answer(t)),
    "recovery": (lambda links: token(links.recovery_url("r_1", "p_1")), lambda links, t: links.read_recovery(t)),
    "unsubscribe": (lambda links: token(links.unsubscribe_url("p_1")), lambda links, t: links.read_unsubscribe(t)),
    "reply address": (lambda links: links.reply_address("g_1a", 1, 3), lambda links, t: links.read_reply_address(t)),
}


@pytest.mark.parametrize("kind", KINDS)
def test_a_link_made_with_the_previous_key_works_after_a_rotation(kind):
    make, read = KINDS[kind]
    before = make(Links(OLD, URL))
    assert read(Links([OLD, NEW], URL), before) == read(Links(OLD, URL), before)


@pytest.mark.parametrize("kind", KINDS)
def test_a_link_made_with_a_key_neither_current_nor_previous_is_refused(kind):
    make, read = KINDS[kind]
    with pytest.raises(LinkError) as refused:
        read(Links([OLD, NEW], URL), make(Links(OTHER, URL)))
    assert refused.value.code == "invalid_link"
    with pytest.raises(LinkError):  # a second rotation drops the first key: its links end
        read(Links([NEW, "newer-key"], URL), make(Links(OLD, URL)))


@pytest.mark.parametrize("kind", KINDS)
def test_new_links_are_signed_with_the_current_key(kind):
    make, read = KINDS[kind]
    after = make(Links([OLD, NEW], URL))
    read(Links(NEW, URL), after)  # the current key alone reads it
    with pytest.raises(LinkError):
        read(Links(OLD, URL), after)


def test_an_expired_link_of_the_previous_key_is_still_expired():
    made = token(Links(OLD, URL).step_url("g_1", 1, 0, {}))
    with pytest.raises(LinkError) as refused:
        Links([OLD, NEW], URL).read_step(made, max_age=-1)
    assert refused.value.code == "link_expired"


def test_a_warm_function_learns_of_a_rotation_from_the_first_new_link():
    """A function that read the keys before the rotation reads them again when a link none of them
    reads comes, at most every REREAD_SECONDS (a forged link cannot make it read the secret on
    every request)."""
    now, reads = [1000.0], []
    stored = [[OLD]]

    def source():
        reads.append(now[0])
        return stored[0]

    warm = Links(source, URL, monotonic=lambda: now[0])
    assert warm.read_step(token(warm.step_url("g_1", 1, 0, {})))  # reads [OLD]
    stored[0] = [OLD, NEW]  # the rotation
    fresh = token(Links(stored[0], URL).step_url("g_1", 1, 0, {}))
    with pytest.raises(LinkError):  # read the keys a moment ago: not again yet
        warm.read_step(fresh)
    assert len(reads) == 1
    now[0] += REREAD_SECONDS
    assert warm.read_step(fresh).game_id == "g_1" and len(reads) == 2
    assert Links(NEW, URL).read_step(token(warm.step_url("g_1", 1, 0, {})))  # it signs with the new key now
    now[0] += REREAD_SECONDS
    with pytest.raises(LinkError):
        warm.read_step(token(Links(OTHER, URL).step_url("g_1", 1, 0, {})))
    assert len(reads) == 3  # read again, found no key that reads it: refused


def test_local_keys_come_from_the_environment(monkeypatch):
    monkeypatch.delenv("LINK_SECRET_ARN", raising=False)
    monkeypatch.setenv("LINK_SECRET", NEW)
    monkeypatch.delenv("LINK_SECRET_PREVIOUS", raising=False)
    monkeypatch.delenv("LINK_SECRET_WEBHOOKS", raising=False)
    assert config.link_keys() == [NEW] and config.webhook_key() == NEW
    monkeypatch.setenv("LINK_SECRET_PREVIOUS", OLD)
    monkeypatch.setenv("LINK_SECRET_WEBHOOKS", OLD)
    assert config.link_keys() == [OLD, NEW] and config.webhook_key() == OLD


@pytest.fixture
def secret(monkeypatch):
    with mock_aws():
        client = boto3.client("secretsmanager", region_name="us-east-1")
        arn = client.create_secret(Name="LinkSecret", SecretString=OLD)["ARN"]
        monkeypatch.delenv("LINK_SECRET", raising=False)
        monkeypatch.setenv("LINK_SECRET_ARN", arn)
        yield client, arn


def rotate(client, arn, value):
    """docs/deploy.md's steps: the WEBHOOKS label on the version in use (once), then the new key."""
    labelled = client.describe_secret(SecretId=arn)["VersionIdsToStages"]
    webhooks = next((v for v, stages in labelled.items() if config.WEBHOOKS_STAGE in stages), None)
    if webhooks is None:
        webhooks = client.get_secret_value(SecretId=arn)["VersionId"]
        client.update_secret_version_stage(SecretId=arn, VersionStage=config.WEBHOOKS_STAGE, MoveToVersionId=webhooks)
    client.put_secret_value(SecretId=arn, SecretString=value)
    # AWS leaves other labels where they are (PutSecretValue moves only AWSCURRENT and AWSPREVIOUS);
    # moto drops them from the version it makes AWSPREVIOUS: put WEBHOOKS back where AWS keeps it
    if config.WEBHOOKS_STAGE not in client.describe_secret(SecretId=arn)["VersionIdsToStages"].get(webhooks, []):
        client.update_secret_version_stage(SecretId=arn, VersionStage=config.WEBHOOKS_STAGE, MoveToVersionId=webhooks)


def test_in_aws_the_keys_are_the_secrets_current_and_previous_versions(secret):
    client, arn = secret
    assert config.link_keys() == [OLD]  # never rotated: no AWSPREVIOUS
    before = Links(config.link_keys, URL).step_url("g_1", 1, 0, {})
    rotate(client, arn, NEW)
    assert config.link_keys() == [OLD, NEW]
    links = Links(config.link_keys, URL)
    assert links.read_step(token(before)).game_id == "g_1"
    Links(NEW, URL).read_step(token(links.step_url("g_1", 1, 0, {})))
    rotate(client, arn, "newer-key")  # the second rotation drops the first key
    assert config.link_keys() == [NEW, "newer-key"]
    with pytest.raises(LinkError):
        Links(config.link_keys, URL).read_step(token(before))


def test_webhook_secrets_do_not_change_with_a_rotation(secret):
    client, arn = secret
    made = SigningKeys(Links(config.link_keys, URL, webhook_key=config.webhook_key).key).secret("wh_1", "salt")
    assert made == SigningKeys(OLD).secret("wh_1", "salt")  # as before rotations existed
    for value in (NEW, "newer-key"):
        rotate(client, arn, value)
        links = Links(config.link_keys, URL, webhook_key=config.webhook_key)
        assert SigningKeys(links.key).secret("wh_1", "salt") == made
        assert links.keys()[-1] == value
