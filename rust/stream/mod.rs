//! Splitting a text too large for memory, fed in pieces, exactly as `split(whole_text)`.
//!
//! What LangChain's recursive algorithm needs to see at once:
//! - **The choice of the first separator** looks at the whole text: the first separator of
//!   the list that occurs anywhere. [`choose`] finds it in one pass over a stream, keeping
//!   only the tail a match may still continue into; for a file it is a first read.
//! - **Top-level pieces** lie between occurrences of that separator. Each is cut only at a
//!   boundary that later text cannot move ([`rules`]: how far a separator's match can
//!   reach back), so pieces are final as soon as the next separator occurrence is seen.
//! - **A piece at or over the chunk size** is split on its own, with the later separators,
//!   by the core splitter: it has to be in memory whole. That is the one unbounded part: a
//!   huge stretch without the top separator (say a 1 GB line in a file whose top separator
//!   is a blank line) is held whole while it is split.
//! - **Merging with overlap** runs across consecutive small pieces, but its state is only
//!   the current window (at most the chunk size), so chunks are emitted as pieces arrive.
//!
//! So memory is bounded by the read buffer plus the merge window plus the longest
//! top-level piece (and, for separators with look-around such as `\b`, which no boundary
//! rule covers, the whole text). [`splitter`] holds the state machine.

pub mod choose;
pub mod decode;
pub mod rules;
pub mod splitter;

pub use choose::Chooser;
pub use decode::Utf8Stream;
#[cfg_attr(not(feature = "python"), allow(unused_imports))] // used by the binding
pub use splitter::{Emitted, StreamSplitter};
