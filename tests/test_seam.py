"""One seam per subsystem: each public name is one class holding an engine, and a public call
reaches the engine that runs it through at most three files.

What is checked:

- ``ferrochunk.reference``'s classes are ``ferrochunk``'s own, bound to the reference: each a
  direct subclass that sets ``_stack`` and nothing else, so every argument, check, document
  and warning is the public class's code;
- no public class's engine is chosen outside ``ferrochunk.engines``: the engine a class
  holds is what that package's function returns for it;
- the three files, measured: every public class is built and its one-document split
  methods (``split_text``, ``split``, ``split_hierarchy``, and the ``split_batch`` of the
  native API and ``MarkdownChunker``) are called, in both stacks, on a text that fits and
  on one that does not, under ``sys.setprofile``. Each time a call crosses into an engine
  (a function of the extension module ``ferrochunk._native``, of ``ferrochunk.reference``,
  of ``ferrochunk.tokens`` (the token splitter's encoder) or of ``tiktoken`` (the
  reference's), called from outside them), the ferrochunk files on the Python stack from
  the public call down to it, plus the engine's own, are at most three. Helpers a method
  calls that do not lead into an engine (argument checks, chunk building) are not on that
  path and not counted; ``create_documents`` (which adds LangChain's documents module) is
  not measured.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any, Callable

import pytest

import ferrochunk
import ferrochunk.reference
from ferrochunk import engines

PACKAGE = Path(ferrochunk.__file__).resolve().parent
CLASSES = [
    "CharacterTextSplitter",
    "CodeChunker",
    "MarkdownChunker",
    "MarkdownHeaderTextSplitter",
    "RecursiveCharacterTextSplitter",
    "Splitter",
    "TextChunker",
    "TextSplitter",
    "TokenTextSplitter",
]
ENGINE_PACKAGES = (PACKAGE / "reference", PACKAGE / "tokens")
# Not engines: ferrochunk.reference's public classes (ferrochunk's own, bound) and its
# chunk record (as `_native.Chunk`, a type: making one is no call into an engine).
NOT_ENGINES = tuple(PACKAGE / "reference" / name for name in ("classes.py", "api.py", "chunk.py"))
TEXT = "# Title\n\nSome prose here. More prose, with a clause; and words.\n\n## Part\n\nEnd.\n"
# Instance attributes a class may have beside its engine's: ``_stack`` only.
BINDING = {"_stack", "__doc__", "__module__", "__qualname__", "__firstlineno__"}
BOOKKEEPING = {
    "__static_attributes__",
    "__dict__",
    "__weakref__",
    "_abc_impl",
    "__abstractmethods__",
}


@pytest.mark.parametrize("name", CLASSES)
def test_reference_classes_are_the_public_ones_bound(name: str) -> None:
    public, bound = getattr(ferrochunk, name), getattr(ferrochunk.reference, name)
    assert bound.__bases__ == (public,)
    own = set(vars(bound)) - BOOKKEEPING  # Python's own (abc's caches)
    assert own <= BINDING, own - BINDING
    assert bound._stack == engines.REFERENCE and public._stack == engines.NATIVE


def _calls(module: Any) -> dict[str, Callable[[], Any]]:
    """Every public class built and its split methods called, on ``module``'s classes."""
    long_text = TEXT * 40
    out: dict[str, Callable[[], Any]] = {}
    for text, tag in ((TEXT, "short"), (long_text, "long")):
        out |= {
            f"recursive-{tag}": lambda t=text: module.RecursiveCharacterTextSplitter(
                chunk_size=40, chunk_overlap=5
            ).split_text(t),
            f"character-{tag}": lambda t=text: module.CharacterTextSplitter(
                chunk_size=40, chunk_overlap=5
            ).split_text(t),
            f"regex-{tag}": lambda t=text: module.RecursiveCharacterTextSplitter(
                separators=[r"(?<=\.) ", ""],
                is_separator_regex=True,
                chunk_size=40,
                chunk_overlap=5,
            ).split_text(t),
            f"token-{tag}": lambda t=text: module.TokenTextSplitter(
                chunk_size=10, chunk_overlap=2
            ).split_text(t),
            f"tiktoken-{tag}": lambda t=text: (
                module.RecursiveCharacterTextSplitter.from_tiktoken_encoder(
                    chunk_size=10, chunk_overlap=2
                ).split_text(t)
            ),
            f"splitter-{tag}": lambda t=text: module.Splitter(40).split(t),
            f"splitter-batch-{tag}": lambda t=text: module.Splitter(40).split_batch([t, t]),
            f"split-{tag}": lambda t=text: module.split(t, 40),
            f"markdown-{tag}": lambda t=text: module.MarkdownChunker(
                40, parent_size=80
            ).split_hierarchy(t),
            f"markdown-batch-{tag}": lambda t=text: module.MarkdownChunker(40).split_batch([t]),
            f"text-{tag}": lambda t=text: module.TextChunker(40, format="plain").split(t),
            f"code-{tag}": lambda t=text: module.CodeChunker(40, language="python").split(t),
            f"code-batch-{tag}": lambda t=text: module.CodeChunker(
                40, language="python"
            ).split_batch([t, t]),
            f"header-{tag}": lambda t=text: module.MarkdownHeaderTextSplitter(
                [("#", "h1"), ("##", "h2")]
            ).split_text(t),
        }
    return out


