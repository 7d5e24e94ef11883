"""The service's refusals as the catalogs see them: each is a `rules.Sentence` whose
template is the English text and the id of an entry in `services.po`, and whose values
the Discord layer fills in, in the reader's language.
"""

from __future__ import annotations

import pytest

from bot.services import GameService, NotFound, NotYourTurn, ServiceError
from rules import Sentence
from tests.support.catalogs import LOCALE, marked_texts, read_catalog

from .conftest import ALICE, BOB, GUILD, start_game


def test_the_extractor_finds_the_service_sentences() -> None:
    """That each has its Japanese, as a literal Babel reads, is checked for all catalogs
    in tests/bot/test_i18n.py."""
    found = marked_texts("bot/services")
    assert len(found) > 30
    assert "It is {name}'s move." in found
    assert "There is no game #{game_id} in this server." in found


def japanese(sentence: Sentence) -> str:
    """`sentence` through the catalog, its values as English writes them (enough to see
    that the translation takes the sentence's values)."""
    entry = read_catalog(LOCALE / "services.po").get(sentence.template)
    assert entry is not None and isinstance(entry.string, str)
    return entry.string.format_map({key: str(value) for key, value in sentence.params.items()})


async def test_a_refusal_carries_its_sentence(service: GameService) -> None:
    game = await start_game(service)
    with pytest.raises(NotYourTurn) as caught:
        await service.moves.play(game.id, BOB.user_id, "P-34")
    refusal: ServiceError = caught.value
    assert refusal.sentence == Sentence("It is {name}'s move.", name=ALICE.name)
    assert str(refusal.sentence) == refusal.message == "It is Alice's move."
    assert japanese(refusal.sentence) == "Aliceさんの手番です。"

    with pytest.raises(NotFound) as missing:
        await service.games.get(game.id + 100, guild_id=GUILD)
    assert str(missing.value.sentence) == missing.value.message
    assert missing.value.sentence.params == {"game_id": game.id + 100}
    assert str(game.id + 100) in japanese(missing.value.sentence)
