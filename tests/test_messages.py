"""The words people read are gettext's (chalicelib/i18n.py): the extracted template is current, and
the templates and code speak the language set around them."""

from chalicelib import i18n
from chalicelib.pages.templates import environment
from devtools import messages


def test_the_messages_template_is_up_to_date():
    """A sentence added or changed in the code or a template is in chalicelib/locale/messages.pot
    (`make messages` writes it), so translators see every one."""
    assert messages.TEMPLATE.read_text() == messages.written(messages.extract()), "run `make messages`"


class Pirate:
    """A catalog that translates everything one way, to see which words go through gettext."""

    def gettext(self, message: str) -> str:
        return f"<{message}>"

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return f"<{singular if n == 1 else plural}>"


def test_templates_and_code_speak_the_language_set_around_them(monkeypatch):
    english = i18n.translations("en")
    monkeypatch.setattr(i18n, "translations", lambda language: Pirate() if language == "xx" else english)
    template = environment().from_string("{% trans %}Your move{% endtrans %} {{ _('Flag') }}")
    assert template.render() == "Your move Flag"
    with i18n.speaking("xx"):
        assert template.render() == "<Your move> <Flag>"
        assert i18n._("Hand") == "<Hand>" and i18n.ngettext("a card", "cards", 2) == "<cards>"
    assert i18n._("Hand") == "Hand"