def _engine_side(path: str) -> bool:
    if "tiktoken" in Path(path).parts:
        return True
    resolved = Path(path).resolve()
    return resolved not in NOT_ENGINES and any(resolved.is_relative_to(p) for p in ENGINE_PACKAGES)


def _ours(path: str) -> bool:
    return Path(path).resolve().is_relative_to(PACKAGE)


def paths_to_engines(call: Callable[[], Any]) -> list[tuple[str, ...]]:
    """The files from the public call to each engine it enters (the engine's last)."""
    paths: list[tuple[str, ...]] = []

    def profile(frame: Any, event: str, arg: Any) -> None:
        if event == "call":
            callee = frame.f_code.co_filename
            caller = frame.f_back
            if not _engine_side(callee) or caller is None:
                return
            if _inside_engine(caller):
                return
            paths.append((*_stack_files(caller), os.path.relpath(callee, PACKAGE)))
        elif event == "c_call" and _native_function(arg):
            if not _inside_engine(frame):
                paths.append((*_stack_files(frame), "_native"))

    sys.setprofile(profile)
    try:
        call()
    finally:
        sys.setprofile(None)
    return paths


def _inside_engine(frame: Any) -> bool:
    """Whether ``frame`` or one below it runs engine code (helpers an engine calls back,
    such as LangChain's window loop calling tiktoken, are the engine's)."""
    while frame is not None:
        if _engine_side(frame.f_code.co_filename):
            return True
        frame = frame.f_back
    return False


def _native_function(function: Any) -> bool:
    """Whether ``function`` (a C function or method) belongs to the extension module."""
    owner = getattr(function, "__self__", None)
    return "ferrochunk._native" in (
        getattr(function, "__module__", None),
        type(owner).__module__,
        getattr(owner, "__name__", None),
    )


def _stack_files(frame: Any) -> tuple[str, ...]:
    """The package's files on the stack from the test's call down to ``frame``, in order."""
    files: list[str] = []
    while frame is not None and frame.f_code.co_filename != __file__:
        path = frame.f_code.co_filename
        if _ours(path) and frame.f_code.co_name != "<module>":
            rel = os.path.relpath(path, PACKAGE)
            if rel not in files:
                files.append(rel)
        frame = frame.f_back
    return tuple(reversed(files))


@pytest.mark.parametrize("stack", ["native", "reference"])
def test_a_public_call_reaches_its_engine_through_three_files(stack: str) -> None:
    module = ferrochunk if stack == "native" else ferrochunk.reference
    calls = _calls(module)
    for call in calls.values():
        call()  # every module imported first: an import's frames are not the call's path
    for name, call in calls.items():
        paths = paths_to_engines(call)
        assert paths, f"{name}: no engine entered"
        longest = max(paths, key=len)
        assert len(longest) <= 3, f"{name}: {' -> '.join(longest)}"


def test_the_measure_sees_a_longer_path() -> None:
    """The check can fail: ``create_documents`` (not held to it, see above) reaches the
    native batch through the documents helper as well, four files."""
    splitter = ferrochunk.RecursiveCharacterTextSplitter(chunk_size=40, chunk_overlap=5)
    paths = paths_to_engines(lambda: splitter.create_documents([TEXT, TEXT]))
    assert max(len(p) for p in paths) == 4, paths


def test_engines_are_chosen_only_by_the_seam() -> None:
    """Each class's engine is what its subsystem's function in ``ferrochunk.engines``
    returns for it: the same type, on both stacks."""
    for module in (ferrochunk, ferrochunk.reference):
        splitter = module.Splitter(40)
        assert type(splitter._engine) is type(
            engines.splitter_engine(splitter._args, splitter._stack)
        )
        chunker = module.MarkdownChunker(40)
        assert type(chunker._engine) is type(engines.markdown_engine(chunker))
        drop_in = module.RecursiveCharacterTextSplitter(chunk_size=40, chunk_overlap=5)
        specs, recursive = drop_in._engine_spec()
        assert type(drop_in._engine(drop_in._key())) is type(
            engines.text_engine(drop_in, specs, recursive)
        )
