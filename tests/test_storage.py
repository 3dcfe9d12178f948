"""The native splitter reads a ``str`` where CPython keeps it (one, two or four bytes per code
point) and builds chunk strings from that storage (``rust/python/ffi/``, the crate's only
``unsafe`` code). These tests split strings of every storage kind with settings that put chunk
boundaries at every position and check what that code promises: chunk strings equal to the
slices they claim to be (CPython compares strings of different kinds as unequal, so a chunk
in a non-canonical kind would fail here), exact offsets, fresh strings that split like strings
already converted, and lone surrogates refused with the index of the first one."""

from __future__ import annotations

import gc
import re
import sys

import pytest
from hypothesis import given
from hypothesis import strategies as st

import ferrochunk
from ferrochunk import _native

# One alphabet per storage kind CPython picks: the widest character decides it.
ASCII = "ab \n\t.#"
LATIN1 = ASCII + "é\xa0\x85ÿ"
BMP = LATIN1 + "漢字\u3000\u2028ĀΩ"
ASTRAL = BMP + "😀\U0001d518\U00010000"
KINDS = {"ascii": ASCII, "latin1": LATIN1, "bmp": BMP, "astral": ASTRAL}


def kind(text: str) -> int:
    """CPython's storage width for ``text`` (1, 2 or 4 bytes per code point)."""
    widest = max(map(ord, text), default=0)
    return 1 if widest < 0x100 else 2 if widest < 0x10000 else 4


def fresh(text: str) -> str:
    """An equal string that is a new object with no cached UTF-8 form."""
    return "".join(list(text)) if len(text) < 2 else text[:1] + text[1:]


@st.composite
def texts(draw: st.DrawFn) -> str:
    alphabet = KINDS[draw(st.sampled_from(sorted(KINDS)))]
    return draw(st.text(alphabet=alphabet, max_size=60))


def split(text: str, size: int, overlap: int, separators: list[str]) -> list:
    return ferrochunk.Splitter(
        size,
        chunk_overlap=overlap,
        separators=separators,
        keep_separator="end",
        strip_whitespace=False,
    ).split(text)


