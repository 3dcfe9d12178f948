"""``RecursiveJsonSplitter`` and ``ExperimentalMarkdownSyntaxTextSplitter`` of
``ferrochunk.langchain`` (written in Python, structural work) give LangChain's output and
errors on generated data and on the corpus, splitter state included."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import langchain_text_splitters as lc
import pytest
from hypothesis import given
from hypothesis import strategies as st

import ferrochunk.langchain as fl
from support import docs, outcome

# -- JSON ----------------------------------------------------------------------------------

KEYS = st.sampled_from(["a", "b", "key", "ключ", "键", "😀", "", "0", "1", "x" * 30])
LEAVES = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=40),
    st.sampled_from(["漢字テキスト", "e\u0301", "\u2028", 'quote"back\\slash', "x" * 200]),
)
json_values = st.recursive(
    LEAVES,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(KEYS, inner, max_size=6),
    max_leaves=40,
)
json_inputs = st.one_of(
    st.dictionaries(KEYS, json_values, max_size=8), json_values, st.just({}), st.none()
)
chunk_sizes = st.tuples(st.integers(1, 400), st.none() | st.integers(0, 400))


def _json_outcome(module, data, sizes, convert, ascii_) -> tuple:
    splitter = module.RecursiveJsonSplitter(*sizes)
    data = copy.deepcopy(data)  # each splitter gets its own input (chunks share its values)
    return (
        outcome(lambda: splitter.split_json(data, convert_lists=convert)),
        outcome(lambda: splitter.split_text(data, convert_lists=convert, ensure_ascii=ascii_)),
        outcome(
            lambda: docs(splitter.create_documents([data], convert, ascii_, metadatas=[{"m": [1]}]))
        ),
        data,  # what splitting left of the input (LangChain's chunks alias its values)
    )


@given(json_inputs, chunk_sizes, st.booleans(), st.booleans())
def test_json_matches(data, sizes, convert, ascii_) -> None:
    expected = _json_outcome(lc, data, sizes, convert, ascii_)
    assert _json_outcome(fl, data, sizes, convert, ascii_) == expected


def hooked_json(module, hook: str):
    """A ``RecursiveJsonSplitter`` subclass overriding one of the hooks LangChain calls:
    sizes as written without ASCII escapes, values placed as ``[value]``, or lists kept
    under an ``"items"`` key instead of numbered ones."""

    class Hooked(module.RecursiveJsonSplitter):
        if hook == "_json_size":

            @staticmethod
            def _json_size(data):
                return len(json.dumps(data, ensure_ascii=False))

        elif hook == "_set_nested_dict":

            @staticmethod
            def _set_nested_dict(d, path, value):
                for key in path[:-1]:
                    d = d.setdefault(key, {})
                d[path[-1]] = [value]

        else:

            def _list_to_dict_preprocessing(self, data):
                if isinstance(data, list):
                    return {"items": [self._list_to_dict_preprocessing(v) for v in data]}
                return super()._list_to_dict_preprocessing(data)

    return Hooked


@given(
    json_inputs,
    chunk_sizes,
    st.sampled_from(["_json_size", "_set_nested_dict", "_list_to_dict_preprocessing"]),
)
def test_json_subclass_hooks_are_called_where_langchain_calls_them(data, sizes, hook) -> None:
    def run(module):
        splitter = hooked_json(module, hook)(*sizes)
        data_ = copy.deepcopy(data)
        return outcome(lambda: splitter.split_json(data_, convert_lists=True)), data_

    assert run(fl) == run(lc)


def test_json_splitter_defaults_and_reuse() -> None:
    data = {str(i): {"v": "x" * (i * 7), "n": list(range(i))} for i in range(200)}
    for module in (lc, fl):
        splitter = module.RecursiveJsonSplitter()
        assert (splitter.max_chunk_size, splitter.min_chunk_size) == (2000, 1800)
    ours, theirs = fl.RecursiveJsonSplitter(300), lc.RecursiveJsonSplitter(300)
    for _ in range(3):  # no state carried between calls
        assert ours.split_text(data, convert_lists=True) == theirs.split_text(
            data, convert_lists=True
        )


# -- experimental Markdown -----------------------------------------------------------------

MD_PARTS = [
    "# ",
    "## ",
    "### ",
    "####### ",
    "#",
    "```",
    "```python",
    "~~~",
    "~~~ ",
    "***",
    "---",
    "___",
    "----",
    "* * *",
    "- ",
    "> ",
    "Title",
    "text",
    "漢字。",
    "😀",
    " ",
    "\t",
    "\r",
    "\x0b",
    "\x0c",
    "\x1c",
    "\x85",
    "\u2028",
    "\u2029",
    "\xa0",
    "e\u0301",
]
md_line = st.lists(st.sampled_from(MD_PARTS), max_size=5).map("".join)
md_text = st.tuples(
    st.lists(md_line, max_size=25), st.sampled_from(["\n", "\r\n", "\n\n", "\r"])
).map(lambda parts: parts[1].join(parts[0]))
header_choices = st.sampled_from(
    [
        None,
        [],
        [("#", "H1"), ("##", "H2")],
        [("##", "Two"), ("###", "Three"), ("h1", "X")],
        [("#", "Code"), ("#", "Again")],
    ]
)


def _experimental(module, headers, each_line, strip, texts) -> list:
    splitter = module.ExperimentalMarkdownSyntaxTextSplitter(headers, each_line, strip)
    results = [outcome(lambda t=t: docs(splitter.split_text(t))) for t in texts]
    state = (splitter.current_header_stack, docs(splitter.chunks), splitter.splittable_headers)
    return [*results, state]


@given(st.lists(md_text, min_size=1, max_size=3), header_choices, st.booleans(), st.booleans())
def test_experimental_markdown_matches(texts, headers, each_line, strip) -> None:
    expected = _experimental(lc, headers, each_line, strip, texts)
    assert _experimental(fl, headers, each_line, strip, texts) == expected


@pytest.mark.parametrize("options", [(None, False, True), (None, True, False)], ids=str)
def test_experimental_markdown_on_the_corpus(options, corpus_dir: Path) -> None:
    files = sorted((corpus_dir / "en-markdown").glob("*.md"))
    files += sorted((corpus_dir / "zh-markdown").glob("*.md"))
    texts = [p.read_text(encoding="utf-8") for p in files]
    assert _experimental(fl, *options, texts) == _experimental(lc, *options, texts)


def test_experimental_markdown_returns_its_own_list() -> None:
    """LangChain returns the splitter's ``chunks`` list, cleared by the next call."""
    for module in (lc, fl):
        splitter = module.ExperimentalMarkdownSyntaxTextSplitter()
        first = splitter.split_text("# A\nx\n")
        second = splitter.split_text("# B\ny\n")
        assert first is second is splitter.chunks
        assert docs(first) == [("y\n", {"Header 1": "B"})]


def test_experimental_markdown_bad_input_fails_alike() -> None:
    for bad in (None, 3, b"# A\n"):
        expected = outcome(lambda b=bad: lc.ExperimentalMarkdownSyntaxTextSplitter().split_text(b))
        assert (
            outcome(lambda b=bad: fl.ExperimentalMarkdownSyntaxTextSplitter().split_text(b))
            == expected
        )
