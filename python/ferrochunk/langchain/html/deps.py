"""The third-party parts of the HTML splitters, imported when used (LangChain's messages
when missing), and LangChain's beta/deprecation markers (its own when installed)."""

from __future__ import annotations

import functools
import warnings
from typing import Any, Callable, TypeVar

T = TypeVar("T")


def import_bs4(import_error_message: str) -> tuple[Any, Any, Any]:
    """``(BeautifulSoup, Tag, NavigableString)``, or ``ImportError(import_error_message)``."""
    try:
        from bs4 import BeautifulSoup, Tag
        from bs4.element import NavigableString
    except ImportError as err:
        raise ImportError(import_error_message) from err
    return BeautifulSoup, Tag, NavigableString


def import_lxml_etree() -> Any:
    try:
        from lxml import etree
    except ImportError as err:
        msg = "Unable to import lxml, please install with `pip install lxml`."
        raise ImportError(msg) from err
    return etree


def import_nltk() -> Any:
    try:
        import nltk
    except ImportError as err:
        msg = "Could not import nltk. Please install it with 'pip install nltk'."
        raise ImportError(msg) from err
    return nltk


try:  # LangChain's markers give LangChain's exact warnings
    from langchain_core._api import beta, deprecated
except ImportError:  # without langchain-core: plain warnings with the same wording

    def beta() -> Callable[[T], T]:  # type: ignore[misc]
        def mark(cls: Any) -> Any:
            init = cls.__init__

            @functools.wraps(init)
            def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
                warnings.warn(
                    f"The class `{cls.__name__}` is in beta. It is actively being worked "
                    "on, so the API may change.",
                    FutureWarning,
                    stacklevel=2,
                )
                init(self, *args, **kwargs)

            cls.__init__ = __init__
            return cls

        return mark

    def deprecated(  # type: ignore[misc]
        since: str, *, removal: str, addendum: str, package: str
    ) -> Callable[[T], T]:
        def mark(func: Any) -> Any:
            @functools.wraps(func)
            def wrapper(*args: Any, **kwargs: Any) -> Any:
                warnings.warn(
                    f"The method `{func.__qualname__}` was deprecated in "
                    f"{package} {since} and will be removed in {removal}. "
                    f"{addendum}",
                    DeprecationWarning,
                    stacklevel=2,
                )
                return func(*args, **kwargs)

            return wrapper

        return mark


__all__ = ["beta", "deprecated", "import_bs4", "import_lxml_etree", "import_nltk"]
