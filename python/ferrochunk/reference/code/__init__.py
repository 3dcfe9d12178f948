"""The reference code chunker (mirrors ``rust/code/``): py-tree-sitter's tree of the same
grammar, walked into pieces (:mod:`.walk`) and packed (:mod:`.pack`) as the core does."""

from .chunker import ReferenceCodeEngine

__all__ = ["ReferenceCodeEngine"]
