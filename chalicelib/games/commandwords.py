"""The command words of play by email in each language: ONE table per language, here.

A reply is read in its writer's language and in English (the language spoken around the reading,
``i18n.speaking``): a line's words in the table are read as the English command words the step
tables know (``games/<game>/steps.py``), and the table writes the commands an email shows in that
language. The words come from the rule books (docs/glossary-<locale>.md), with the other words
natives type for the same thing; each is listed in docs/notifications.md.

How a line is read, before the step table reads it (``english``):

* NFKC: full-width digits, letters and spaces read as ASCII ("７Ｒ　３" is "7R 3");
* punctuation (，、。：；！？ and ASCII , ; : . ! ?) reads as a space; so does the boundary between
  Chinese or Japanese characters and ASCII ("出7R到3" is "出 7R 到 3");
* a run of Chinese or Japanese characters is cut into the table's words, longest first ("抓部队"
  is "抓 部队", "宣言なし" is "宣言 なし");
* the command (its leading words) is looked up in ``commands``; the words after it in ``words``
  (decks, "none", tactics cards by name); ``fillers`` ("到", "地区", "に", "を", "chốt") are left
  out; Japanese may put the verb last ("7Rを3に出す");
* Vietnamese is also read without its diacritics ("rut linh" is "rút lính");
* Chinese is also read in Traditional characters ("不聲明", "抓 部隊": all a Big5 writer can type):
  ``TRADITIONAL`` maps the Traditional form of each character the command words use to its
  Simplified one;
* English (``plain``): full-width characters read as ASCII, and punctuation ending the line is left
  out ("ｐｌａｙ　８Ｒ　３", "Play 8R 3." read "play 8R 3").

A word means one thing in its place: a command word only leads a line (or ends a Japanese one);
a deck, "none" or a card only follows the command. English words are read as they always were.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import cached_property


@dataclass(frozen=True)
class Words:
    """One language's command words: the first word of each entry is the one emails write."""

    commands: dict[str, tuple[str, ...]]  # English command (or whole line) -> the language's words
    words: dict[str, tuple[str, ...]] = field(default_factory=dict)  # English argument -> words
    fillers: tuple[str, ...] = ()  # words that say nothing a command needs ("to", "flag")
    verb_last: bool = False  # the command word may end the line (Japanese)
    message: tuple[str, ...] = ()  # a line beginning "<word>:" is a message to the others
    colours: dict[str, str] = field(default_factory=dict)  # a troop as the rule book writes it: 红7, 赤4 -> 7R, 4R
    traditional: bool = False  # Chinese: read Traditional characters as the Simplified ones (TRADITIONAL)

    @cached_property
    def _command_of(self) -> dict[str, str]:
        return {_key(w): english for english, words in self.commands.items() for w in words}

    @cached_property
    def _word_of(self) -> dict[str, str]:
        return {_key(w): english for english, words in self.words.items() for w in words}

    @cached_property
    def _fillers(self) -> frozenset[str]:
        return frozenset(_key(w) for w in self.fillers)

    @cached_property
    def _cjk_words(self) -> tuple[str, ...]:
        """Every CJK word of the table, longest first: how a run of characters is cut."""
        every = {w for words in (*self.commands.values(), *self.words.values()) for w in words} | set(self.fillers)
        return tuple(sorted((w for w in every if _CJK.search(w)), key=len, reverse=True))

    @cached_property
    def _longest(self) -> int:
        every = [w for words in (*self.commands.values(), *self.words.values()) for w in words] + list(self.fillers)
        return max(len(w.split()) for w in every)

    # ------------------------------------------------------------ reading

    def english(self, line: str) -> str:
        """The line in the step tables' English words (words of no table are kept as they are)."""
        line = unicodedata.normalize("NFKC", line)
        if self.traditional:
            line = simplified(line)
        tokens = [t for t in _tokens(self._troops(line), self._cjk_words)]
        command, rest = self._match(tokens, 0, self._command_of)
        if command is None and self.verb_last and tokens:
            for start in range(len(tokens) - 1, 0, -1):  # the verb at the end: "7R 3 出す"
                found, end = self._match(tokens, start, self._command_of)
                if found is not None and end == len(tokens):
                    command, tokens, rest = found, tokens[start:] + tokens[:start], end - start
                    break
        out = [command] if command is not None else []
        index = rest if command is not None else 0
        while index < len(tokens):
            found, end = self._match(tokens, index, self._word_of)
            if found is not None:
                out.append(found)
                index = end
            elif _key(tokens[index]) in self._fillers:
                index += 1
            else:
                out.append(tokens[index])
                index += 1
        return " ".join(out)

    def _troops(self, line: str) -> str:
        """Troops written as the rule books write them, colour then value ("红7", "赤4"), in the notation
        (" 7R "). Only that order: "7 红3" would otherwise read two ways."""
        if not self.colours:
            return line
        names = "|".join(sorted(map(re.escape, self.colours), key=len, reverse=True))
        return re.sub(rf"({names})(10|[1-9])(?![0-9])", lambda m: f" {m.group(2)}{self.colours[m.group(1)]} ", line)

    def _match(self, tokens: list[str], start: int, table: dict[str, str]) -> tuple[str | None, int]:
        """The longest phrase of ``table`` at ``tokens[start:]``: its English and where it ends."""
        for size in range(min(self._longest, len(tokens) - start), 0, -1):
            found = table.get(_key(" ".join(tokens[start:start + size])))
            if found is not None:
                return found, start + size
        return None, start

    # ------------------------------------------------------------ writing

    def say(self, command: str) -> str:
        """An English command line in this language's words: whole lines first ("claim none" ->
        "不声明"), then the leading command and each argument word."""
        words = command.split()
        for size in range(len(words), 0, -1):
            head = " ".join(words[:size]).lower()
            if head in self.commands:
                said = self.commands[head][0]
                rest = [(self.words.get(w) or self.words.get(w.lower()) or (w,))[0] for w in words[size:]]
                return " ".join([said, *rest])
        return " ".join((self.words.get(w) or self.words.get(w.lower()) or (w,))[0] for w in words)

    def message_of(self, line: str) -> str | None:
        """The message on a line that begins "<message word>:" ("留言：加油"), or None."""
        for word in self.message:
            match = re.match(rf"^{re.escape(word)}\s*[:：]\s*", simplified(line) if self.traditional else line,
                             re.IGNORECASE)
            if match:
                return line[match.end():]
        return None


