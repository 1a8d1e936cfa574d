"""A game's step types, each said once: its shape, its text command, its words, its event.

Each game has one table (``games/<game>/steps.py``, ``STEPS``) with an entry per step type:

* ``model``: the pydantic model of the step as clients post it (the API's schema and its
  validation; the ``type`` literal is the step type's name);
* ``command``: the command's leading words in play by email and the CLI (``"play"``,
  ``"end turn"``), with ``read`` (the rest of the words -> the step) and ``write`` (the step ->
  its command, for the moves listed in emails);
* ``describe``: the step in words, for links and confirmation pages;
* ``event`` and ``recorded``: the event type that records the step and how the step is read
  back from that event's data (``games.replay``);
* ``kind``: what steps of the type are, a plural noun ("deployments"), for an email that counts
  those it leaves to the board page.

Whether a step is legal now is not here: that is the rules' business (the game's phases).
Adding a step type is one entry here plus its rule.
"""

from __future__ import annotations

import difflib
import itertools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Annotated, Any, Union, get_args

from pydantic import BaseModel, Field, TypeAdapter

from ..kernel import i18n  # the text-command reader reads and writes people's words in the language spoken
from ..kernel.i18n import N_, _
from ..kernel.shapes import DEFERRED
from .base import Quoted, Words
from .commandwords import Words as Vocabulary
from .commandwords import plain
from .commandwords import words as words_in

Step = dict[str, Any]


class CommandError(ValueError):
    """A line of a play-by-email message (or the CLI) that is not a command of the game. ``reason``
    says why (Words: English as a str, ``i18n.say(error.reason)`` in the language spoken)."""

    def __init__(self, template: str | tuple[str, str] = "", /, *, n: int | None = None, **words: Any) -> None:
        reason = template if isinstance(template, Words) else Words(template, n=n, **words)
        super().__init__(reason)
        self.reason = reason


class Unreadable(CommandError):
    """Raised by a step type's ``read`` when the words do not make its command; the table then
    names the whole line: "cannot read 'draw'" and the ``hint``, if any ("e.g. 'play 7R 3'")."""

    def __init__(self, hint: str = "", /, example: Step | None = None, **words: Any) -> None:
        super().__init__(hint, **words)
        self.hint = self.reason if hint else ""  # words of its own (Words), or
        self.example = example  # a step like the one meant, written as a command in the reader's words


# Where a mail client begins the email it quotes, in the languages our players write (a line,
# stripped). Each pattern names the clients that write it.
QUOTE_HEADERS = re.compile("|".join((
    r"^On .+wrote:$",  # Gmail, Apple Mail, Thunderbird (English): "On Mon, 23 Nov 2026, Ann <a@x> wrote:"
    r".*(?:写道|寫道)\s*[:：]$",  # Gmail, Apple Mail, QQ Mail, NetEase (Chinese): "在 2026年11月23日 … 写道："
    r".*の(?:メール|メッセージ)\s*[:：]$",  # Apple Mail, Thunderbird (Japanese): "2026/11/23 10:00、Ann <a@x>のメール:"
    r"^\d{4}年\d{1,2}月\d{1,2}日.*[:：]$",  # Gmail (Japanese): "2026年11月23日(月) 10:00 Ann <a@x>:"
    r".*đã viết\s*:?$",  # Gmail, Apple Mail (Vietnamese): "Vào Th 2, 23 thg 11, 2026 lúc 10:00 Ann <a@x> đã viết:"
    # Outlook, Yahoo Japan, QQ Mail, NetEase: a rule around "Original Message" in each language
    r"^[-_=\s]*(?:Original Message|原始邮件|原始郵件|邮件原件|回复的原邮件|元のメッセージ|Thư gốc|Tin nhắn gốc)[-_=\s]*$",
    # Outlook's quoted header block: "From:", "发件人：", "寄件者:", "差出人:", "Từ:" then the sender
    r"^(?:From|发件人|發件人|寄件者|差出人|Từ)\s*[:：]\s*\S.*$",
)), re.IGNORECASE)


def _ends_text(line: str) -> bool:
    """A quoted reply (lines starting with ">" or "＞", or a mail client's header of the email it
    quotes, ``QUOTE_HEADERS``) or a signature ("-- ") begins."""
    return line.startswith((">", "＞")) or line == "--" or line.startswith("-- ") or bool(QUOTE_HEADERS.match(line)) \
        or bool(SENT_FROM.match(line))


def command_lines(text: str) -> list[str]:
    """The command lines of a message: everything from a quoted reply (lines starting with ">",
    or a mail client's "On ... wrote:" in any of our languages) or a signature ("-- ") on is left out."""
    return [line for line, _ in paragraph_lines(text)]


