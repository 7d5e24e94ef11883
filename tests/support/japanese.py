"""What a Japanese club must see: no English word in anything a player reads."""

from __future__ import annotations

import re

from tests.fakediscord import FakeMessage, InteractionResult

#: What may stay Latin in a Japanese message: mentions, Discord timestamps, thread links,
#: code spans, links, what the player typed (quoted 「so」), moves in notation (7g7f,
#: +7776FU) and the names of record formats and their encodings.
_NOT_PROSE = re.compile(
    r"<[@#]\d+>|<t:\d+:\w>|`[^`]*`|<?https?://\S+|「[^」]*」"
    r"|(?a:[\w+*=-]*\d[\w+*=-]*)|(?<![A-Za-z])(?:KIFU|KI2U|KIF|KI2|CSA|SFEN|USI|GIF|lishogi|Shift_JIS)(?![A-Za-z])"
)
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


def english_in(text: str) -> list[str]:
    """The Latin words left in `text` once what is not prose is taken out."""
    return _LATIN_WORD.findall(_NOT_PROSE.sub("", text))


def embed_texts(message: FakeMessage) -> list[str]:
    """The texts of a message's embeds as a reader sees them: titles, descriptions, and
    each field's heading and text."""
    texts = []
    for embed in message.embeds:
        texts += [embed.get("title") or "", embed.get("description") or ""]
        for field in embed.get("fields") or []:
            texts += [field["name"], field["value"]]
    return [text for text in texts if text]


def assert_japanese(*messages: FakeMessage | InteractionResult) -> None:
    """Every text a player sees in `messages` is Japanese: content, embeds, button labels
    and the alt text of images."""
    for message in messages:
        seen = message.messages if isinstance(message, InteractionResult) else [message]
        for shown in seen:
            texts = [shown.content, *shown.labels, *embed_texts(shown)]
            texts += [a.description or "" for a in shown.attachments]
            for text in texts:
                assert english_in(text) == [], f"English in {text!r}"
