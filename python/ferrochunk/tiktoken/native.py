"""Which bundled encoding an ``Encoding`` built from its parts runs on."""

from __future__ import annotations

import functools

from .. import _native
from ..tokens.bundled import ENCODING_NAMES


@functools.cache
def _ranks(name: str) -> dict[bytes, int]:
    """A bundled encoding's ranks as tiktoken takes them (built once, for comparisons)."""
    return _native.Encoder(name).mergeable_ranks()


def bundled_encoder(name: str, pat_str: str, mergeable_ranks: dict[bytes, int]) -> _native.Encoder:
    """The native encoder of the bundled encoding with this pattern and these ranks (its
    special tokens are not its own: the caller's are used); ``ValueError`` if there is none,
    naming what ferrochunk runs on."""
    top = max(mergeable_ranks.values(), default=-1)
    for candidate in ENCODING_NAMES:
        encoder = _native.Encoder(candidate)
        if encoder.pattern != pat_str or _native.max_rank(encoder) != top:
            continue
        if mergeable_ranks is _ranks(candidate) or mergeable_ranks == _ranks(candidate):
            return encoder
    raise ValueError(
        f"Encoding {name!r}: ferrochunk.tiktoken runs on the bundled encodings only "
        f"({', '.join(ENCODING_NAMES)}), and these pat_str and mergeable_ranks are none of "
        "theirs (special_tokens may differ). Pass the pat_str and _mergeable_ranks of one of "
        "them (get_encoding(name)._pat_str, ._mergeable_ranks), or use tiktoken.Encoding "
        "for other ranks."
    )
