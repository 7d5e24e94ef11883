"""The band PNG encoder: valid files, exact pixels, reuse of what it has seen, bounded cache."""

from __future__ import annotations

import io
import random
import struct
import threading
import zlib

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PIL import Image

from render import render_board, render_image
from render.board import PNG_BANDS, PNG_COMPRESS_LEVEL, encode_png
from render.png import SIGNATURE, BandEncoder, adler32_combine
from rules import Color, Move, Position


def palette_image(width: int, height: int, seed: int, colours: int = 40) -> Image.Image:
    """Flat runs of random palette colours, like a board: compressible but not trivial."""
    rng = random.Random(seed)
    data = bytearray()
    while len(data) < width * height:
        data += bytes([rng.randrange(colours)]) * rng.randint(1, 30)
    image = Image.frombytes("P", (width, height), bytes(data[: width * height]))
    image.putpalette([rng.randrange(256) for _ in range(3 * colours)])
    return image


def chunks(png: bytes) -> list[tuple[bytes, bytes]]:
    """The file's chunks, each CRC checked here (not left to Pillow's leniency)."""
    assert png.startswith(SIGNATURE)
    found, offset = [], len(SIGNATURE)
    while offset < len(png):
        (length,) = struct.unpack(">I", png[offset : offset + 4])
        kind, data = png[offset + 4 : offset + 8], png[offset + 8 : offset + 8 + length]
        (crc,) = struct.unpack(">I", png[offset + 8 + length : offset + 12 + length])
        assert crc == zlib.crc32(data, zlib.crc32(kind)), kind
        found.append((kind, data))
        offset += 12 + length
    return found


def decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def assert_same_picture(png: bytes, image: Image.Image) -> None:
    back = decoded(png)
    assert back.mode == "P" and back.size == image.size
    assert back.tobytes() == image.tobytes()
    colours = len(image.getpalette() or []) // 3
    assert (back.getpalette() or [])[: 3 * colours] == (image.getpalette() or [])


@pytest.mark.parametrize(
    ("size", "bands"),
    [
        ((844, 759), PNG_BANDS),
        ((1, 1), (1, 5)),  # every boundary past the picture
        ((7, 300), (0, 1, 2, 3, 150, 299)),  # one-row bands, a boundary at 0 again
        ((300, 7), ()),  # a single band
    ],
)
def test_files_are_valid_and_exact(size: tuple[int, int], bands: tuple[int, ...]) -> None:
    image = palette_image(*size, seed=sum(size))
    png = BandEncoder(bands).encode(image)
    kinds = [kind for kind, _ in chunks(png)]
    assert kinds == [b"IHDR", b"PLTE", b"IDAT", b"IEND"]
    idat = dict(chunks(png))[b"IDAT"]
    # zlib checks the stream's own Adler-32: the combined checksum must be right.
    assert len(zlib.decompress(idat)) == size[1] * (size[0] + 1)
    assert_same_picture(png, image)


def test_a_changed_band_is_the_only_one_compressed_again() -> None:
    encoder = BandEncoder((10, 20, 30), level=6)
    first = palette_image(50, 40, seed=1)
    assert encoder.encode(first) and (encoder.hits, encoder.misses) == (0, 4)
    second = first.copy()
    pixel = second.getpixel((5, 25))
    assert isinstance(pixel, int)
    second.putpixel((5, 25), (pixel + 1) % 40)  # in the third band
    png = encoder.encode(second)
    assert (encoder.hits, encoder.misses) == (3, 5)
    assert_same_picture(png, second)
    # The result does not depend on what was cached: a fresh encoder writes the same bytes.
    assert png == BandEncoder((10, 20, 30), level=6).encode(second)
    assert encoder.encode(first) == BandEncoder((10, 20, 30), level=6).encode(first)


def test_bands_are_told_apart_by_place_as_well_as_pixels() -> None:
    """Two bands with the same pixels at different heights are cached apart: sharing one
    would be harmless for the bytes but the key says where a band was seen."""
    encoder = BandEncoder((10,))
    image = Image.new("P", (8, 20), 3)
    image.putpalette([0, 0, 0] * 4)
    assert_same_picture(encoder.encode(image), image)
    assert (encoder.hits, encoder.misses) == (0, 2)


def test_the_cache_stays_within_its_capacity() -> None:
    encoder = BandEncoder((4, 8, 12), capacity=10)
    for seed in range(20):
        image = palette_image(16, 16, seed=seed)
        assert_same_picture(encoder.encode(image), image)
        assert len(encoder) <= 10
    assert encoder.misses == 80
    encoder.clear()
    assert len(encoder) == 0


