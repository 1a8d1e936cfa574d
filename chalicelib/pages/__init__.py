"""What people see: a ``Page`` in a browser (``page.py``), the board page (``board.py``) and the
jinja2 templates of pages and emails (``templates.py``, files in ``chalicelib/templates/``).
Play by email's own pages (step links, invitations, unsubscribing) are ``mailplay/pages.py``;
notification emails are ``notify/email.py``."""