_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]")
_PUNCTUATION = re.compile(r"[，、。：；！？,;:.!?「」『』（）()【】\[\]\"'“”‘’…~～]")
_SCRIPT_BOUNDARY = re.compile(r"(?<=[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff])(?=[0-9A-Za-z])|"
                              r"(?<=[0-9A-Za-z])(?=[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff])")


# The Traditional characters of the Chinese command words (those Big5 has, in place of the Simplified
# ones it has not, and the forms Taiwan and Hong Kong write: 佔, 於, 裡) -> the Simplified ones.
TRADITIONAL = str.maketrans(dict(zip(
    "東個亞從偵擊動區單歷號聲應開棄張戰無術沒澤稱紅結絕綠藍認議調費轉輸達過進隊霧黃據於裡裏佔",
    "东个亚从侦击动区单历号声应开弃张战无术没泽称红结绝绿蓝认议调费转输达过进队雾黄据于里里占", strict=True)))
_TRAILING = " \t.,;:!?。，、；：！？…"


def simplified(text: str) -> str:
    """Chinese in Traditional characters as the command words write it, in Simplified ones."""
    return text.translate(TRADITIONAL)


def plain(line: str) -> str:
    """An English command line as its step table reads it: full-width characters as ASCII (NFKC), and
    no punctuation at its end ("Ｐｌａｙ　８Ｒ　３。" is "Play 8R 3")."""
    return unicodedata.normalize("NFKC", line).strip().rstrip(_TRAILING)


def _key(word: str) -> str:
    """A word as it is looked up: lower case, without diacritics (Vietnamese typed without them)."""
    word = unicodedata.normalize("NFKC", word).lower().replace("đ", "d")
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


def _tokens(line: str, cjk_words: tuple[str, ...]) -> list[str]:
    line = unicodedata.normalize("NFKC", line)
    line = _SCRIPT_BOUNDARY.sub(" ", _PUNCTUATION.sub(" ", line))
    tokens = []
    for token in line.split():
        tokens.extend(_cut(token, cjk_words) if _CJK.search(token) else [token])
    return tokens


