"""The Python layer both engines share: public classes, argument checks, documents,
warnings and pickling, written once.

Every public class here leaves one thing open, its engine (``_make_engine``, and the chunk
type or tokenizer where it matters). :mod:`ferrochunk.reference` fills it with the
pure-Python engines, :mod:`ferrochunk` with the Rust ones (falling back to the reference
engine for the few inputs Rust cannot reproduce exactly). So the two stacks behave alike by
construction, and the differential tests compare only the engines. Nothing here imports the
extension module; the reference is imported only by ``TextSplitter._merge_splits`` (LangChain's
helper, kept for code that calls it), lazily.
"""