def test_other_modes_are_left_to_pillow() -> None:
    rgb = Image.new("RGB", (10, 10), (200, 10, 10))
    with pytest.raises(ValueError, match="palette"):
        BandEncoder(()).encode(rgb)
    assert decoded(encode_png(rgb)).convert("RGB").tobytes() == rgb.tobytes()
    transparent = palette_image(10, 10, seed=3)
    transparent.info["transparency"] = 0
    assert not BandEncoder.accepts(transparent)
    assert decoded(encode_png(transparent)).info.get("transparency") == 0


def test_threads_share_one_encoder() -> None:
    encoder = BandEncoder((16, 32, 48))
    images = [palette_image(64, 64, seed=seed % 5) for seed in range(40)]
    results: dict[int, bytes] = {}

    def work(indices: range) -> None:
        for index in indices:
            results[index] = encoder.encode(images[index])

    threads = [threading.Thread(target=work, args=(range(i, 40, 4),)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for index, image in enumerate(images):
        assert_same_picture(results[index], image)
    assert encoder.misses >= 20 and encoder.hits + encoder.misses == 160


def test_boards_of_a_game_decode_to_what_was_drawn() -> None:
    position = Position.initial()
    for usi in ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "8c8d"]:
        move = Move.from_usi(usi)
        position.push(move)
        png = render_board(position, last_move=move)
        assert_same_picture(png, render_image(position, last_move=move))


@given(st.binary(max_size=300), st.binary(max_size=300))
def test_adler32_combine_matches_zlib(first: bytes, second: bytes) -> None:
    combined = adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
    assert combined == zlib.adler32(first + second)


def test_adler32_combine_with_long_parts() -> None:
    """Past 65,521 bytes the sums wrap: the case a board's bands are in."""
    rng = random.Random(7)
    first, second = rng.randbytes(200_000), rng.randbytes(140_000)
    combined = adler32_combine(zlib.adler32(first), zlib.adler32(second), len(second))
    assert combined == zlib.adler32(first + second)


def test_bands_given_by_key_are_drawn_once_and_make_the_same_file() -> None:
    image = palette_image(50, 40, seed=4)
    rows = image.tobytes()
    starts = (0, 10, 20, 30, 40)
    drawn: list[int] = []

    def pixels(index: int) -> bytes:
        drawn.append(index)
        return rows[starts[index] * 50 : starts[index + 1] * 50]

    encoder = BandEncoder((10, 20, 30))
    palette = bytes((image.getpalette() or [])[: 3 * 256])
    keys = ["a", "b", "c", "d"]
    png = encoder.encode_bands(image.size, palette, keys, pixels)
    assert png == BandEncoder((10, 20, 30)).encode(image)
    assert drawn == [0, 1, 2, 3]
    assert encoder.encode_bands(image.size, palette, keys, pixels) == png
    assert drawn == [0, 1, 2, 3] and (encoder.hits, encoder.misses) == (4, 4)
    # A key is only good for its own place: "a" in the second band is drawn again.
    encoder.encode_bands(image.size, palette, ["a", "a", "c", "d"], pixels)
    assert drawn == [0, 1, 2, 3, 1]


def test_bands_given_by_key_are_checked() -> None:
    encoder = BandEncoder((10,))
    with pytest.raises(ValueError, match="2 bands"):
        encoder.encode_bands((8, 20), b"\0\0\0", ["only one"], lambda index: bytes(80))
    with pytest.raises(ValueError, match="bytes"):
        encoder.encode_bands((8, 20), b"\0\0\0", ["a", "b"], lambda index: bytes(79))


def test_boards_drawn_band_by_band_are_the_bytes_of_the_whole_picture() -> None:
    """`render_board` draws only the bands it has not seen; the file must not depend on
    which ones those were: the same bytes as encoding the whole picture, from either side,
    with a name, a caption, a check, drops and captures."""
    games = [
        (Position.initial(), ["7g7f", "3c3d", "8h2b+", "3a2b", "B*4e", "8c8d", "4e3d"]),
        (Position.from_sfen("5k3/7pp/4S4/9/9/9/PPPP5/2KG5/9 b G 1"), ["G*4b"]),  # mate
    ]
    for position, moves in games:
        for number, usi in enumerate(moves, start=1):
            move = Move.from_usi(usi)
            position.push(move)
            _assert_both_ways(position, move, number)


def _assert_both_ways(position: Position, move: Move, number: int) -> None:
    for perspective in Color:
        caption = f"Move {number}"
        whole = render_image(
            position, last_move=move, perspective=perspective, sente_name="Hanako", caption=caption
        )
        expected = BandEncoder(PNG_BANDS, level=PNG_COMPRESS_LEVEL).encode(whole)
        banded = render_board(
            position, last_move=move, perspective=perspective, sente_name="Hanako", caption=caption
        )
        assert banded == expected
