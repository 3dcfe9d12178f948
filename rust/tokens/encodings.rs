//! The BPE encodings as tiktoken defines them: names, pre-tokenizer dialects, special
//! tokens, and the mergeable ranks, which ship inside the binary so nothing is downloaded.
//!
//! The ranks are packed by `tools/pack_ranks.py` from tiktoken's published rank files (each
//! token's bytes in rank order, behind a one-byte length): 0.37 MB (r50k), 0.74 MB (cl100k),
//! 1.6 MB (o200k). Raw rather than compressed: zlib only brings o200k to 1.05 MB, and raw
//! data is borrowed in place (`&'static [u8]` tokens) with no decompression at load time.
//! `gpt2` has exactly the ranks of `r50k_base`, and `p50k_base` adds 24 ranks to them;
//! `p50k_edit` and `o200k_harmony` are `p50k_base` and `o200k_base` with more special tokens.
//! The Python tests check every table against the SHA-256 tiktoken publishes for its files.

use std::sync::OnceLock;

use crate::error::{Error, Result};

/// Which hand-written pre-tokenizer reproduces the encoding's regex.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dialect {
    /// GPT-2's pattern (`gpt2`, `r50k_base`, `p50k_base`).
    R50k,
    /// `cl100k_base` (GPT-4, GPT-3.5, `text-embedding-3-*`).
    Cl100k,
    /// `o200k_base` (GPT-4o, o-series, GPT-4.1, GPT-5).
    O200k,
}

/// The regex tiktoken splits text with before BPE, for each dialect, exactly as tiktoken
/// writes it (the pre-tokenizer proves itself against these in the tests).
pub fn pattern(dialect: Dialect) -> &'static str {
    match dialect {
        Dialect::R50k => {
            r"'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s"
        }
        Dialect::Cl100k => concat!(
            r"'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+|",
            r" ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s"
        ),
        Dialect::O200k => concat!(
            r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+",
            r"(?i:'s|'t|'re|'ve|'m|'ll|'d)?|",
            r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*",
            r"(?i:'s|'t|'re|'ve|'m|'ll|'d)?|",
            r"\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+"
        ),
    }
}

/// One encoding: everything tiktoken's `Encoding` is built from.
#[derive(Debug)]
pub struct EncodingSpec {
    /// tiktoken's name for it.
    pub name: &'static str,
    /// The pre-tokenizer.
    pub dialect: Dialect,
    /// Special tokens and their ids, before the reserved ones (see [`Self::special`]).
    named: &'static [(&'static str, u32)],
    /// Ids whose special token is a placeholder, `<|reserved_{id}|>` (`o200k_harmony`).
    reserved: (u32, u32),
    /// Packed rank tables, concatenated in order (rank of the first token of each), which
    /// [`crate::tokens::bpe`] unpacks (`EncodingSpec::ranks`).
    pub(crate) parts: &'static [(u32, &'static [u8])],
    /// tiktoken's `explicit_n_vocab`, when it sets one.
    pub explicit_n_vocab: Option<u32>,
}

const R50K: &[u8] = include_bytes!("data/r50k_base.bin");
const P50K_EXTRA: &[u8] = include_bytes!("data/p50k_extra.bin");
const CL100K: &[u8] = include_bytes!("data/cl100k_base.bin");
const O200K: &[u8] = include_bytes!("data/o200k_base.bin");

const ENDOFTEXT: &str = "<|endoftext|>";
const FIM: [&str; 3] = ["<|fim_prefix|>", "<|fim_middle|>", "<|fim_suffix|>"];

