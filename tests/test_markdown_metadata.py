"""``MarkdownChunker`` metadata that describes the chunk, on documents built for it: every
heading path a chunk covers, the main one (most code points, the first on a tie) leading
``embedding_text``; ``token_count`` from ferrochunk and Hugging Face counters; lone
surrogates refused as ``ferrochunk.split`` refuses them. Native and reference alike."""

from __future__ import annotations

import pytest

import ferrochunk
from ferrochunk import reference as ref

IMPLS = [ferrochunk, ref]
TABLE = "| n | name |\n|---|---|\n" + "".join(f"| {i} | row {i} |\n" for i in range(13))


def one_chunk(impl, text: str, **options):
    [chunk] = impl.MarkdownChunker(embedding_text=True, **options).split(text)
    return chunk


@pytest.mark.parametrize("impl", IMPLS)
def test_tail_of_one_section_and_most_of_the_next(impl) -> None:
    """The issue's chunk: a short intro, then ``## Data`` and 13 table rows."""
    text = f"# Guide\n\nShort intro.\n\n## Data\n\n{TABLE}"
    c = one_chunk(impl, text, chunk_size=1000)
    assert c.metadata["heading_path"] == ("Guide",)  # where it starts
    assert c.metadata["heading_paths"] == (("Guide",), ("Guide", "Data"))
    assert c.metadata["main_heading_path"] == ("Guide", "Data")
    assert c.metadata["embedding_text"] == "Guide > Data\n\n" + text.rstrip("\n")


@pytest.mark.parametrize("impl", IMPLS)
def test_preamble_before_the_first_heading(impl) -> None:
    long_preamble = "A preface that runs on for quite a few words.\n\n## Setup\n\nRun it."
    c = one_chunk(impl, long_preamble, chunk_size=500)
    assert c.metadata["heading_paths"] == ((), ("Setup",))
    assert c.metadata["main_heading_path"] == ()  # 47 code points against 17
    assert c.metadata["embedding_text"] == long_preamble
    short_preamble = "Preface.\n\n## Setup\n\nRun it, then check the logs for errors."
    c = one_chunk(impl, short_preamble, chunk_size=500)
    assert c.metadata["heading_path"] == ()
    assert c.metadata["main_heading_path"] == ("Setup",)
    assert c.metadata["embedding_text"].startswith("Setup\n\n")


@pytest.mark.parametrize("impl", IMPLS)
def test_ties_go_to_the_earlier_path_and_code_points_count(impl) -> None:
    tie = "# A\n\nxx\n\n# B\n\nyy"  # "# A\n\nxx\n\n" and "# B\n\nyy" are 9 and 7 code points
    assert one_chunk(impl, tie, chunk_size=100).metadata["main_heading_path"] == ("A",)
    even = "# A\n\nxxxx\n\n# B\n\nyyyyyy"  # 11 and 11: the earlier
    assert one_chunk(impl, even, chunk_size=100).metadata["main_heading_path"] == ("A",)
    cjk = "# 甲\n\n漢字漢字\n\n# B\n\nabcdefghi"  # 11 code points (23 bytes) against 14
    c = one_chunk(impl, cjk, chunk_size=100)
    assert c.metadata["main_heading_path"] == ("B",)


@pytest.mark.parametrize("impl", IMPLS)
def test_three_sections_and_a_repeated_heading(impl) -> None:
    text = "# T\n\none\n\n## S\n\ntwo two two two\n\n## S\n\nthree"
    c = one_chunk(impl, text, chunk_size=200, min_size=200)
    assert c.metadata["heading_paths"] == (("T",), ("T", "S"), ("T", "S"))
    assert c.metadata["main_heading_path"] == ("T", "S")


@pytest.mark.parametrize("impl", IMPLS)
def test_chunks_inside_one_section_list_only_it(impl) -> None:
    text = "# T\n\n" + "Sentence number one is here. " * 40
    chunks = impl.MarkdownChunker(chunk_size=200, embedding_text=True).split(text)
    assert len(chunks) > 2
    for c in chunks:
        assert c.metadata["heading_paths"] == (("T",),)
        assert c.metadata["embedding_text"] == "T\n\n" + c.text


@pytest.mark.parametrize("impl", IMPLS)
def test_parents_describe_themselves_too(impl) -> None:
    text = "# A\n\n" + "alpha beta. " * 30 + "\n\n# B\n\n" + "gamma delta. " * 60
    parents, children = impl.MarkdownChunker(chunk_size=120, parent_size=2000).split_hierarchy(text)
    [parent] = parents
    assert parent.metadata["heading_paths"] == (("A",), ("B",))
    assert parent.metadata["main_heading_path"] == ("B",)
    assert {c.metadata["main_heading_path"] for c in children} == {("A",), ("B",)}


TEXT = "# Title\n\nSome words to count in tokens. " * 12


@pytest.mark.parametrize("impl", IMPLS)
def test_token_counts_from_a_ferrochunk_counter(impl) -> None:
    enc = ferrochunk.get_encoding("cl100k_base")
    chunker = impl.MarkdownChunker(chunk_size=40, length_function=enc.length_function())
    chunks = chunker.split(TEXT)
    assert len(chunks) > 3
    assert [c.token_count for c in chunks] == [enc.count(c.text) for c in chunks]
    plain = impl.MarkdownChunker(chunk_size=200, length_function=lambda s: len(s.split()))
    assert {c.token_count for c in plain.split(TEXT)} == {None}
    assert {c.token_count for c in impl.MarkdownChunker(chunk_size=200).split(TEXT)} == {None}


@pytest.mark.parametrize("impl", IMPLS)
def test_token_counts_from_a_huggingface_counter(impl, tmp_path) -> None:
    tk = pytest.importorskip("tokenizers")
    tok = tk.Tokenizer(tk.models.WordLevel(unk_token="[UNK]"))
    tok.pre_tokenizer = tk.pre_tokenizers.Whitespace()
    tok.train_from_iterator([TEXT], tk.trainers.WordLevelTrainer(special_tokens=["[UNK]"]))
    counter = ferrochunk.huggingface_counter(tok)
    parents, chunks = impl.MarkdownChunker(
        chunk_size=30, parent_size=120, length_function=counter
    ).split_hierarchy(TEXT)
    for c in [*chunks, *parents]:
        assert c.token_count == len(tok.encode(c.text).ids)


@pytest.mark.parametrize("impl", IMPLS)
def test_lone_surrogates_get_splits_error(impl) -> None:
    text = "# A\n\nfine text \ud800 and more \udfff"
    with pytest.raises(ValueError) as split_error:
        ferrochunk.split(text, 100, chunk_overlap=0)
    with pytest.raises(ValueError) as chunker_error:
        impl.MarkdownChunker(chunk_size=100).split(text)
    assert str(chunker_error.value) == str(split_error.value)
    assert "index 15" in str(chunker_error.value)  # len("# A\\n\\nfine text ")


def test_user_metadata_may_not_use_the_new_keys() -> None:
    for key in ("heading_paths", "main_heading_path"):
        with pytest.raises(ValueError, match=key):
            ferrochunk.MarkdownChunker().split("x", {key: 1})