@given(texts(), st.integers(1, 6), st.sampled_from([[""], [" ", ""], ["\n", "é", "漢", ""]]))
def test_chunk_strings_are_the_slices_they_claim(text: str, size: int, separators) -> None:
    chunks = split(fresh(text), size, size // 2, separators)
    utf8 = text.encode("utf-8")
    for c in chunks:
        piece = text[c.start : c.end]
        # Equality compares storage kinds first and `isascii` reads the ASCII flag, so both
        # fail on a chunk string not in the narrowest storage.
        assert c.text == piece and hash(c.text) == hash(piece)
        assert c.text.isascii() == piece.isascii()
        assert utf8[c.byte_start : c.byte_end].decode("utf-8") == piece
        assert len(text[: c.start].encode("utf-8")) == c.byte_start


@given(
    st.sampled_from(["a", "é"]),
    st.lists(st.tuples(st.integers(0, 999), st.sampled_from("é漢😀")), min_size=1, max_size=3),
    st.integers(100, 700),
    st.sampled_from([4, 2]),
)
def test_long_chunks_take_the_kind_of_their_widest_character(
    background: str, wide: list[tuple[int, str]], size: int, share: int
) -> None:
    """Chunks of hundreds of characters whose widest ones sit anywhere in them (a chunk's
    kind is decided block by block, at the first block with a character of the storage's
    top class), in a text stored wider than most of its chunks need; their byte offsets with
    overlaps of hundreds of characters (each chunk is measured in two parts, split where the
    next one starts)."""
    units = list(background * 1000)
    for at, char in wide:
        units[at] = char
    text = "".join(units)
    utf8 = text.encode("utf-8")
    for c in split(fresh(text), size, size // share, [""]):
        piece = text[c.start : c.end]
        assert c.text == piece and hash(c.text) == hash(piece)
        assert kind(c.text) == kind(piece) and sys.getsizeof(c.text) == sys.getsizeof(piece)
        assert utf8[c.byte_start : c.byte_end].decode("utf-8") == piece
        assert len(text[: c.start].encode("utf-8")) == c.byte_start


@given(texts(), st.integers(1, 40), st.sampled_from([None, [" ", ""], ["(?:a|é)+", ""]]))
def test_fresh_strings_split_like_the_reference(text: str, size: int, separators) -> None:
    """Literal and regex separators (the regex runs on a UTF-8 copy of the range it scans
    when the storage is not ASCII) give the reference's chunks on strings of every kind."""
    kwargs = {"chunk_size": size, "chunk_overlap": size // 3}
    if separators is not None:
        kwargs |= {"separators": separators, "is_separator_regex": True}
    splitter = ferrochunk.RecursiveCharacterTextSplitter(**kwargs)
    reference = ferrochunk.reference.RecursiveCharacterTextSplitter(**kwargs)
    assert splitter.split_text(fresh(text)) == reference.split_text(text)


@pytest.mark.parametrize("name", sorted(KINDS))
def test_every_kind_is_read_in_place(name: str) -> None:
    text = KINDS[name] * 50
    assert kind(text) == {"ascii": 1, "latin1": 1, "bmp": 2, "astral": 4}[name]
    chunks = split(fresh(text), 7, 3, [""])
    assert [c.text for c in chunks] == [text[c.start : c.end] for c in chunks]
    assert {kind(c.text) for c in chunks} <= {1, 2, 4}


@pytest.mark.parametrize(
    ("text", "at"),
    [
        ("a\ud800b", 1),
        ("\udfff", 0),
        ("漢字\udc00", 2),
        ("😀x\ud83d", 2),
        ("é" * 300 + "\ud800", 300),
    ],
)
def test_lone_surrogates_are_refused_with_their_index(text: str, at: int) -> None:
    """The native engine refuses a lone surrogate with the index of the first one, whether
    it checks up front (a length function reads pieces as str) or on the way (building the
    chunk strings, or their byte offsets); the drop-in then splits on the Python engine."""
    native = _native.Splitter(5, 0, [("", False, "")], "start", True, True)
    for call in (lambda: native.split(text, {}), lambda: native.split_text(text)):
        with pytest.raises(UnicodeEncodeError) as info:
            call()
        assert (info.value.start, info.value.end) == (at, at + 1)
    with pytest.raises(UnicodeEncodeError):
        native.split_text(text, len)
    with pytest.raises(ValueError, match="lone surrogate"):
        ferrochunk.split(text, 5, chunk_overlap=0)
    expected = ferrochunk.reference.RecursiveCharacterTextSplitter(
        chunk_size=5, chunk_overlap=0
    ).split_text(text)
    assert (
        ferrochunk.RecursiveCharacterTextSplitter(chunk_size=5, chunk_overlap=0).split_text(text)
        == expected
    )


@given(
    texts(),
    st.lists(
        st.tuples(st.integers(0, 60), st.sampled_from("\ud800\udbff\udc00\udfff")), min_size=1
    ),
    st.integers(1, 20),
    st.sampled_from([None, [" ", ""], ["\n", "漢", ""], [""]]),
)
def test_native_split_finds_every_lone_surrogate(text, inserts, size, separators) -> None:
    """The native API checks the text for lone surrogates while it computes byte offsets
    (every character that is not a space lies in some chunk): wherever one is, and whatever
    the settings, it is refused with the index of the first."""
    for at, surrogate in inserts:
        at = min(at, len(text))
        text = text[:at] + surrogate + text[at:]
    first = min(i for i, c in enumerate(text) if "\ud800" <= c <= "\udfff")
    options = {} if separators is None else {"separators": separators}
    splitter = ferrochunk.Splitter(size, chunk_overlap=size // 4, strip_whitespace=True, **options)
    with pytest.raises(ValueError, match=f"at index {first},"):
        splitter.split(fresh(text))
    # The drop-ins' engine finds it while building the chunk strings, in every mode.
    specs = [(s, False, s) for s in separators or ["\n\n", "\n", " ", ""]]
    for keep in ("start", "end", "drop"):
        native = _native.Splitter(size, size // 4, specs, keep, True, True)
        with pytest.raises(UnicodeEncodeError) as info:
            native.split_text(fresh(text))
        assert info.value.start == first


def test_rejoined_chunks_need_utf8() -> None:
    """In drop-separator mode a chunk is re-joined from its pieces (as UTF-8) when empty pieces
    were dropped between them; with or without one, a lone surrogate stops the native engine
    and the drop-in splits on the Python engine, as LangChain would."""
    native = _native.Splitter(100, 0, [("\n\n", False, "\n\n")], "drop", True, False)
    assert native.split_text("a\n\nb") == ["a\n\nb"]
    for text in ("a\n\nb\ud800", "a\n\n\n\nb\ud800"):  # the second: "a" + "" + "b\ud800"
        with pytest.raises(UnicodeEncodeError):
            native.split_text(text)
    splitter = ferrochunk.CharacterTextSplitter(chunk_size=100, chunk_overlap=0)
    reference = ferrochunk.reference.CharacterTextSplitter(chunk_size=100, chunk_overlap=0)
    for text in ("a\n\nb\ud800", "a\n\n\n\nb\ud800"):
        assert splitter.split_text(text) == reference.split_text(text)


def test_chunks_are_not_tracked_by_the_garbage_collector() -> None:
    """Chunk records hold no ``__traverse__``; tracking them would only make every few
    hundred of them start a collection (see ``ffi::untrack``): every native producer
    builds them untracked."""
    text = "# Title\n\nOne two three. Four five six.\n\n" * 60
    made = {
        "split": ferrochunk.split(text, 40, chunk_overlap=5),
        "split_batch": ferrochunk.Splitter(40, chunk_overlap=5).split_batch([text, text])[1],
        "MarkdownChunker": ferrochunk.MarkdownChunker(chunk_size=60).split(text),
        "split_tokens": ferrochunk.split_tokens(text, 20, chunk_overlap=2),
        "sentence_spans": ferrochunk.sentence_spans(text),
    }
    for name, chunks in made.items():
        assert chunks and all(isinstance(c, ferrochunk.Chunk) for c in chunks), name
        assert not any(gc.is_tracked(c) for c in chunks), name
    assert gc.is_tracked(made["split"])  # the list itself is an ordinary tracked list


def test_building_chunks_starts_no_collection_and_keeps_the_collectors_switch() -> None:
    """Each untracked chunk still counts towards the next collection: building a batch of
    42 000 set off one every 700 (about 60 here, and walks of everything kept so far), so
    the builders pause the collector while they hold the GIL (``ffi::collector_paused``),
    and put its switch back as it was, on or off. The Documents of ``create_documents`` and
    of the header splitter likewise."""
    texts = ["word " * 200 + str(i) for i in range(2000)]
    runs = {
        "split_batch threads=1": lambda: ferrochunk.Splitter(50, chunk_overlap=0).split_batch(
            texts, threads=1
        ),
        "split_batch threads=2": lambda: ferrochunk.Splitter(50, chunk_overlap=0).split_batch(
            texts, threads=2
        ),
        "split": lambda: [ferrochunk.Splitter(50, chunk_overlap=0).split("word " * 400_000)],
        # 50 000 Documents, four tracked objects each, made in Rust.
        "create_documents": lambda: [
            ferrochunk.RecursiveCharacterTextSplitter(
                chunk_size=5, chunk_overlap=0, add_start_index=True
            ).create_documents(["word " * 50_000], [{"source": "s"}])
        ],
        "header lines": lambda: [
            ferrochunk.MarkdownHeaderTextSplitter([("#", "H")], return_each_line=True).split_text(
                "# h\nx\n" * 50_000
            )
        ],
    }
    started: list[int] = []

    def count(phase: str, info: dict) -> None:
        if phase == "start":
            started.append(info["generation"])

    # Its first call imports LangChain's Document (modules whose loading collects).
    ferrochunk.MarkdownHeaderTextSplitter([("#", "H")]).split_text("# h\nx\n")
    was_enabled = gc.isenabled()
    gc.callbacks.append(count)
    try:
        for name, run in runs.items():
            gc.enable()
            gc.collect()
            started.clear()
            chunks = sum(map(len, run()))
            assert chunks >= 40_000, name
            assert len(started) <= 2, (name, started)  # unpaused: one per 700 chunks
            assert gc.isenabled(), name
            gc.disable()
            run()
            assert not gc.isenabled(), name  # a user's gc.disable() is kept
    finally:
        gc.callbacks.remove(count)
        (gc.enable if was_enabled else gc.disable)()


@given(st.sampled_from(sorted(KINDS)), st.data())
def test_fresh_strings_are_converted_to_utf8_exactly(name: str, data: st.DataObject) -> None:
    """Token encoding reads a fresh ``str`` in place and converts it to UTF-8 itself
    (``utf8_of``: 16-unit blocks, ASCII ones narrowed at once, then the tail); the ids must
    be those of CPython's own UTF-8 of the same text, at every length around the blocks."""
    pytest.importorskip("tiktoken")
    text = data.draw(st.text(alphabet=KINDS[name], min_size=0, max_size=80))
    ours = ferrochunk.get_encoding("cl100k_base").encode_ordinary(fresh(text))
    # tiktoken reads the text through CPython's own UTF-8 conversion.
    assert ours == ferrochunk.tiktoken_encoding("cl100k_base").encode_ordinary(text)


# -- batches: each text held by the pipeline and read in place on the pool's threads -------


def rows(chunk_lists: list) -> list:
    return [
        [(c.text, c.start, c.end, c.byte_start, c.byte_end, c.index, c.token_count) for c in cl]
        for cl in chunk_lists
    ]


@given(st.lists(texts(), max_size=8), st.integers(1, 12), st.sampled_from([1, 2]))
def test_batches_read_every_kind_in_place(items, size, threads) -> None:
    """``split_batch``, ``split_iter`` and the drop-ins' parallel ``create_documents`` split
    strings of every kind where CPython keeps them: the same chunks as one by one, and no
    UTF-8 copy left inside the strings (CPython counts a cached UTF-8 form in
    ``sys.getsizeof``, which is why it must not change)."""
    splitter = ferrochunk.Splitter(size, chunk_overlap=size // 3, strip_whitespace=True)
    one = rows([splitter.split(t) for t in items])
    batch = [fresh(t) for t in items]
    sizes = [sys.getsizeof(t) for t in batch]
    assert rows(splitter.split_batch(batch, threads=threads)) == one
    assert [sys.getsizeof(t) for t in batch] == sizes
    # Each string made by the generator is referenced by the pipeline alone.
    got = splitter.split_iter((fresh(t) for t in items), threads=threads)
    assert rows(got) == one
    dropin = ferrochunk.RecursiveCharacterTextSplitter(chunk_size=size, chunk_overlap=size // 3)
    reference = ferrochunk.reference.RecursiveCharacterTextSplitter(
        chunk_size=size, chunk_overlap=size // 3
    )
    batch = [fresh(t) for t in items]
    sizes = [sys.getsizeof(t) for t in batch]
    want = reference.create_documents(items)
    assert [d.page_content for d in dropin.create_documents(batch)] == [
        d.page_content for d in want
    ]
    assert [sys.getsizeof(t) for t in batch] == sizes


@pytest.mark.parametrize(
    "call",
    [
        lambda t: ferrochunk.MarkdownChunker(chunk_size=40).split(t),
        lambda t: ferrochunk.split_tokens(t, 8, chunk_overlap=2),
        lambda t: ferrochunk.get_encoding("cl100k_base").length_function()(t),
        lambda t: ferrochunk.get_encoding("cl100k_base").count(t),
        lambda t: ferrochunk.get_encoding("o200k_base").encode(t),
        lambda t: ferrochunk.TokenTextSplitter(chunk_size=8, chunk_overlap=2).split_text(t),
        lambda t: ferrochunk.Splitter(40, chunk_overlap=8).split(t),
    ],
    ids=["chunker", "split_tokens", "counter", "count", "encode", "token-text", "split"],
)
def test_single_texts_read_in_place(call) -> None:
    """The one-document calls convert a text that is not ASCII themselves, into a copy they
    drop, never leaving CPython's UTF-8 form inside the caller's ``str`` (which
    ``sys.getsizeof`` counts, so it must not change)."""
    for name, alphabet in KINDS.items():
        text = fresh(f"# {name}\n\n" + alphabet * 30)
        size = sys.getsizeof(text)
        assert call(text)
        assert sys.getsizeof(text) == size, name


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize(
    "make",
    [
        lambda: ferrochunk.MarkdownChunker(chunk_size=40),
        lambda: ferrochunk.TokenSplitter(8, chunk_overlap=2),
    ],
)
def test_utf8_batches_read_in_place(make, threads) -> None:
    """The batches of the engines that read UTF-8 (Markdown, token windows) convert each
    text on the pool's thread into a copy they drop: the same chunks as one by one, and no
    UTF-8 form left inside the strings (``sys.getsizeof`` unchanged)."""
    splitter = make()
    items = [f"# {name}\n\n" + alphabet * 30 for name, alphabet in KINDS.items()]
    one = rows([splitter.split(t) for t in items])
    batch = [fresh(t) for t in items]
    sizes = [sys.getsizeof(t) for t in batch]
    assert rows(splitter.split_batch(batch, threads=threads)) == one
    assert [sys.getsizeof(t) for t in batch] == sizes


def test_token_counted_batches_read_in_place() -> None:
    """With a native counter the text is checked up front and each piece counted from a
    UTF-8 copy made on the pool's thread and dropped after, never one cached in the str."""
    counter = ferrochunk.get_encoding("cl100k_base").length_function()
    items = [name * 40 for name in KINDS.values()]
    splitter = ferrochunk.Splitter(20, chunk_overlap=4, length_function=counter)
    one = rows([splitter.split(t) for t in items])
    for threads in (1, 2):
        batch = [fresh(t) for t in items]
        sizes = [sys.getsizeof(t) for t in batch]
        assert rows(splitter.split_batch(batch, threads=threads)) == one
        assert [sys.getsizeof(t) for t in batch] == sizes


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("measured", [False, True])
@pytest.mark.parametrize(
    ("text", "at"),
    [("a\ud800b", 1), ("漢字\udc00", 2), ("😀x\ud83d", 2), ("é" * 300 + "\ud800", 300)],
)
def test_batches_refuse_lone_surrogates_with_their_index(threads, measured, text, at) -> None:
    """A lone surrogate in a batch gives ``split``'s message with the document's position,
    whether found up front (a length reads UTF-8) or on the way (the byte offsets); the
    drop-ins split that text on the Python engine, as one by one."""
    length = ferrochunk.get_encoding("cl100k_base").length_function() if measured else None
    splitter = ferrochunk.Splitter(5, chunk_overlap=0, length_function=length)
    message = f"texts[1]: text has a lone surrogate {text[at]!r} at index {at}, "
    with pytest.raises(ValueError, match=re.escape(message)):
        splitter.split_batch(["fine", fresh(text), "after"], threads=threads)
    dropin = ferrochunk.RecursiveCharacterTextSplitter(chunk_size=5, chunk_overlap=0)
    reference = ferrochunk.reference.RecursiveCharacterTextSplitter(chunk_size=5, chunk_overlap=0)
    items = ["fine", text, "after"]
    assert [d.page_content for d in dropin.create_documents([fresh(t) for t in items])] == [
        d.page_content for d in reference.create_documents(items)
    ]