/// Every encoding ferrochunk bundles, in tiktoken's order.
pub static ENCODINGS: [EncodingSpec; 7] = [
    EncodingSpec {
        name: "gpt2",
        dialect: Dialect::R50k,
        named: &[(ENDOFTEXT, 50256)],
        reserved: (0, 0),
        parts: &[(0, R50K)],
        explicit_n_vocab: Some(50257),
    },
    EncodingSpec {
        name: "r50k_base",
        dialect: Dialect::R50k,
        named: &[(ENDOFTEXT, 50256)],
        reserved: (0, 0),
        parts: &[(0, R50K)],
        explicit_n_vocab: Some(50257),
    },
    EncodingSpec {
        name: "p50k_base",
        dialect: Dialect::R50k,
        named: &[(ENDOFTEXT, 50256)],
        reserved: (0, 0),
        parts: &[(0, R50K), (50257, P50K_EXTRA)],
        explicit_n_vocab: Some(50281),
    },
    EncodingSpec {
        // p50k_base's ranks with the fill-in-the-middle tokens after them.
        name: "p50k_edit",
        dialect: Dialect::R50k,
        named: &[
            (ENDOFTEXT, 50256),
            (FIM[0], 50281),
            (FIM[1], 50282),
            (FIM[2], 50283),
        ],
        reserved: (0, 0),
        parts: &[(0, R50K), (50257, P50K_EXTRA)],
        explicit_n_vocab: None,
    },
    EncodingSpec {
        name: "cl100k_base",
        dialect: Dialect::Cl100k,
        named: &[
            (ENDOFTEXT, 100_257),
            (FIM[0], 100_258),
            (FIM[1], 100_259),
            (FIM[2], 100_260),
            ("<|endofprompt|>", 100_276),
        ],
        reserved: (0, 0),
        parts: &[(0, CL100K)],
        explicit_n_vocab: None,
    },
    EncodingSpec {
        name: "o200k_base",
        dialect: Dialect::O200k,
        named: &[(ENDOFTEXT, 199_999), ("<|endofprompt|>", 200_018)],
        reserved: (0, 0),
        parts: &[(0, O200K)],
        explicit_n_vocab: None,
    },
    EncodingSpec {
        // o200k_base's ranks and tokens, then the chat format's (gpt-oss).
        name: "o200k_harmony",
        dialect: Dialect::O200k,
        named: &[
            (ENDOFTEXT, 199_999),
            ("<|endofprompt|>", 200_018),
            ("<|startoftext|>", 199_998),
            ("<|reserved_200000|>", 200_000),
            ("<|reserved_200001|>", 200_001),
            ("<|return|>", 200_002),
            ("<|constrain|>", 200_003),
            ("<|reserved_200004|>", 200_004),
            ("<|channel|>", 200_005),
            ("<|start|>", 200_006),
            ("<|end|>", 200_007),
            ("<|message|>", 200_008),
            ("<|reserved_200009|>", 200_009),
            ("<|reserved_200010|>", 200_010),
            ("<|reserved_200011|>", 200_011),
            ("<|call|>", 200_012),
        ],
        reserved: (200_013, 201_088),
        parts: &[(0, O200K)],
        explicit_n_vocab: None,
    },
];

/// The names of the bundled encodings, for error messages and listings.
pub fn names() -> Vec<&'static str> {
    ENCODINGS.iter().map(|e| e.name).collect()
}

/// The encoding called `name`, or an error listing the available ones.
pub fn spec(name: &str) -> Result<&'static EncodingSpec> {
    ENCODINGS
        .iter()
        .find(|e| e.name == name)
        .ok_or_else(|| Error::UnknownEncoding {
            name: name.to_owned(),
            available: names().join(", "),
        })
}

