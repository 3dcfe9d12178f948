//! Token bindings: bundled BPE encodings and counters, Hugging Face counters.

pub mod huggingface;
pub mod tokenizer;
pub mod windows;