def _cut(run: str, cjk_words: tuple[str, ...]) -> list[str]:
    """A run of Chinese or Japanese characters cut into the table's words, longest first; what no
    word fits stays as it is (then the line cannot be read, and the answer says so)."""
    pieces, unknown, index = [], "", 0
    while index < len(run):
        word = next((w for w in cjk_words if run.startswith(w, index)), None)
        if word is None:
            unknown += run[index]
            index += 1
            continue
        if unknown:
            pieces.append(unknown)
            unknown = ""
        pieces.append(word)
        index += len(word)
    return pieces + ([unknown] if unknown else [])


# ---------------------------------------------------------------- the tables

_BATTLELINE_ZH = Words(
    commands={
        "claim none": ("不声明", "不声明占据", "不占据", "不宣告"),
        "play": ("出", "打出", "出牌"),
        "claim": ("声明", "声明占据", "宣告", "宣称", "占据"),
        "draw": ("抓", "抓牌", "抽", "抽牌", "摸", "摸牌"),
        "pass": ("略过", "过", "跳过", "不出"),
        "resign": ("认输", "投降"),
        "scout": ("侦察抓", "侦察抽"),
        "return": ("放回",),
        "mud": ("弃", "弃掉", "弃牌"),
    },
    words={
        "troop": ("部队", "部队牌", "部队牌堆"),
        "tactics": ("战术", "战术牌", "战术牌堆"),
        "none": ("无", "不", "没有", "都不"),
        "discard": ("弃", "弃掉", "弃牌"),
        "SCOUT": ("侦察卡", "侦察"), "REDEPLOY": ("调整卡", "调整"), "DESERTER": ("逃亡卡", "逃亡"),
        "TRAITOR": ("叛逆卡", "叛逆"), "FOG": ("迷雾卡", "迷雾"), "MUD": ("沼泽卡", "沼泽"),
        "ALEXANDER": ("亚历山大",), "DARIUS": ("大流士",), "COMPANION": ("攻击卡",), "SHIELD": ("防守卡",),
    },
    fillers=("到", "在", "于", "至", "放到", "放在", "第", "号", "个", "地区", "张", "和", "从", "的",
             "上", "里", "一张"),
    message=("留言", "消息", "附言"),
    colours={"红": "R", "橙": "O", "黄": "Y", "绿": "G", "蓝": "B", "紫": "P"},  # BL-000 "【红5】【蓝5】"
    traditional=True,
)

_BATTLELINE_JA = Words(
    commands={
        "claim none": ("宣言なし", "宣言しない", "宣言しません"),
        "play": ("プレイ", "出す", "出します", "出", "置く"),
        "claim": ("宣言", "宣言する", "宣言します", "フラッグ宣言", "勝利宣言"),
        "draw": ("引く", "引きます", "ドロー", "引"),
        "pass": ("パス", "パスします"),
        "resign": ("投了", "投了します", "降参", "降参します"),
        "scout": ("偵察ドロー",),
        "return": ("戻す", "戻します"),
        "mud": ("捨てる", "捨てます"),
    },
    words={
        "troop": ("軍隊", "軍隊カード", "軍隊山札"),
        "tactics": ("戦略", "戦略カード", "戦略山札", "戦術", "戦術カード"),
        "none": ("なし", "無し", "しない"),
        "discard": ("捨てる", "捨て札"),
        "SCOUT": ("偵察",), "REDEPLOY": ("再配置",), "DESERTER": ("脱走兵",), "TRAITOR": ("裏切り者",),
        "FOG": ("霧",), "MUD": ("泥濘",), "ALEXANDER": ("アレクサンダー",), "DARIUS": ("ダレイオス",),
        "COMPANION": ("コンパニオン騎兵",), "SHIELD": ("盾持ち兵",),
    },
    fillers=("を", "に", "へ", "で", "から", "の", "は", "と", "フラッグ", "番", "枚", "山札", "カード"),
    verb_last=True,
    message=("メッセージ", "伝言", "一言"),
    colours={"赤": "R", "オレンジ": "O", "橙": "O", "黄": "Y", "緑": "G", "青": "B", "紫": "P"},  # 002「赤4」「黄8」
)

