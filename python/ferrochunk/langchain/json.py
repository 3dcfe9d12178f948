"""``langchain_text_splitters.json``: ``RecursiveJsonSplitter``.

Structural work on Python objects (no text is scanned), so it stays in Python. Behaviour
reproduced from ``langchain_text_splitters`` 1.1: sizes are ``len(json.dumps(...))`` with
the default ASCII escaping whatever ``ensure_ascii`` the output uses, a key whose value does
not fit is descended into (opening a new chunk first when the current one has
``min_chunk_size``), leaves and empty dicts are kept at their path, and chunks hold the
input's own value objects (not copies), as LangChain's do.
"""

from __future__ import annotations

import copy
import json
from typing import Any, Optional

from ..documents import Document


def _size(data: Any) -> int:
    return len(json.dumps(data))


def _put(target: dict[str, Any], path: list[str], value: Any) -> None:
    """``target[path[0]][path[1]]... = value``, creating the dicts on the way."""
    for key in path[:-1]:
        target = target.setdefault(key, {})
    target[path[-1]] = value


class RecursiveJsonSplitter:
    """Splits JSON-like data into dicts of at most ``max_chunk_size`` serialised characters,
    keeping each value at its path.

    >>> from ferrochunk.langchain import RecursiveJsonSplitter
    >>> splitter = RecursiveJsonSplitter(max_chunk_size=20, min_chunk_size=10)
    >>> splitter.split_json({"a": {"b": 1, "c": "xxxxxxxx"}})
    [{'a': {'b': 1}}, {'a': {'c': 'xxxxxxxx'}}]
    """

    max_chunk_size: int = 2000
    """The maximum size for each chunk."""

    min_chunk_size: int = 1800
    """The minimum size for each chunk, derived from `max_chunk_size` if not
    explicitly provided.
    """

    def __init__(self, max_chunk_size: int = 2000, min_chunk_size: Optional[int] = None) -> None:
        super().__init__()
        self.max_chunk_size = max_chunk_size
        if min_chunk_size is None:
            min_chunk_size = max(max_chunk_size - 200, 50)
        self.min_chunk_size = min_chunk_size

    @staticmethod
    def _json_size(data: dict[str, Any]) -> int:
        """Calculate the size of the serialized JSON object."""
        return _size(data)

    @staticmethod
    def _set_nested_dict(d: dict[str, Any], path: list[str], value: Any) -> None:
        """Set a value in a nested dictionary based on the given path."""
        _put(d, path, value)

    def _list_to_dict_preprocessing(self, data: Any) -> Any:
        """Lists become dicts keyed ``"0"``, ``"1"``, ...; recursively (through this method,
        as LangChain's does, so a subclass's override applies at every level)."""
        if isinstance(data, dict):
            return {k: self._list_to_dict_preprocessing(v) for k, v in data.items()}
        if isinstance(data, list):
            return {str(i): self._list_to_dict_preprocessing(v) for i, v in enumerate(data)}
        return data

    def _json_split(
        self,
        data: Any,
        current_path: Optional[list[str]] = None,
        chunks: Optional[list[dict[str, Any]]] = None,
    ) -> list[dict[str, Any]]:
        """Split json into maximum size dictionaries while preserving structure. Sizes and
        placing go through ``_json_size`` and ``_set_nested_dict``, LangChain's hooks."""
        path = current_path or []
        out = [{}] if chunks is None else chunks
        size, put = self._json_size, self._set_nested_dict
        if isinstance(data, dict) and data:
            for key, value in data.items():
                here = [*path, key]
                used = size(out[-1])
                if size({key: value}) < self.max_chunk_size - used:
                    put(out[-1], here, value)
                    continue
                if used >= self.min_chunk_size:
                    out.append({})
                self._json_split(value, here, out)
        elif path:
            put(out[-1], path, data)
        return out

    def split_json(
        self, json_data: dict[str, Any], convert_lists: bool = False
    ) -> list[dict[str, Any]]:
        """The data as a list of dicts, each at most ``max_chunk_size`` when serialised
        (a single value larger than that is kept whole). ``None`` gives ``[]``; anything
        else that is not a dict (after ``convert_lists``) raises ``TypeError``."""
        was_list = isinstance(json_data, list)
        if convert_lists:
            json_data = self._list_to_dict_preprocessing(json_data)
        if json_data is not None and not isinstance(json_data, dict):
            msg = f"json_data must be a dict, got {type(json_data).__name__}."
            if was_list and not convert_lists:
                msg += " Top-level lists can be split by passing convert_lists=True."
            raise TypeError(msg)
        chunks = self._json_split(json_data)
        if not chunks[-1]:
            chunks.pop()
        return chunks

    def split_text(
        self,
        json_data: dict[str, Any],
        convert_lists: bool = False,
        ensure_ascii: bool = True,
    ) -> list[str]:
        """:meth:`split_json`'s chunks serialised with ``json.dumps``."""
        chunks = self.split_json(json_data=json_data, convert_lists=convert_lists)
        return [json.dumps(chunk, ensure_ascii=ensure_ascii) for chunk in chunks]

    def create_documents(
        self,
        texts: list[dict[str, Any]],
        convert_lists: bool = False,
        ensure_ascii: bool = True,
        metadatas: Optional[list[dict[Any, Any]]] = None,
    ) -> list[Document]:
        """A document per serialised chunk, each with a deep copy of its text's metadata."""
        metadatas_ = metadatas or [{}] * len(texts)
        documents = []
        for i, data in enumerate(texts):
            chunks = self.split_text(
                json_data=data, convert_lists=convert_lists, ensure_ascii=ensure_ascii
            )
            for chunk in chunks:
                metadata = copy.deepcopy(metadatas_[i])
                documents.append(Document(page_content=chunk, metadata=metadata))
        return documents


__all__ = ["RecursiveJsonSplitter"]
