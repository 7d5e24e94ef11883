"""What the bot did in answer to one interaction, as a test reads it: the reply the member
sees, its files and buttons, the follow-ups, the refused answers, and waits for each.

Why a class of its own: the bot answers over several HTTP calls (a defer, a follow-up, a
board posted in a thread), and the test should not care which; it asks for "the reply" and
waits until that exists.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Self

from .constants import ResponseType
from .models import FakeAttachment, FakeInteraction, FakeMessage, RequestRecord

if TYPE_CHECKING:
    from .driver import FakeDiscord


class HarnessTimeout(AssertionError):
    """A wait ran out: the message says what was awaited and what the fake saw meanwhile."""


class InteractionRejected(AssertionError):
    """The fake refused the bot's answer to an interaction (late, second, or malformed)."""

    def __init__(self, interaction: FakeInteraction, record: RequestRecord) -> None:
        super().__init__(f"the fake refused the bot's answer to {interaction.label}: {record}")
        self.interaction = interaction
        self.record = record


@dataclass(frozen=True)
class Choice:
    """One autocomplete choice the bot offered."""

    name: str
    value: str | int | float


class InteractionResult:
    """One interaction's answer; the fields fill in as the bot answers.

    ``reply`` is the message the member sees as the answer (the initial response, the
    updated message, or after a deferral the first follow-up).  ``sent`` is everything the
    bot posted anywhere since the interaction was dispatched.
    """

    def __init__(self, fake: FakeDiscord, interaction: FakeInteraction) -> None:
        self.fake = fake
        self.interaction = interaction

    def __repr__(self) -> str:
        return (
            f"<InteractionResult {self.interaction.label} response={self.response_type} "
            f"content={self.content!r}>"
        )

    # -- waiting --------------------------------------------------------------------------------

    def _unexpected_rejection(self) -> RequestRecord | None:
        expected = self.fake.expected_rejection_codes
        return next((r for r in self.interaction.rejections if r.code not in expected), None)

    async def wait_response(self, timeout: float | None = None) -> Self:
        """Until the initial response has been written back to the bot.

        Fails at once (:class:`InteractionRejected`) if the fake refuses an answer with a
        code the test did not declare with :meth:`FakeDiscord.expect_rejections`; declared
        ones are waited through, since the bot may recover.
        """
        await self.fake.wait_for(
            lambda: self.response_type is not None or self._unexpected_rejection() is not None,
            what=f"the bot's initial response to {self.interaction.label}",
            timeout=timeout,
        )
        refused = self._unexpected_rejection()
        if self.response_type is None and refused is not None:
            raise InteractionRejected(self.interaction, refused)
        return self

    async def wait_final(
        self, timeout: float | None = None, *, quiet: float | None = None, scope: str = "all"
    ) -> Self:
        """The initial response, then (after a defer) the real answer, or the "thinking"
        note deleted (the answer went elsewhere), then ``quiet`` calm.

        ``scope="all"`` waits until the bot makes no HTTP call at all (right for one
        player); ``scope="interaction"`` only for calls carrying this interaction's token
        (for many games in parallel).
        """
        await self.wait_response(timeout)
        if self.response_type == ResponseType.DEFERRED_CHANNEL_MESSAGE:
            await self.fake.wait_for(
                lambda: (
                    self.original is None
                    or not self.original.loading
                    or bool(self.interaction.followup_ids)
                ),
                what=f"the answer after deferring {self.interaction.label}",
                timeout=timeout,
            )
        await self.fake.wait_quiet(
            quiet,
            timeout=timeout,
            interaction=self.interaction if scope == "interaction" else None,
            since=self.interaction.created,
        )
        return self

    async def wait_followups(self, count: int = 1, timeout: float | None = None) -> Self:
        """Until at least ``count`` follow-ups have been sent (the first after a deferral
        replaces "thinking": it is the :attr:`original`, not a follow-up)."""
        await self.wait_response(timeout)
        await self.fake.wait_for(
            lambda: len(self.interaction.followup_ids) >= count,
            what=f"{count} follow-up(s) to {self.interaction.label}",
            timeout=timeout,
        )
        return self

    # -- reading --------------------------------------------------------------------------------

    @property
    def response_type(self) -> int | None:
        return self.interaction.response_type

    @property
    def deferred(self) -> bool:
        return self.response_type == ResponseType.DEFERRED_CHANNEL_MESSAGE

    @property
    def original(self) -> FakeMessage | None:
        """The message of the initial response (new, or the one a button sat on)."""
        if self.interaction.original_message_id is None:
            return None
        return self.fake.messages.get(self.interaction.original_message_id)

    @property
    def followups(self) -> list[FakeMessage]:
        return [self.fake.messages[i] for i in self.interaction.followup_ids]

    @property
    def posted_instead(self) -> FakeMessage | None:
        """After a public "thinking" note the bot deleted, with no follow-up: the answer it
        posted as a message of its own in the channel (a post that must notify someone
        cannot be the note's edit), the first it sent there after the interaction."""
        if self.response_type != ResponseType.DEFERRED_CHANNEL_MESSAGE:
            return None
        if self.original is not None or self.interaction.followup_ids:
            return None
        channel_id = self.interaction.channel_id
        return next((m for m in self.sent if m.channel_id == channel_id and not m.ephemeral), None)

    @property
    def messages(self) -> list[FakeMessage]:
        """The messages of this interaction: the response's own (or the post made instead
        of it), then the follow-ups."""
        original = self.original
        own = original is not None and (
            original.interaction_id == self.interaction.id
            or self.response_type == ResponseType.UPDATE_MESSAGE
        )
        instead = self.posted_instead
        if instead is not None:
            return [instead]
        return ([original] if own and original is not None else []) + self.followups

    @property
    def reply(self) -> FakeMessage | None:
        if self.response_type in (4, 5, 7) and self.original is not None:
            return self.original
        followups = self.followups
        return followups[0] if followups else self.posted_instead

    @property
    def content(self) -> str:
        reply = self.reply
        return "" if reply is None else reply.content

    @property
    def ephemeral(self) -> bool:
        reply = self.reply
        return bool(reply and reply.ephemeral)

    @property
    def files(self) -> list[FakeAttachment]:
        return [a for m in self.messages for a in m.attachments]

    @property
    def custom_ids(self) -> list[str]:
        return [cid for m in self.messages for cid in m.custom_ids]

    @property
    def labels(self) -> list[str]:
        return [label for m in self.messages for label in m.labels]

    @property
    def choices(self) -> list[Choice]:
        if self.response_type != ResponseType.AUTOCOMPLETE_RESULT:
            return []
        data = self.interaction.response_data or {}
        return [Choice(c["name"], c["value"]) for c in data.get("choices", [])]

    @property
    def rejections(self) -> list[RequestRecord]:
        return list(self.interaction.rejections)

    @property
    def sent(self) -> list[FakeMessage]:
        """Every message the bot created since this interaction was dispatched."""
        return [
            m
            for m in self.fake.messages.values()
            if m.id > self.interaction.id and m.published and m.author.id == self.fake.bot_user.id
        ]
