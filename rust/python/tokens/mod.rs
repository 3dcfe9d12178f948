//! Token bindings: bundled BPE encodings and counters, Hugging Face counters, and what
//! `ferrochunk.tiktoken` adds (`dropin`).

pub mod dropin;
pub mod huggingface;
pub mod tokenizer;
pub mod windows;
