"""pytest plugin that runs LangChain's own splitter tests against ferrochunk's classes.

Loaded with ``-p langchain_plugin`` by ``langchain_suite.py`` in a subprocess, so it is
imported before LangChain's test module and its ``from langchain_text_splitters import …``
lines bind ferrochunk's classes. Tests of classes ferrochunk does not provide are deselected
by name (``DESELECTED``), each with the reason.
"""

from __future__ import annotations

import langchain_text_splitters
import langchain_text_splitters.base
import langchain_text_splitters.character
import pytest

import ferrochunk

# The names LangChain's tests import that ferrochunk replaces.
REPLACED = ("CharacterTextSplitter", "Language", "RecursiveCharacterTextSplitter", "TextSplitter")

_CODE_SUBCLASSES = "a LangChain subclass of its own RecursiveCharacterTextSplitter"
_HTML = "HTML splitters (not provided by ferrochunk)"
_MARKDOWN = "Markdown header splitters (not provided by ferrochunk)"
_JSON = "RecursiveJsonSplitter (not provided by ferrochunk)"
_PACKAGE = "tests LangChain's package layout and lazy imports, not the splitters"

DESELECTED: dict[str, str] = {
    "test_no_heavy_imports_on_package_load": _PACKAGE,
    "test_missing_optional_dependency_raises_importerror": "NLTK/spaCy/konlpy/sentence-transformers",
    "test_lazy_getattr_resolves": _PACKAGE,
    "test_lazy_getattr_raises_for_unknown": _PACKAGE,
    "test_python_text_splitter": f"PythonCodeTextSplitter, {_CODE_SUBCLASSES}",
    "test_jsx_text_splitter": f"JSFrameworkTextSplitter, {_CODE_SUBCLASSES}",
    "test_vue_text_splitter": f"JSFrameworkTextSplitter, {_CODE_SUBCLASSES}",
    "test_svelte_text_splitter": f"JSFrameworkTextSplitter, {_CODE_SUBCLASSES}",
    "test_jsx_splitter_separator_not_mutated_across_calls": "JSFrameworkTextSplitter",
    "test_md_header_text_splitter_1": _MARKDOWN,
    "test_md_header_text_splitter_2": _MARKDOWN,
    "test_md_header_text_splitter_3": _MARKDOWN,
    "test_md_header_text_splitter_preserve_headers_1": _MARKDOWN,
    "test_md_header_text_splitter_preserve_headers_2": _MARKDOWN,
    "test_md_header_text_splitter_fenced_code_block": _MARKDOWN,
    "test_md_header_text_splitter_fenced_code_block_interleaved": _MARKDOWN,
    "test_md_header_text_splitter_with_invisible_characters": _MARKDOWN,
    "test_md_header_text_splitter_with_custom_headers": _MARKDOWN,
    "test_md_header_text_splitter_mixed_headers": _MARKDOWN,
    "test_experimental_markdown_syntax_text_splitter": _MARKDOWN,
    "test_experimental_markdown_syntax_text_splitter_header_configuration": _MARKDOWN,
    "test_experimental_markdown_syntax_text_splitter_with_headers": _MARKDOWN,
    "test_experimental_markdown_syntax_text_splitter_split_lines": _MARKDOWN,
    "test_experimental_markdown_syntax_text_splitter_on_multi_files": _MARKDOWN,
    "test_experimental_markdown_syntax_text_splitter_split_lines_on_multi_files": _MARKDOWN,
    "test_experimental_markdown_syntax_text_splitter_with_header_on_multi_files": _MARKDOWN,
    "test_experimental_markdown_syntax_text_splitter_header_config_on_multi_files": _MARKDOWN,
    "test_html_header_text_splitter": _HTML,
    "test_additional_html_header_text_splitter": _HTML,
    "test_html_no_headers_with_multiple_splitters": _HTML,
    "test_section_aware_happy_path_splitting_based_on_header_1_2": _HTML,
    "test_happy_path_splitting_based_on_header_with_font_size": _HTML,
    "test_happy_path_splitting_based_on_header_with_whitespace_chars": _HTML,
    "test_happy_path_splitting_with_duplicate_header_tag": _HTML,
    "test_split_text_on_tokens": "token splitting (Tokenizer, split_text_on_tokens)",
    "test_decode_returns_no_chunks": "token splitting (Tokenizer, split_text_on_tokens)",
    "test_split_json": _JSON,
    "test_split_json_with_lists": _JSON,
    "test_split_json_many_calls": _JSON,
    "test_split_json_with_empty_dict_values": _JSON,
    "test_split_json_with_nested_empty_dicts": _JSON,
    "test_split_json_empty_dict_only": _JSON,
    "test_split_json_mixed_empty_and_nonempty_dicts": _JSON,
    "test_split_json_empty_dict_value_in_large_payload": _JSON,
    "test_split_json_non_dict_input_raises": _JSON,
    "test_split_json_list_without_convert_lists_error_mentions_escape_hatch": _JSON,
    "test_split_json_list_with_convert_lists_still_works": _JSON,
    "test_split_json_none_input_returns_empty_list": _JSON,
    "test_split_json_none_input_returns_empty_list_with_convert_lists": _JSON,
    "test_split_json_convert_lists_true_non_list_no_misleading_hint": _JSON,
    **{
        f"test_html_splitter_{name}": _HTML
        for name in (
            "with_custom_extractor",
            "with_href_links",
            "with_nested_elements",
            "with_preserved_elements",
            "with_nested_preserved_elements",
            "with_nested_div_preserved",
            "preserve_nested_in_paragraph",
            "with_no_further_splits",
            "with_small_chunk_size",
            "with_denylist_tags",
            "with_external_metadata",
            "with_text_normalization",
            "with_allowlist_tags",
            "with_mixed_preserve_and_filter",
            "with_no_headers",
            "with_media_preservation",
            "keep_separator_true",
            "keep_separator_false",
            "keep_separator_start",
            "keep_separator_end",
            "keep_separator_default",
            "preserved_elements_reverse_order",
            "replacement_order",
        )
    },
}


def _patch() -> None:
    for module in (
        langchain_text_splitters,
        langchain_text_splitters.base,
        langchain_text_splitters.character,
    ):
        for name in REPLACED:
            if hasattr(module, name):
                setattr(module, name, getattr(ferrochunk, name))


_patch()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Deselect the listed tests, and check the patch reached LangChain's test module."""
    kept, dropped = [], []
    for item in items:
        name = getattr(item, "originalname", item.name)
        (dropped if name in DESELECTED else kept).append(item)
        module = getattr(item, "module", None)
        for replaced in REPLACED:
            bound = getattr(module, replaced, None)
            if bound is not None and bound is not getattr(ferrochunk, replaced):
                raise pytest.UsageError(f"{replaced} in {module} is not ferrochunk's")
    if dropped:
        config.hook.pytest_deselected(items=dropped)
        items[:] = kept


def pytest_configure(config: pytest.Config) -> None:
    """LangChain's conftest (not extracted) registers this marker."""
    config.addinivalue_line("markers", "requires(*packages): test needs optional packages")
