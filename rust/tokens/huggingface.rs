//! Token counts in a Hugging Face tokenizer (a `tokenizer.json`), so a splitter sized by one
//! measures every piece in Rust instead of calling a Python tokenizer per piece.
//!
//! The file is run by `tokenizers`, the Rust library the Python package wraps, so counts are
//! the Python package's own. Truncation and padding saved in the file are switched off:
//! a length must count the whole text (as `transformers`' `tokenize()`, which LangChain's
//! `from_huggingface_tokenizer` counts with, does).

use std::str::FromStr;

use tokenizers::Tokenizer;

use crate::error::{Error, Result};
use crate::length::Length;

/// A Hugging Face tokenizer used as a length; shareable across threads.
pub struct HfLength {
    tokenizer: Tokenizer,
    add_special_tokens: bool,
}

fn hf_error(err: impl std::fmt::Display) -> Error {
    Error::HuggingFace(err.to_string())
}

impl HfLength {
    /// Loads a serialized tokenizer (the contents of a `tokenizer.json`); `add_special_tokens`
    /// counts the tokens its post-processor adds (`[CLS]`, `</s>`...) as `encode` does.
    pub fn from_json(json: &str, add_special_tokens: bool) -> Result<Self> {
        let mut tokenizer = Tokenizer::from_str(json).map_err(hf_error)?;
        tokenizer.with_truncation(None).map_err(hf_error)?;
        tokenizer.with_padding(None);
        Ok(Self {
            tokenizer,
            add_special_tokens,
        })
    }

    /// Treats the text of added special tokens as plain text, to be split like any other
    /// (`encode_special_tokens` in the Python package, `split_special_tokens` in
    /// `transformers`): a runtime setting that `tokenizer.json` does not save.
    #[must_use]
    pub fn split_special_tokens(mut self, split: bool) -> Self {
        self.tokenizer.set_encode_special_tokens(split);
        self
    }

    /// The tokenizer as JSON again (truncation and padding off), with whether it counts
    /// special tokens and splits special-token text: what rebuilds an equal length (the
    /// Python package pickles its tokenizers the same way).
    pub fn to_json(&self) -> Result<(String, bool, bool)> {
        let json = self.tokenizer.to_string(false).map_err(hf_error)?;
        let split = self.tokenizer.get_encode_special_tokens();
        Ok((json, self.add_special_tokens, split))
    }

    /// Loads a `tokenizer.json` file.
    pub fn from_file(path: &std::path::Path, add_special_tokens: bool) -> Result<Self> {
        let json = std::fs::read_to_string(path)
            .map_err(|err| hf_error(format!("cannot read {}: {err}", path.display())))?;
        Self::from_json(&json, add_special_tokens)
    }

    /// The number of tokens of `text`.
    pub fn count(&self, text: &str) -> Result<usize> {
        self.tokenizer
            .encode_fast(text, self.add_special_tokens)
            .map(|encoding| encoding.len())
            .map_err(hf_error)
    }
}

impl std::fmt::Debug for HfLength {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("HfLength")
            .field("add_special_tokens", &self.add_special_tokens)
            .finish_non_exhaustive()
    }
}

impl Length for HfLength {
    fn length(&self, text: &str) -> Result<usize> {
        self.count(text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A word-level tokenizer written by hand: every known word one token, `[UNK]` else.
    const WORDS: &str = r#"{
        "version": "1.0", "truncation": {"max_length": 2, "strategy": "LongestFirst",
        "stride": 0, "direction": "Right"}, "padding": null, "added_tokens": [],
        "normalizer": null, "pre_tokenizer": {"type": "Whitespace"},
        "post_processor": null, "decoder": null,
        "model": {"type": "WordLevel", "vocab": {"[UNK]": 0, "a": 1, "b": 2},
                  "unk_token": "[UNK]"}
    }"#;

    #[test]
    fn counts_whole_texts_despite_saved_truncation() {
        let hf = HfLength::from_json(WORDS, false).unwrap();
        assert_eq!(hf.count("a b c a b").unwrap(), 5);
        assert_eq!(hf.length("").unwrap(), 0);
    }

    #[test]
    fn special_tokens_split_only_when_asked() {
        let json = WORDS.replace(
            r#""added_tokens": []"#,
            r#""added_tokens": [{"id": 3, "content": "<x>", "single_word": false,
                "lstrip": false, "rstrip": false, "normalized": false, "special": true}]"#,
        );
        let whole = HfLength::from_json(&json, false).unwrap();
        assert_eq!(whole.count("a <x> b").unwrap(), 3);
        let split = HfLength::from_json(&json, false)
            .unwrap()
            .split_special_tokens(true);
        // `<x>` as text: the Whitespace pre-tokenizer cuts it into `<`, `x`, `>`.
        assert_eq!(split.count("a <x> b").unwrap(), 5);
    }

    #[test]
    fn bad_json_is_an_error() {
        let err = HfLength::from_json("{}", false).unwrap_err().to_string();
        assert!(err.starts_with("Hugging Face tokenizer"), "{err}");
    }
}
