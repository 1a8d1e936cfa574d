"""What a reply by email says, as real mail clients send it: its text decoded whatever its
character set, read from its HTML when it has no text of its own, and without the email it quotes.

* **Character sets** (``decode``): the label's codec (with the aliases mailers use that Python does
  not know: Windows-31J and x-sjis are cp932, gb2312, gbk and x-gbk are gb18030 so that every GBK
  character survives), then UTF-8, then detection (charset-normalizer), then a lossy decode (each
  byte that reads as nothing becomes U+FFFD), used for the commands only: a part read lossily is
  never forwarded to the other players as a message (``Reply.unread``). Nothing here raises on a
  header or a body: a bogus label, ``unknown-8bit``, bad base64 or quoted-printable, broken MIME.
* **HTML** (``html_text``): an HTML-only reply, or one whose text part is empty, is read as text
  with the standard library's ``html.parser``: block elements and ``<br>`` end lines, ``<hr>`` is a
  rule, and what clients quote in (``<blockquote>``, Gmail's ``gmail_quote``, Outlook's
  ``divRplyFwdMsg``, Yahoo's ``yahoo_quoted``, NetEase's ``isReplyContent``, Thunderbird's
  ``moz-cite-prefix``) is written as ``>`` lines, a quote.
* **The quoted email** (``own_text``): the reply's own text ends where the client begins the email
  it quotes (``steptypes.QUOTE_HEADERS``, ``>`` lines, and here: Outlook's rule of underscores above
  ``From:``/``Sent:``, an attribution wrapped over two lines, more clients' rules). A reply written
  below the quote (bottom-posted) is read after it: after the ``>`` lines, or, when the client
  quotes without ``>`` (Outlook), after the quoted email's last line with a link (every email we
  send ends with links).
"""

from __future__ import annotations

import codecs
import logging
import re
from dataclasses import dataclass, field
from email.message import Message
from email.utils import getaddresses, parseaddr
from html.parser import HTMLParser

from ..games.steptypes import QUOTE_HEADERS

logger = logging.getLogger("battleline.inbound")

# Labels Python does not know (or knows as a smaller set), as mailers write them -> the codecs tried.
ALIASES: dict[str, tuple[str, ...]] = {
    **dict.fromkeys(("windows-31j", "x-sjis", "sjis", "shift_jis", "shift-jis", "x-shift_jis", "ms932", "ms_kanji",
                     "csshiftjis", "csWindows31J".lower(), "x-ms-cp932", "cp932"), ("cp932",)),
    **dict.fromkeys(("gb2312", "gbk", "x-gbk", "x-gb2312", "cp936", "euc-cn", "csgb2312", "x-euc-cn",
                     "gb_2312-80", "chinese"), ("gb18030",)),
    **dict.fromkeys(("big5", "x-big5", "cn-big5", "csbig5", "big5-hkscs"), ("cp950", "big5hkscs")),
    # Japanese carriers' and clients' ISO-2022-JP, some with the NEC and IBM extensions of cp932
    **dict.fromkeys(("iso-2022-jp", "csiso2022jp", "iso-2022-jp-ms"), ("iso2022_jp", "iso2022_jp_ext",
                                                                       "iso2022_jp_2", "iso2022_jp_3")),
    **dict.fromkeys(("euc-jp", "x-euc-jp", "cseucpkdfmtjapanese"), ("euc_jp", "euc_jis_2004")),
    **dict.fromkeys(("ks_c_5601-1987", "euc-kr", "x-windows-949", "ks_c_5601"), ("cp949",)),
    **dict.fromkeys(("iso-8859-1", "latin1", "latin-1", "us-ascii", "ascii"), ("ascii", "cp1252")),
}
REPLACEMENT = "\ufffd"


@dataclass
class Decoded:
    text: str
    lossy: bool = False  # some bytes read as nothing (U+FFFD)


# ---------------------------------------------------------------- headers, whatever they hold

def header(message: Message, name: str) -> str:
    """A header's value as text: "" when it is absent; its raw text when it cannot be parsed (a malformed
    address, an encoded word that is none, a Message-ID of "<@>"). Never an exception: anyone may send
    anything, and the reader answers or ignores it."""
    try:
        return _clean(str(message.get(name) or "").strip())
    except Exception:  # (email's header parsers raise HeaderParseError, IndexError, AttributeError...)
        return next((_clean(str(value).strip()) for key, value in message.raw_items() if key.lower() == name.lower()), "")


