"""The fake Discord counts every REST request by route and by whether Discord's global limit
counts it: interaction responses and the interaction's webhook are exempt, the rest is not."""

from __future__ import annotations

import aiohttp

from tests.fakediscord import (
    CALLBACK,
    CREATE_MESSAGE,
    FakeChannel,
    FakeDiscord,
    FakeMember,
    RequestCounts,
    is_global_limited,
)
from tests.fakediscord.rest import ROUTE_KEYS

from .toybot import ToyBot

FOLLOWUP = "POST /webhooks/{application_id}/{token}"
GET_ORIGINAL = "GET /webhooks/{application_id}/{token}/messages/{message_id}"


def test_only_interaction_routes_are_exempt() -> None:
    exempt = {key for key in ROUTE_KEYS if not is_global_limited(key)}
    assert exempt == {
        CALLBACK,
        FOLLOWUP,
        GET_ORIGINAL,
        "PATCH /webhooks/{application_id}/{token}/messages/{message_id}",
        "DELETE /webhooks/{application_id}/{token}/messages/{message_id}",
    }
    assert is_global_limited(CREATE_MESSAGE) and is_global_limited("POST /users/@me/channels")
    # A callback route under another method is not an interaction response.
    assert is_global_limited("GET /interactions/{id}/{token}/callback")


def test_counts_add_up_and_reset() -> None:
    counts = RequestCounts()
    for route in (CALLBACK, CREATE_MESSAGE, CREATE_MESSAGE, FOLLOWUP):
        counts.add(route)
    assert (counts.total, counts.global_limited, counts.exempt) == (4, 2, 2)
    assert counts.limited_routes() == {CREATE_MESSAGE: 2}
    counts.reset()
    assert (counts.total, counts.global_limited, counts.by_route) == (0, 0, {})


async def test_a_reply_costs_one_exempt_request_and_a_post_one_limited(
    fake_discord: FakeDiscord, alice: FakeMember, general: FakeChannel, toy: ToyBot
) -> None:
    fake = fake_discord
    assert fake.request_counts.global_limited > 0  # the start: login, commands ...
    fake.request_counts.reset()
    await fake.slash("ping", user=alice, channel=general)
    assert fake.request_counts.by_route == {CALLBACK: 1}
    assert fake.request_counts.global_limited == 0

    fake.request_counts.reset()
    await fake.slash("draw", user=alice, channel=general)  # defer, two follow-ups, @original
    assert fake.request_counts.by_route == {CALLBACK: 1, FOLLOWUP: 2, GET_ORIGINAL: 1}
    assert (fake.request_counts.exempt, fake.request_counts.global_limited) == (4, 0)

    fake.request_counts.reset()
    channel = toy.get_channel(general.id)
    assert channel is not None and hasattr(channel, "send")
    await channel.send("posted by the bot itself")
    assert fake.request_counts.by_route == {CREATE_MESSAGE: 1}
    assert fake.request_counts.global_limited == 1


async def test_an_unknown_route_is_counted_with_its_ids_named(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    url = f"{fake.api_base}/channels/123/pins/456"
    async with aiohttp.ClientSession() as http, http.put(url) as response:
        assert response.status == 404
    assert fake.request_counts.by_route == {"PUT /channels/{id}/pins/{id}": 1}
    assert fake.request_counts.global_limited == 1
    fake.unknown_requests.clear()  # seen; do not fail this test at teardown
