"""``make messages``: every sentence the server and the CLI say to people, extracted by Babel into
``chalicelib/locale/messages.pot`` (chalicelib/kernel/i18n.py), and each language's catalog
(``chalicelib/locale/<language>/LC_MESSAGES/messages.po``) brought up to it: new sentences appear
there untranslated (or as fuzzy guesses), gone ones are dropped. Tests fail while the template is out
of date or a catalog leaves a sentence untranslated. Deterministic: the same code gives the same files.

Run: python -m devtools.messages [--check]
"""

from __future__ import annotations

import io
import sys
from datetime import datetime, timezone

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from devtools.dynamodb_local import ROOT

TEMPLATE = ROOT / "chalicelib" / "locale" / "messages.pot"
KEYWORDS = {"_": None, "gettext": None, "ngettext": (1, 2), "N_": None, "Nn_": (1, 2)}
METHODS = [("chalicelib/**.py", "python"), ("battleline_cli/**.py", "python"), ("khan_lab/**.py", "python"),
           ("chalicelib/templates/**", "jinja2")]
OPTIONS = {"chalicelib/templates/**": {"extensions": "jinja2.ext.i18n"}}
FIXED = datetime(2026, 11, 24, tzinfo=timezone.utc)  # no date in the file: it changes only with the words


def extract() -> Catalog:
    catalog = Catalog(project="battleline-server", version="1", creation_date=FIXED, revision_date=FIXED,
                      msgid_bugs_address="", copyright_holder="", charset="utf-8")
    for filename, lineno, message, comments, context in extract_from_dir(
            str(ROOT), METHODS, OPTIONS, KEYWORDS, comment_tags=("TRANSLATORS:",), strip_comment_tags=True):
        catalog.add(message, None, [(filename, None)], auto_comments=comments, context=context)
    return catalog


def written(catalog: Catalog) -> str:
    out = io.BytesIO()
    write_po(out, catalog, width=100, sort_output=True, include_lineno=False)
    return out.getvalue().decode()


def catalogs() -> list:
    """Each language's catalog file."""
    return sorted(TEMPLATE.parent.glob("*/LC_MESSAGES/messages.po"))


def update(template: Catalog) -> None:
    """Bring every language's catalog up to the template (Babel's ``update``, as ``pybabel update``)."""
    for path in catalogs():
        with path.open("rb") as file:
            catalog = read_po(file, locale=path.parent.parent.name)
        catalog.update(template, update_header_comment=False)
        catalog.obsolete.clear()
        out = io.BytesIO()
        write_po(out, catalog, width=100, sort_output=True, include_lineno=False, ignore_obsolete=True)
        if out.getvalue() != path.read_bytes():
            path.write_bytes(out.getvalue())
            print(f"updated {path.relative_to(ROOT)}")


def main() -> int:
    text = written(extract())
    if "--check" in sys.argv:
        current = TEMPLATE.read_text() if TEMPLATE.exists() else ""
        if current != text:
            print(f"{TEMPLATE.relative_to(ROOT)} is out of date: run `make messages`", file=sys.stderr)
            return 1
        return 0
    TEMPLATE.parent.mkdir(parents=True, exist_ok=True)
    TEMPLATE.write_text(text)
    update(extract())
    print(f"wrote {TEMPLATE.relative_to(ROOT)}: {len(extract())} messages")
    return 0


if __name__ == "__main__":
    sys.exit(main())
