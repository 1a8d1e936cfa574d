"""Khan & General's card sets, for their routes: the ones this server has, and a designer's file
checked as the server would load it. Stateless, no service needed."""

from __future__ import annotations

from ..kernel.errors import ServiceError
from ..kernel.i18n import say
from ..games.khan import cardset


def khan_card_sets() -> dict:
    return {"card_sets": [_summary(c) for c in cardset.REGISTRY.all()],
            "refused": dict(cardset.REGISTRY.refused)}


def khan_card_set(card_set_id: str, version: int | None) -> dict:
    try:
        found = cardset.REGISTRY.get(card_set_id, version)
    except cardset.UnknownCardSet as error:
        raise ServiceError("card_set_not_found", say(error.args[0])) from None  # in the request's language
    data = found.data
    return {**_summary(found), "units": data["units"], "commands": data["commands"],
            "recommended": data["recommended"]}


def check_khan_card_set(data: dict) -> dict:
    """A designer's card-set file checked as this server would load it (nothing is stored): its
    faults, a published id and version reused with other rules among them, and its warnings."""
    review = cardset.REGISTRY.check(data, "the posted card set")
    found = review.card_set
    if found is None:
        return {"valid": False, "problems": review.problems, "warnings": []}
    return {"valid": True, "id": found.id, "version": found.version, "digest": found.digest, "problems": [],
            "warnings": review.warnings}


def _summary(found: cardset.CardSet) -> dict:
    return {"id": found.id, "version": found.version, "name": found.name, "digest": found.digest,
            "factions": [{"id": f.id, "name": f.name} for f in found.factions]}
