"""The words people read are gettext's (chalicelib/kernel/i18n.py): the extracted template is current, and
the templates and code speak the language set around them."""

import io

from chalicelib.kernel import i18n
from chalicelib.presenting.templates import environment
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


# ---------------------------------------------------------------- every language's catalog is whole

import re  # noqa: E402
from html.parser import HTMLParser  # noqa: E402

import pytest  # noqa: E402
from babel.messages.mofile import write_mo  # noqa: E402
from babel.messages.pofile import read_po  # noqa: E402

PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\([a-z_]+\)[sd]|</?[a-z]+[^>]*>")
LANGUAGES = [path.parent.parent.name for path in messages.catalogs()]


def catalog(language: str):
    with (messages.TEMPLATE.parent / language / "LC_MESSAGES" / "messages.po").open("rb") as file:
        return read_po(file, locale=language)


def test_every_language_of_the_server_has_a_catalog():
    assert sorted(LANGUAGES) == sorted(code.replace("-", "_") for code in i18n.LANGUAGES if code != "en")


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_catalog_translates_every_message_with_its_placeholders(language):
    """`make messages` brings new sentences into every catalog; this fails until each is translated
    (not empty, not a fuzzy guess) keeping the placeholders, tags and line breaks code relies on."""
    template = {m.id: m for m in read_po(messages.TEMPLATE.open("rb")) if m.id}
    found = {m.id: m for m in catalog(language) if m.id}
    missing = [m for m in template if m not in found]
    assert not missing, f"{language}: not in the catalog (run `make messages`): {missing[:5]}"
    problems = []
    for key, message in found.items():
        forms = message.string if isinstance(message.string, tuple) else (message.string,)
        source = key if isinstance(key, tuple) else (key,)
        if message.fuzzy or not all(forms):
            problems.append(f"untranslated: {source[0]!r}")
            continue
        wanted = [set(PLACEHOLDER.findall(text)) for text in source]  # a one-form language may use the plural's
        for form in forms:
            if set(PLACEHOLDER.findall(form)) not in wanted:
                problems.append(f"placeholders differ: {source[0]!r} -> {form!r}")
            if source[0].endswith("\n") != form.endswith("\n") or source[0].startswith("\n") != form.startswith("\n"):
                problems.append(f"line breaks differ: {source[0]!r} -> {form!r}")
    assert not problems, f"{language}: " + "\n".join(problems[:10])
    assert not set(found) - set(template), "messages no longer used: run `make messages`"


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_compiled_catalog_is_the_one_its_source_compiles_to(language):
    """gettext reads the .mo that `make install` compiles from the .po: a stale one would show old words."""
    compiled = messages.TEMPLATE.parent / language / "LC_MESSAGES" / "messages.mo"
    assert compiled.exists(), "run `make install` (it compiles the catalogs)"
    out = io.BytesIO()
    write_mo(out, catalog(language))
    assert compiled.read_bytes() == out.getvalue(), "run `make install` (it compiles the catalogs)"


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_catalog_speaks_its_language(language):
    code = {"zh_Hans": "zh-Hans"}.get(language, language)
    with i18n.speaking(code):
        assert i18n._("Your move") != "Your move"
    assert i18n._("Your move") == "Your move"


# ---------------------------------------------------------------- templates hold no untranslated words

WORD = re.compile(r"[^\W\d_]{2,}")
NOT_WORDS = {"GET"}  # HTTP's method name, the same in every language
SHOWN_ATTRIBUTES = {"title", "alt", "aria-label", "placeholder"}


class _Shown(HTMLParser):
    """The words of an HTML page a person sees: text outside scripts and styles, and the attributes
    browsers show (tooltips, labels, placeholders, button captions)."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self.hidden = 0

    def handle_starttag(self, tag, attrs):
        self.hidden += tag in ("script", "style")
        kind = dict(attrs).get("type")
        for name, value in attrs:
            shown = name in SHOWN_ATTRIBUTES or name == "value" and tag == "input" and kind in ("submit", "button")
            if shown and value:
                self.found += WORD.findall(value)

    def handle_endtag(self, tag):
        self.hidden -= tag in ("script", "style")

    def handle_data(self, data):
        if not self.hidden:
            self.found += WORD.findall(data)


def untranslated(source: str, html: bool) -> list[str]:
    """The words of a template written outside gettext: its text with every ``{% trans %}`` block,
    comment and tag taken out, and every expression read as a number."""
    source = re.sub(r"{%-?\s*trans\b.*?{%-?\s*endtrans\s*-?%}", "", source, flags=re.S)
    source = re.sub(r"{#.*?#}", "", source, flags=re.S)
    source = re.sub(r"{{.*?}}", "0", source, flags=re.S)
    source = re.sub(r"{%.*?%}", "", source, flags=re.S)
    if not html:
        words = WORD.findall(source)
    else:
        shown = _Shown()
        shown.feed(source)
        shown.close()
        words = shown.found
    return [word for word in words if word not in NOT_WORDS]


def test_the_check_finds_words_written_outside_gettext():
    assert sorted(untranslated('<p title="Hello">{{ _("Hi") }} there <b>{{ name }}</b></p>', html=True)) == [
        "Hello", "there"]
    assert untranslated('<p>{% trans %}Your move{% endtrans %} <script>let a = "x y";</script></p>', html=True) == []
    assert untranslated("{{ _('Flag') }}: 3\nClaim none", html=False) == ["Claim", "none"]


def test_templates_hold_no_untranslated_words():
    env = environment()
    found = {name: untranslated(env.loader.get_source(env, name)[0], name.endswith(".html"))
             for name in env.list_templates() if name.endswith((".html", ".txt"))}
    assert len(found) >= 6 and not any(found.values()), found