_BATTLELINE_VI = Words(
    commands={
        "claim none": ("không chiếm", "không tuyên bố"),
        "play": ("đánh", "chơi", "ra"),
        "claim": ("chiếm", "tuyên bố", "tuyên bố chiếm", "chiếm chốt"),
        "draw": ("rút", "rút bài"),
        "pass": ("bỏ lượt", "qua lượt", "qua"),
        "resign": ("đầu hàng", "chịu thua"),
        "scout": ("trinh sát rút",),
        "return": ("trả lại", "đặt lại"),
        "mud": ("bỏ",),
    },
    words={
        "troop": ("lính", "bài lính", "xấp bài lính", "xấp lính"),
        "tactics": ("chiến thuật", "bài chiến thuật", "xấp bài chiến thuật", "xấp chiến thuật"),
        "none": ("không", "không có", "không chốt nào"),
        "discard": ("bỏ", "bỏ đi"),
    },
    fillers=("vào", "ở", "tại", "lên", "sang", "chốt", "lá", "số", "từ", "và"),
    message=("lời nhắn", "nhắn", "tin nhắn"),
)

# Khan & General: its rule book (003) is Chinese, and gives these words; squares stay "x y" and cards
# their ids (heavy_cavalry), as the email's board writes them.
_KHAN_ZH = Words(
    commands={
        "place": ("放置", "放置初始单位"),
        "deploy": ("部署",),
        "flip": ("翻开", "翻面"),
        "discard": ("弃", "弃掉", "弃置"),
        "command": ("指令", "下达指令", "打出指令"),
        "pay": ("支付", "支付费用"),
        "move": ("移动",),
        "turn": ("转向",),
        "skip": ("跳过",),
        "engage": ("交战", "攻击"),
        "advance": ("推进", "推进占据"),
        "stay": ("不推进", "原地不动"),
        "end action": ("结束行动",),
        "end reaction": ("结束反应",),
        "end engagements": ("结束交战", "结束结算"),
        "end turn": ("结束回合",),
        "offer draw": ("提议平局", "提和"),
        "accept draw": ("接受平局", "同意平局"),
        "decline draw": ("拒绝平局",),
        "resign": ("认输", "投降"),
    },
    words={"to": ("到", "至"), "with": ("用", "以"), "seq": ("序列", "指令序列"),
           "N": ("北", "朝北"), "E": ("东", "朝东"), "S": ("南", "朝南"), "W": ("西", "朝西")},
    fillers=("在", "的", "单位", "朝向", "面向", "方格", "第"),
    message=("留言", "消息", "附言"),
    traditional=True,
)

BATTLELINE = {"zh-Hans": _BATTLELINE_ZH, "ja": _BATTLELINE_JA, "vi": _BATTLELINE_VI}
KHAN = {"zh-Hans": _KHAN_ZH}
TABLES: dict[str, dict[str, Words]] = {"battleline": BATTLELINE, "khan": KHAN}


# A reply that answers a game it is asked to play: one word (English "accept" / "decline" always).
ANSWERS: dict[str, dict[str, tuple[str, ...]]] = {
    "zh-Hans": {"accept": ("接受", "同意", "好"), "decline": ("拒绝", "不接受", "不")},
    "ja": {"accept": ("承諾", "承諾します", "受ける", "受けます", "参加", "参加します", "はい"),
           "decline": ("辞退", "辞退します", "断る", "お断りします", "いいえ")},
    "vi": {"accept": ("chấp nhận", "đồng ý", "có"), "decline": ("từ chối", "không")},
}


def answer(word: str, language: str) -> str:
    """A reply's one word as "accept" or "decline" (in the language or in English), else as it is."""
    word = unicodedata.normalize("NFKC", word)
    key = _key(_PUNCTUATION.sub(" ", simplified(word) if language == "zh-Hans" else word).strip())
    for english, words in ANSWERS.get(language, {}).items():
        if key in {_key(w) for w in words}:
            return english
    return key


def words(game: str, language: str) -> Words | None:
    """The game's command words in ``language`` (None: English only)."""
    return TABLES.get(game, {}).get(language)
