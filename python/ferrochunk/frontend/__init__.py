"""What the public classes and their engines share, below both: argument checks, batches,
chunk building, regex translation, LangChain's hooks and token windows, and the small types
a class hands its engine (``Options``, ``HeaderRule``).

The public classes themselves live with their subsystem (``split/``, ``markdown/``,
``structure/``), each holding an engine :mod:`ferrochunk.engines` chooses. Nothing here
imports a public class, an engine or the extension module.
"""