impl EncodingSpec {
    /// Special tokens and their ids, in tiktoken's order. The reserved placeholders are
    /// named on first use (the only special tokens not written out above); a text may map
    /// to an id another text maps to as well (`o200k_harmony`'s 200018).
    pub fn special(&'static self) -> &'static [(&'static str, u32)] {
        static CACHE: [OnceLock<Vec<(&'static str, u32)>>; ENCODINGS.len()] =
            [const { OnceLock::new() }; ENCODINGS.len()];
        let (first, end) = self.reserved;
        if first == end {
            return self.named;
        }
        let slot = ENCODINGS
            .iter()
            .position(|e| std::ptr::eq(e, self))
            .unwrap_or(0);
        CACHE[slot].get_or_init(|| {
            let reserved = (first..end).map(|id| {
                let text: &'static str = format!("<|reserved_{id}|>").leak();
                (text, id)
            });
            self.named.iter().copied().chain(reserved).collect()
        })
    }
}

/// tiktoken's model-name table: exact names first, then prefixes (`gpt-4o-2024-05-13`).
const MODELS: &[(&str, &str)] = &[
    ("o1", "o200k_base"),
    ("o3", "o200k_base"),
    ("o4-mini", "o200k_base"),
    ("gpt-5", "o200k_base"),
    ("gpt-4.1", "o200k_base"),
    ("gpt-4o", "o200k_base"),
    ("gpt-4", "cl100k_base"),
    ("gpt-3.5-turbo", "cl100k_base"),
    ("gpt-3.5", "cl100k_base"),
    ("gpt-35-turbo", "cl100k_base"),
    ("davinci-002", "cl100k_base"),
    ("babbage-002", "cl100k_base"),
    ("text-embedding-ada-002", "cl100k_base"),
    ("text-embedding-3-small", "cl100k_base"),
    ("text-embedding-3-large", "cl100k_base"),
    ("text-davinci-003", "p50k_base"),
    ("text-davinci-002", "p50k_base"),
    ("text-davinci-001", "r50k_base"),
    ("text-curie-001", "r50k_base"),
    ("text-babbage-001", "r50k_base"),
    ("text-ada-001", "r50k_base"),
    ("davinci", "r50k_base"),
    ("curie", "r50k_base"),
    ("babbage", "r50k_base"),
    ("ada", "r50k_base"),
    ("code-davinci-002", "p50k_base"),
    ("code-davinci-001", "p50k_base"),
    ("code-cushman-002", "p50k_base"),
    ("code-cushman-001", "p50k_base"),
    ("davinci-codex", "p50k_base"),
    ("cushman-codex", "p50k_base"),
    ("text-davinci-edit-001", "p50k_edit"),
    ("code-davinci-edit-001", "p50k_edit"),
    ("text-similarity-davinci-001", "r50k_base"),
    ("text-similarity-curie-001", "r50k_base"),
    ("text-similarity-babbage-001", "r50k_base"),
    ("text-similarity-ada-001", "r50k_base"),
    ("text-search-davinci-doc-001", "r50k_base"),
    ("text-search-curie-doc-001", "r50k_base"),
    ("text-search-babbage-doc-001", "r50k_base"),
    ("text-search-ada-doc-001", "r50k_base"),
    ("code-search-babbage-code-001", "r50k_base"),
    ("code-search-ada-code-001", "r50k_base"),
    ("gpt2", "gpt2"),
    ("gpt-2", "gpt2"),
];

/// Prefixes of versioned and fine-tuned model names, in tiktoken's order.
const MODEL_PREFIXES: &[(&str, &str)] = &[
    ("o1-", "o200k_base"),
    ("o3-", "o200k_base"),
    ("o4-mini-", "o200k_base"),
    ("gpt-5", "o200k_base"),
    ("gpt-4.5-", "o200k_base"),
    ("gpt-4.1-", "o200k_base"),
    ("chatgpt-4o-", "o200k_base"),
    ("gpt-4o-", "o200k_base"),
    ("gpt-4-", "cl100k_base"),
    ("gpt-3.5-turbo-", "cl100k_base"),
    ("gpt-35-turbo-", "cl100k_base"),
    ("gpt-oss-", "o200k_harmony"),
    ("ft:gpt-4o", "o200k_base"),
    ("ft:gpt-4", "cl100k_base"),
    ("ft:gpt-3.5-turbo", "cl100k_base"),
    ("ft:davinci-002", "cl100k_base"),
    ("ft:babbage-002", "cl100k_base"),
];

/// The encoding a model uses (tiktoken's `encoding_name_for_model`).
pub fn encoding_for_model(model: &str) -> Result<&'static str> {
    if let Some((_, enc)) = MODELS.iter().find(|(m, _)| *m == model) {
        return Ok(enc);
    }
    MODEL_PREFIXES
        .iter()
        .find(|(p, _)| model.starts_with(p))
        .map(|(_, enc)| *enc)
        .ok_or_else(|| Error::UnknownModel(model.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_encoding_unpacks_to_its_vocabulary_size() {
        for spec in &ENCODINGS {
            let ranks = spec.ranks();
            let max_special = spec.special().iter().map(|s| s.1).max().unwrap();
            if let Some(n) = spec.explicit_n_vocab {
                assert_eq!(n, max_special.max(ranks.max_rank()) + 1, "{}", spec.name);
            }
            assert!(ranks.len() > 50_000);
        }
        assert_eq!(spec("cl100k_base").unwrap().ranks().len(), 100_256);
        assert_eq!(spec("o200k_base").unwrap().ranks().len(), 199_998);
    }

    #[test]
    fn unknown_names_list_the_available_ones() {
        let err = spec("cl100k").unwrap_err().to_string();
        assert!(
            err.contains("cl100k_base") && err.contains("o200k_base"),
            "{err}"
        );
    }

    #[test]
    fn models_map_as_tiktoken_maps_them() {
        assert_eq!(encoding_for_model("gpt-4o").unwrap(), "o200k_base");
        assert_eq!(
            encoding_for_model("gpt-4o-2024-05-13").unwrap(),
            "o200k_base"
        );
        assert_eq!(encoding_for_model("gpt-4").unwrap(), "cl100k_base");
        assert_eq!(encoding_for_model("gpt-4-0613").unwrap(), "cl100k_base");
        assert!(encoding_for_model("llama").is_err());
    }
}
