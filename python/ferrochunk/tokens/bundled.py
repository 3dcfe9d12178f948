"""Real ``tiktoken.Encoding`` objects built offline from the ranks bundled in the extension.

tiktoken cannot download its rank files here; these give the reference (and LangChain's own
tiktoken splitters, through :func:`use_bundled_ranks_in_tiktoken`) the same encodings.
"""

from __future__ import annotations

import functools
from typing import Any, Optional

from .. import _native

ENCODING_NAMES: tuple[str, ...] = tuple(_native.encoding_names())


def encoding_args(encoding_name: str) -> dict[str, Any]:
    """tiktoken's ``Encoding`` arguments for a bundled encoding."""
    native = _native.Encoder(encoding_name)
    args: dict[str, Any] = {
        "name": encoding_name,
        "pat_str": native.pattern,
        "mergeable_ranks": native.mergeable_ranks(),
        "special_tokens": native.special_tokens(),
    }
    if native.explicit_n_vocab is not None:
        args["explicit_n_vocab"] = native.explicit_n_vocab
    return args


@functools.cache
def _tiktoken(encoding_name: str) -> Any:
    import tiktoken

    return tiktoken.Encoding(**encoding_args(encoding_name))


def tiktoken_encoding(encoding_name: str = "gpt2", model_name: Optional[str] = None) -> Any:
    """A real ``tiktoken.Encoding`` built offline from the bundled ranks (needs tiktoken)."""
    if model_name is not None:
        encoding_name = _native.encoding_name_for_model(model_name)
    if encoding_name not in ENCODING_NAMES:
        _native.Encoder(encoding_name)  # raises, listing the available encodings
    return _tiktoken(encoding_name)


def use_bundled_ranks_in_tiktoken() -> None:
    """Make ``tiktoken.get_encoding`` (and so LangChain's tiktoken splitters) load the
    bundled encodings instead of downloading them; each is still built on first use."""
    import tiktoken.registry as registry

    registry.list_encoding_names()  # loads tiktoken's own constructor table first
    constructors = registry.ENCODING_CONSTRUCTORS
    if constructors is None:  # pragma: no cover - list_encoding_names fills it
        raise RuntimeError("tiktoken's encoding registry could not be loaded")
    for name in ENCODING_NAMES:
        constructors[name] = functools.partial(encoding_args, name)


__all__ = ["ENCODING_NAMES", "encoding_args", "tiktoken_encoding", "use_bundled_ranks_in_tiktoken"]
