//! The rank tables of the bundled encodings ([`crate::tokens::encodings`]), unpacked here
//! rather than there so the data knows nothing of the merge.

use std::sync::OnceLock;

use super::Ranks;
use crate::tokens::encodings::{EncodingSpec, ENCODINGS};

impl EncodingSpec {
    /// The mergeable ranks, unpacked on first use and shared for the process's lifetime
    /// (one table for the encodings built from the same parts, e.g. `gpt2` and `r50k_base`).
    pub fn ranks(&'static self) -> &'static Ranks {
        static CACHE: [OnceLock<Ranks>; ENCODINGS.len()] =
            [const { OnceLock::new() }; ENCODINGS.len()];
        let slot = ENCODINGS
            .iter()
            .position(|e| same_parts(e.parts, self.parts))
            .unwrap_or(0);
        CACHE[slot].get_or_init(|| Ranks::from_packed(self.parts))
    }
}

/// Whether two encodings' rank tables are built from the same packed data.
fn same_parts(a: &[(u32, &[u8])], b: &[(u32, &[u8])]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.0 == y.0 && std::ptr::eq(x.1, y.1))
}