def _clean(text: str) -> str:
    """Text as it can be written again: 8-bit bytes the header parser kept as lone surrogates become U+FFFD."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace") if _SURROGATE.search(text) else text


_SURROGATE = re.compile("[\ud800-\udfff]")


def header_values(message: Message, name: str) -> list[str]:
    """Every value of a header that may come more than once (To, Cc), as :func:`header` reads one."""
    try:
        return [_clean(str(value)) for value in message.get_all(name, [])]
    except Exception:
        return [_clean(str(value)) for key, value in message.raw_items() if key.lower() == name.lower()]


def address_of(text: str) -> str:
    """The address a header's text names ("Ann <ann@example.org>": ann@example.org); "" when it names
    none (parseaddr itself raises on some malformed input)."""
    try:
        return _readable(parseaddr(text)[1])
    except Exception:
        return ""


_NOT_IN_AN_ADDRESS = re.compile(r"[\s\x00-\x1f\x7f-\x9f\u2028\u2029\ufffd]")


def _readable(address: str) -> str:
    """The address, or "" when it holds a control character or a space (no address: it could not be
    written back in an answer's header)."""
    return "" if _NOT_IN_AN_ADDRESS.search(address) else address


def addresses_of(texts: list[str]) -> list[str]:
    """The addresses the texts name (a To header's, a Cc header's), those that can be read."""
    try:
        return [address for _name, found in getaddresses(texts) if (address := _readable(found))]
    except Exception:
        return [address for text in texts if (address := address_of(text))]


def _codecs(label: str | None) -> tuple[str, ...]:
    name = (label or "").strip().strip('"').lower()
    if not name:
        return ()
    if name in ALIASES:
        return ALIASES[name]
    try:
        info = codecs.lookup(name)
    except (LookupError, ValueError, TypeError):
        return ()
    return (info.name,) if getattr(info, "_is_text_encoding", True) else ()


def decode(data: bytes, label: str | None = None) -> Decoded:
    """Bytes as text: the label's codec, UTF-8, detection, then lossily (``Decoded.lossy``). Detection over
    a label that names a character set it cannot be decoded in (``x-klingon``, ``punycode``) is a guess
    about a part its sender said was otherwise: lossy too, so that no message read that way is passed on."""
    tried = [*_codecs(label), "utf-8"]
    for name in tried:
        try:
            return Decoded(data.decode(name))
        except (UnicodeDecodeError, LookupError, ValueError):
            continue
    try:
        from charset_normalizer import from_bytes

        best = from_bytes(data).best()
        if best is not None:
            text = str(best)
            if REPLACEMENT not in text:
                return Decoded(text, lossy=bool((label or "").strip().strip('"')))
    except Exception:  # noqa: BLE001 (detection is a guess: a failure leaves the lossy decode)
        logger.info("charset detection failed", exc_info=True)
    try:  # (some codecs, idna and undefined among them, take no "replace")
        return Decoded(data.decode(tried[0], errors="replace"), lossy=True)
    except (UnicodeError, LookupError, ValueError):
        return Decoded(data.decode("utf-8", errors="replace"), lossy=True)


# ---------------------------------------------------------------- HTML as text

_SKIPPED = {"head", "style", "script", "title", "template", "noscript"}
_BLOCKS = {"p", "div", "tr", "li", "ul", "ol", "table", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "section",
           "article", "header", "footer", "dl", "dt", "dd", "center", "address", "form", "fieldset"}
_VOID = {"br", "hr", "img", "meta", "link", "input", "wbr", "col", "area", "base", "embed", "source", "track"}
# Where clients put the email they quote (an element with one of these ids or classes, or a blockquote).
_QUOTE_IDS = {"divrplyfwdmsg", "isreplycontent", "mail-editor-reference-message-container", "olk_src_body_section",
              "appendonsend", "reply-intro"}
_QUOTE_CLASSES = {"gmail_quote", "gmail_attr", "yahoo_quoted", "moz-cite-prefix", "qmbox", "protonmail_quote",
                  "ms-outlook-mobile-reference-message"}
OUTLOOK_RULE = "_" * 32


class _HtmlText(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.line = ""
        self.stack: list[tuple[str, bool, str]] = []  # open elements: (tag, begins a quote, a link's address)
        self.skipped = 0
        self.quoted = 0

    def _end_line(self, always: bool = True) -> None:
        """End the line (``<br>``); at a block's edge (``always`` False) only a line begun: a block
        with text ends its line, one with only a space (Outlook's ``<p>&nbsp;</p>``) is a blank line."""
        if not always and not self.line:
            return
        text = " ".join(self.line.split())
        self.lines.append(f"> {text}" if self.quoted and text else text)
        self.line = ""

    def close_line(self) -> None:
        """End the last line, if begun (after the whole document)."""
        self._end_line(always=False)

    def handle_starttag(self, tag, attrs):
        if tag in _VOID:
            if tag == "br":
                self._end_line()
            elif tag == "hr":
                self._end_line(always=False)
                self.lines.append(f"> {OUTLOOK_RULE}" if self.quoted else OUTLOOK_RULE)
            return
        found = dict(attrs)
        classes = set((found.get("class") or "").lower().split())
        quote = tag == "blockquote" or (found.get("id") or "").lower() in _QUOTE_IDS or bool(classes & _QUOTE_CLASSES)
        if tag in _SKIPPED:
            self.skipped += 1
        if tag in _BLOCKS or tag == "blockquote" or quote:
            self._end_line(always=False)
        self.quoted += quote
        href = (found.get("href") or "") if tag == "a" else ""
        self.stack.append((tag, quote, href if href.lower().startswith(("http://", "https://")) else ""))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in _VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if not any(open_tag == tag for open_tag, *_ in self.stack):
            return  # a stray end tag
        while self.stack:
            open_tag, quote, href = self.stack.pop()
            if href and href not in self.line:  # a link's address, as clients write one in text
                self.line += f" <{href}>"
            if open_tag in _SKIPPED:
                self.skipped -= 1
            if open_tag in _BLOCKS or open_tag == "blockquote" or quote:
                self._end_line(always=False)
            self.quoted -= quote
            if open_tag == tag:
                break

    def handle_data(self, data):
        if not self.skipped:
            self.line += data.replace("\xa0", " ")


def html_text(html: str) -> str:
    """An HTML body as the lines a reader sees; quoted parts as ``>`` lines."""
    parser = _HtmlText()
    try:
        parser.feed(html)
        parser.close()
    except Exception:  # noqa: BLE001 (html.parser is lenient; whatever it still cannot read is left out)
        logger.info("HTML part could not be read in full", exc_info=True)
    parser.close_line()
    text = "\n".join(parser.lines)
    return re.sub(r"\n{3,}", "\n\n", text).strip("\n")


# ---------------------------------------------------------------- the reply's own text

# Rules and headers of the clients QUOTE_HEADERS (steptypes) does not know yet.
MORE_QUOTE_HEADERS = re.compile("|".join((
    # Thunderbird, Foxmail, Sina, Yahoo Japan, Japanese carriers: more rules around the quoted email
    r"^[-_=\s]*(?:原始信件|原始訊息|原始信息|原始邮件信息|原邮件|原郵件|回复邮件|元メッセージ|元のメール|"
    r"Forwarded message|転送メッセージ|转发的邮件|轉寄的郵件|Reply message|Thư chuyển tiếp)[-_=\s]*$",
    # Outlook's quoted header block in more languages: "Sent:", "发送时间：", "送信日時:", "寄件日期:"
    r"^(?:Sent|Date|发送时间|發送時間|寄件日期|送信日時|日時|Đã gửi|Ngày)\s*[:：]\s*\S.*$",
    # Players write from mail clients set to any language, not only ours: Gmail's, Apple Mail's and
    # Thunderbird's attribution in German, French, Spanish, Italian, Portuguese, Dutch, Polish, Russian and
    # Korean ("Am Mo., 23. Nov. 2026 um 10:00 Uhr schrieb Ann <a@x>:", "Le lun. 23 nov. 2026, Ann a écrit :")
    r"^Am .+ schrieb .+:$", r"^.+ schrieb:$", r"^Le .+ a écrit\s*:$", r"^El .+ escribió:$", r"^Il .+ ha scritto:$",
    r"^Em .+ escreveu:$", r"^Op .+ schreef .+:$", r"^.+ napisał(?:\(a\))?:$", r"^.+ (?:пишет|написал\(а\)|написал|написала):$",
    r"^.+ 작성:$",
    # their forwarding rules, and Outlook's header block in those languages ("Von:", "De :", "От:")
    r"^[-_=\s]*(?:Ursprüngliche Nachricht|Message d'origine|Mensaje original|Messaggio originale|Mensagem original|"
    r"Oorspronkelijk bericht|Wiadomość oryginalna|Исходное сообщение|원본 메시지|Begin forwarded message|"
    r"Anfang der weitergeleiteten Nachricht|Début du message réexpédié)[-_=\s:]*$",
    r"^(?:Von|De|Da|Van|Od|Gesendet|Envoyé|Enviado|Inviato|Verzonden|Wysłano|Отправлено|От|보낸 사람|보낸 날짜)"
    r"\s*[:：]\s*\S.*@.*$",  # (a sender's address follows: "De : Battle Line <play@…>", never a player's words)
    # Any client in any language: an attribution names the sender's address in brackets and ends with a
    # colon ("вс, 29 нояб. 2026 г. в 10:00, Battle Line <play+…@…>:", "… <play@…> napsal(a):")
    r"^.*<[^<>\s@]+@[^<>\s]+>.{0,40}[:：]$",
)), re.IGNORECASE)
_RULE = re.compile(r"^[_\-=─━]{10,}$")  # Outlook's "________________________________" and the like
_HEADER_LINE = re.compile(r"^(?:From|Sent|Date|To|Cc|Subject|发件人|發件人|发送时间|發送時間|收件人|抄送|主题|主旨|"
                          r"寄件者|寄件日期|差出人|送信日時|宛先|件名|Từ|Đã gửi|Đến|Chủ đề|"
                          r"Von|Gesendet|An|Betreff|De|Envoyé|À|Objet|Enviado|Para|Asunto|Da|Inviato|A|Oggetto|"
                          r"Van|Verzonden|Aan|Onderwerp|Od|Wysłano|Do|Temat|От|Отправлено|Кому|Тема|"
                          r"보낸 사람|보낸 날짜|받는 사람|제목)\s*[:：]", re.IGNORECASE)
_LINK = re.compile(r"https?://", re.IGNORECASE)


def _quote_mark(line: str) -> bool:
    return line.startswith((">", "＞"))


def _header(line: str) -> bool:
    return bool(QUOTE_HEADERS.match(line) or MORE_QUOTE_HEADERS.match(line))


def _outlook(line: str) -> bool:
    """A quote begun the way Outlook and its like quote: a rule or a header block, then the quoted
    email without ``>``."""
    line = line.lstrip(">＞ ")
    return bool(_RULE.match(line) or _HEADER_LINE.match(line) or MORE_QUOTE_HEADERS.match(line)
                or re.search(r"Original Message|原始|元のメ|Thư gốc|Tin nhắn gốc|邮件原件|回复的原邮件", line, re.I))


def _wrapped_address(line: str, following: str) -> bool:
    """An attribution wrapped inside the sender's address ("… <" / "play@x> 写道：")."""
    return line.endswith("<") or following.startswith("<") or "@" in following.split(">")[0]


def _quote_start(lines: list[str]) -> tuple[int, int] | None:
    """Where the quoted email begins and how many lines its header takes: a ``>`` line, a client's
    header (one line, or wrapped over two), or a rule right above a ``From:``/``Sent:`` header block."""
    for index, line in enumerate(lines):
        if not line:
            continue
        if _quote_mark(line) or _header(line):
            return index, 0 if _quote_mark(line) else 1
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if following and (_header(f"{line} {following}") or _header(line + following)) and (
                not _header(following) or _wrapped_address(line, following)):
            return index, 2  # "On Mon, …, Battle Line <" / "play@example.org> wrote:"
        if _RULE.match(line):
            after = next((later for later in lines[index + 1:] if later), "")
            if _HEADER_LINE.match(after.lstrip(">＞ ")):
                return index, 1
    return None


_BIDI_MARKS = re.compile("[\u200e\u200f\u202a-\u202e\u2066-\u2069\u061c]")


def own_text(text: str, depth: int = 0) -> str:
    """The lines the reply's writer wrote (the email it quotes left out): above the quote, or below
    it when nothing is above it (bottom-posted)."""
    lines = [_BIDI_MARKS.sub("", line).strip() for line in text.splitlines()]  # (Hebrew and Arabic clients wrap
    found = _quote_start(lines)                                                 # their attribution in them)
    if found is None:
        return "\n".join(lines)
    start, header = found
    if any(lines[:start]) or depth > 3:
        return "\n".join(lines[:start])
    rest = lines[start + header:]
    if _outlook(lines[start]):  # quoted without ">": the reply goes on after our email's last link
        links = [i for i, line in enumerate(rest) if _LINK.search(line)]
        return own_text("\n".join(rest[links[-1] + 1:]), depth + 1) if links else ""
    after = next((i for i, line in enumerate(rest) if line and not _quote_mark(line)), None)  # after the ">" lines
    return "" if after is None else own_text("\n".join(rest[after:]), depth + 1)


# What only our own emails hold: the game's id ("game g_0123456789abcdef"), the links to its board, its
# steps and its answers. A reply whose message holds one quotes our email in a way no rule above knew.
OUR_LINKS = re.compile(r"/v1/(?:links|games|answers|invitations|unsubscribe)/")


def quotes_our_email(text: str, game_id: str) -> bool:
    """Does the text hold a line of this game's emails (its id, one of our links)? Such a text is never
    sent to the other players as a message: it may quote the seat's own hand. (Another game's id, named
    in a message, is a player's words.)"""
    return game_id in text or bool(OUR_LINKS.search(text))


# ---------------------------------------------------------------- a reply

@dataclass
class Reply:
    text: str  # the writer's own text (commands and a message), without the email it quotes
    unread: list[tuple[str, str]] = field(default_factory=list)  # parts read lossily: (type, charset label)


def _payload(part: Message) -> bytes:
    try:
        data = part.get_payload(decode=True)
    except Exception:  # noqa: BLE001 (broken transfer encoding: the raw payload)
        data = None
    if isinstance(data, bytes):
        return data
    raw = part.get_payload()
    if isinstance(raw, str):
        return raw.encode("utf-8", "surrogateescape")
    return b""


def _label(part: Message) -> str | None:
    try:
        label = part.get_param("charset")
        if isinstance(label, tuple):  # RFC 2231: (charset, language, value)
            label = label[2]
        return str(label) if label else None
    except Exception:  # noqa: BLE001
        return None


def _read(part: Message, unread: list[tuple[str, str]]) -> str:
    label = _label(part)
    decoded = decode(_payload(part), label)
    kind = "text/plain"
    try:
        kind = part.get_content_type()
    except Exception:  # noqa: BLE001
        pass
    if decoded.lossy:
        unread.append((kind, label or ""))
    return html_text(decoded.text) if kind == "text/html" else decoded.text


def _body(message: Message, subtype: str) -> Message | None:
    try:
        return message.get_body((subtype,))  # type: ignore[attr-defined]
    except Exception:  # noqa: BLE001 (broken MIME)
        return None


def read_reply(message: Message) -> Reply:
    """A reply's own text, from its text part, or from its HTML when the text part is missing or
    empty; never raises."""
    unread: list[tuple[str, str]] = []
    plain = _body(message, "plain")
    if plain is not None:
        text = _read(plain, unread)
        if text.strip():
            return Reply(own_text(text), unread)
        unread.clear()
    html = _body(message, "html")
    if html is not None:
        return Reply(own_text(_read(html, unread)), unread)
    try:
        multipart = message.is_multipart()
    except Exception:  # noqa: BLE001
        multipart = True
    if not multipart or isinstance(message.get_payload(), str):  # no text part, or no boundary: the body
        return Reply(own_text(_read(message, unread)), unread)
    return Reply("", unread)