def paragraph_lines(text: str) -> list[tuple[str, bool]]:
    """The non-blank lines of a message before any quoted reply or signature, stripped, each with
    whether a blank line came before it (it begins a paragraph)."""
    lines, blank = [], False
    for raw in text.splitlines():
        line = raw.strip()
        if _ends_text(line):
            break
        if line:
            lines.append((line, blank))
        blank = not line
    return lines


MESSAGE_LINE = re.compile(r"^(?:message|say)\s*:\s*", re.IGNORECASE)  # "message: good luck"
# A phone's signature line ends a message too (it is no signature by the "-- " convention).
SENT_FROM = re.compile(r"^(?:Sent from my |Get Outlook for |发自我的|從我的|iPhoneから送信|Androidから送信|"
                       r"Gửi từ )", re.IGNORECASE)


def _bare(name: str) -> Callable[[list[str]], Step]:
    def read(words: list[str]) -> Step:
        if words:
            raise Unreadable()
        return {"type": name}
    return read


@dataclass(frozen=True)
class StepType:
    """One step type of a game (see the module's docstring). A step with nothing but its type
    needs only ``model`` and ``command``: it is read, written and told by its command."""

    model: type[BaseModel]
    command: str
    read: Callable[[list[str]], Step] | None = None
    write: Callable[[Step], str] | None = None
    describe: Callable[[Step], str] | None = None
    event: str | None = None  # the event type that records the step; None: the step's name
    recorded: Callable[[dict], Step | None] | None = None  # event data -> the step; None: just its type
    # What steps of this type are, a plural noun marked N_ ("deployments"): an email counts those it
    # leaves to the board page by it ("60 deployments", "Claims: 13 choices"), in the reader's language.
    kind: str = ""

    @property
    def name(self) -> str:
        return get_args(self.model.model_fields["type"].annotation)[0]

    def read_words(self, words: list[str]) -> Step:
        return (self.read or _bare(self.name))(words)

    def write_step(self, step: Step) -> str:
        return self.write(step) if self.write else self.command

    def describe_step(self, step: Step) -> str:
        return self.describe(step) if self.describe else self.write_step(step)

    def step_from(self, data: dict) -> Step | None:
        return self.recorded(data) if self.recorded else {"type": self.name}


