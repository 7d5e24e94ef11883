"""Whom a post's text mentions: `text.addressed` adds the mentions the audience asks for
that the sentence lacks, never the bot's, and a name written to look like a mention does
not stand in for one; `notify.unmention` names in a direct message whom the post pinged."""

from __future__ import annotations

from bot.services import PlayerRef
from bot.ui import text
from bot.ui.notify import unmention

ALICE, BOB = (
    PlayerRef(1_000_000_000_000_000_001, "alice"),
    PlayerRef(1_000_000_000_000_000_002, "bob"),
)
COMPUTER = PlayerRef(1_000_000_000_000_000_099, "Shogi Bot", is_bot=True)


def test_a_mention_the_sentence_has_is_not_repeated() -> None:
    said = f"<@{BOB.user_id}>, your move is due."
    assert text.addressed(said, [BOB]) == said


def test_missing_mentions_come_first_on_a_line_of_their_own() -> None:
    said = "alice resigned after move 30: ☖bob wins."
    assert text.addressed(said, [ALICE, BOB]) == f"<@{ALICE.user_id}> <@{BOB.user_id}>\n{said}"
    assert text.addressed(said, []) == said


def test_the_bot_is_never_mentioned() -> None:
    assert text.addressed("Checkmate.", [COMPUTER]) == "Checkmate."
    assert text.mention(COMPUTER) == "Shogi Bot"


def test_a_name_that_looks_like_a_mention_does_not_count_as_one() -> None:
    hostile = PlayerRef(3, f"<@{BOB.user_id}>")
    said = f"{text.safe(hostile.name)} challenges you."
    assert text.addressed(said, [BOB]).startswith(f"<@{BOB.user_id}>\n")


def test_a_direct_message_names_whom_the_post_pinged() -> None:
    post = f"<@{BOB.user_id}>, <@{ALICE.user_id}> asks to take back their move."
    assert unmention(post, (ALICE, BOB)) == "bob, alice asks to take back their move."
    sneaky = PlayerRef(4, "**@everyone**")
    assert unmention(f"<@{sneaky.user_id}>", (sneaky,)) == text.safe(sneaky.name)
