"""tiktoken's registry and model table on the bundled encodings: nothing is downloaded."""

from __future__ import annotations

from .. import _native
from ..tokens.bundled import ENCODING_NAMES
from .core import Encoding, registered


def get_encoding(encoding_name: str) -> Encoding:
    """The bundled encoding ``encoding_name`` (one object per name, as tiktoken's)."""
    if not isinstance(encoding_name, str):
        raise ValueError(f"Expected a string in get_encoding, got {type(encoding_name)}")
    try:
        return registered(encoding_name)
    except KeyError:
        raise ValueError(
            f"Unknown encoding {encoding_name}.\nBundled in ferrochunk: {', '.join(ENCODING_NAMES)}"
        ) from None


def list_encoding_names() -> list[str]:
    """The names :func:`get_encoding` takes, in tiktoken's order."""
    return list(ENCODING_NAMES)


def encoding_name_for_model(model_name: str) -> str:
    """tiktoken's model table: ``gpt-4o`` -> ``o200k_base`` (``KeyError`` if unknown)."""
    return _native.encoding_name_for_model(model_name)


def encoding_for_model(model_name: str) -> Encoding:
    """The encoding a model uses."""
    return get_encoding(encoding_name_for_model(model_name))