@dataclass(frozen=True)
class StepTable:
    """A game's step types, in the order its schema lists them."""

    types: tuple[StepType, ...]
    split: Callable[[str], list[str]] = field(default=str.split)  # a command line -> its words
    game: str = ""  # whose command words in other languages it reads and writes (games.commandwords)
    example: tuple[str, ...] = ()  # a command or two, the hint of a line that cannot be read

    @classmethod
    def of(cls, *types: StepType, split: Callable[[str], list[str]] = str.split, game: str = "",
           example: tuple[str, ...] = ()) -> "StepTable":
        return cls(tuple(types), split, game, example)

    def __post_init__(self) -> None:
        names = [t.name for t in self.types]
        if len(set(names)) != len(names):
            raise ValueError(f"a step type is listed twice: {names}")
        unnamed = [t.name for t in self.types if not t.kind]
        if unnamed:
            raise ValueError(f"a step type has no kind, the words an email counts it by: {unnamed}")

    # ------------------------------------------------------------ shape

    @property
    def schema(self) -> Any:
        """The pydantic type of one step: a union of the models told apart by ``type``."""
        return Annotated[Union[tuple(t.model for t in self.types)], Field(discriminator="type")]  # noqa: UP007

    @cached_property
    def adapter(self) -> TypeAdapter:
        return TypeAdapter(self.schema, config=DEFERRED)

    def parse_step(self, raw: object) -> Step:
        """Validate a step's shape and return it as plain data (raises pydantic.ValidationError).
        An optional field sent as null is left out, as if it had not been sent."""
        return self.adapter.validate_python(raw).model_dump(exclude_none=True)

    def __getitem__(self, name: str) -> StepType:
        for step_type in self.types:
            if step_type.name == name:
                return step_type
        raise KeyError(name)

    def names(self) -> tuple[str, ...]:
        return tuple(t.name for t in self.types)

    # ------------------------------------------------------------ text commands

    def words(self) -> Vocabulary | None:
        """The command words of the language spoken now (None: English only)."""
        return words_in(self.game, i18n.language())

    def say(self, command: str) -> str:
        """An English command line in the words of the language spoken now ("play 7R 3" -> "出 7R 3")."""
        table = self.words()
        return table.say(command) if table else command

    def read_line(self, line: str) -> Step:
        """The step a command line asks for (raises CommandError naming the line), in the words of
        the language spoken now or in English. Case does not matter in a command's leading words;
        the longest command that fits is taken."""
        table = self.words()
        words = self.split(table.english(line) if table else plain(line))
        lowered = [w.lower() for w in words]
        for step_type in sorted(self.types, key=lambda t: -len(t.command.split())):
            head = step_type.command.split()
            if lowered[:len(head)] == head:
                try:
                    return step_type.read_words(words[len(head):])
                except Unreadable as error:
                    hint = error.hint or (Words(N_("e.g. {example}"), example=Quoted(
                        self.say(step_type.write_step(error.example)))) if error.example else "")
                    if hint:
                        raise CommandError(N_("cannot read {line}: {hint}"), line=Quoted(line), hint=hint) from None
                    raise CommandError(N_("cannot read {line}"), line=Quoted(line)) from None
        near = self.near_command(lowered[0]) if lowered else None
        if near is not None:  # a slip of the keyboard ("paly"): the command it most likely meant
            raise CommandError(N_("cannot read {line}: did you mean {word}? A command begins with one of {words}"),
                               line=Quoted(line), word=Quoted(near), words=self.command_words())
        raise CommandError(N_("cannot read {line}: a command begins with one of {words}"), line=Quoted(line),
                           words=self.command_words())

    def near_command(self, word: str) -> str | None:
        """The command's leading word closest to a misspelt one (in the reader's words or in English),
        if one is close enough to be a slip ("paly" -> play, "calim" -> claim); else None."""
        english = list(dict.fromkeys(t.command.split()[0] for t in self.types))
        said = list(dict.fromkeys(self.say(c).split()[0] for c in english))
        found = difflib.get_close_matches(word, list(dict.fromkeys(said + english)), n=1, cutoff=0.7)
        return found[0] if found else None

    def command_words(self) -> str:
        """The commands' leading words as the reader may write them, as a choice: "出, 声明, 抓, ...
        (or play, claim, ...)"."""
        english = list(dict.fromkeys(t.command for t in self.types))
        said = list(dict.fromkeys(self.say(c) for c in english))
        if said == english:
            return i18n.either(english)
        return _("{words} (or in English: {english})").format(words=i18n.either(said),
                                                               english=i18n.either(english))

    def read_commands(self, text: str) -> list[Step]:
        """The steps a message's text asks for, in order (raises CommandError naming the line)."""
        lines = command_lines(text)
        if not lines:
            raise CommandError(N_("the message holds no command"))
        return [self.read_line(line) for line in lines]

    def read_reply(self, text: str) -> tuple[list[Step], str | None]:
        """A reply by email: its steps, and the message to the other seats that goes with them (None:
        none). The commands come first, one a line; the message is what follows them after a blank
        line (a paragraph that does not begin with a command), or from a line beginning ``message:``
        or ``say:``, up to the quoted email or a signature; its lines are joined with spaces. A line
        in the commands' own paragraph that is no command is refused as before (a mistyped command
        is never sent as a message). Raises CommandError."""
        lines = paragraph_lines(text)
        steps: list[Step] = []
        said: list[str] | None = None
        table = self.words()
        for index, (line, new_paragraph) in enumerate(lines):
            prefixed = MESSAGE_LINE.match(line)
            first = line[prefixed.end():] if prefixed else table.message_of(line) if table else None
            if first is not None or (steps and new_paragraph and not self._readable(line)):
                said = [line if first is None else first] + [rest for rest, _blank in lines[index + 1:]]
                break
            try:
                steps.append(self.read_line(line))
            except CommandError as error:
                if not steps:
                    raise
                raise CommandError(N_("{error} (a message to the other players goes after a blank line, or "
                                      "after 'message:')"), error=error.reason) from None
        if not steps:
            raise CommandError(N_("the message holds no command"))
        if said is not None:
            said = [line for line in itertools.takewhile(lambda line: not SENT_FROM.match(line), said)]
        text = " ".join(" ".join(said).split()) if said else ""
        return steps, text or None

    def _readable(self, line: str) -> bool:
        try:
            self.read_line(line)
        except CommandError:
            return False
        return True

    def write(self, step: Step) -> str:
        """A step as the command that asks for it."""
        return self[step["type"]].write_step(step)

    def describe(self, step: Step) -> str:
        """A step in words, for links and confirmation pages."""
        return self[step["type"]].describe_step(step)

    # ------------------------------------------------------------ events

    def step_of(self, event: dict) -> Step | None:
        """The step an event records (``data`` with the private parts merged in), or None for an
        event a step caused."""
        for step_type in self.types:
            if (step_type.event or step_type.name) == event["type"]:
                return step_type.step_from(event["data"])
        return None


def words_of(line: str, *, separators: Iterable[str] = ()) -> list[str]:
    """A command line's words, with each of ``separators`` read as a space."""
    for separator in separators:
        line = line.replace(separator, " ")
    return line.split()
