//! Throughput of the sentence scan on files, without Python:
//! `cargo run --release --example sentbench -- FILE...` prints MB/s (UTF-8 bytes) of the
//! best pass of `PASSES` (default 20); `EACH=1` prints every pass (on a shared machine the
//! spread is large: preempted passes are several times slower). `STORAGE=python` scans
//! each file stored as CPython stores a `str` (the narrowest of 1, 2 and 4 bytes a
//! character, what `ferrochunk.sentence_ends` reads); `ucs4` four bytes for every file.

use std::time::Instant;

use ferrochunk::{sentence_ends, sentence_ends_of, Fixed, Scan, Unit};

/// A text in one storage.
enum Text {
    Utf8(String),
    Latin1(Vec<u8>),
    Ucs2(Vec<u16>),
    Ucs4(Vec<u32>),
}

impl Text {
    fn new(text: String, storage: &str) -> Self {
        let units: Vec<u32> = text.chars().map(u32::from).collect();
        let widest = units.iter().copied().max().unwrap_or(0);
        #[allow(clippy::cast_possible_truncation)] // below `widest`'s limit
        match storage {
            "python" if widest <= 0xFF => Self::Latin1(units.iter().map(|&u| u as u8).collect()),
            "python" if widest <= 0xFFFF => Self::Ucs2(units.iter().map(|&u| u as u16).collect()),
            "python" | "ucs4" => Self::Ucs4(units),
            _ => Self::Utf8(text),
        }
    }

    /// How many sentences.
    fn scan(&self) -> usize {
        match self {
            Self::Utf8(text) => sentence_ends(text).len(),
            Self::Latin1(units) => ends(units),
            Self::Ucs2(units) => ends(units),
            Self::Ucs4(units) => ends(units),
        }
    }
}

fn ends<'a, U: Unit>(units: &'a [U]) -> usize
where
    Fixed<'a, U>: Scan<'a>,
{
    sentence_ends_of(Fixed::new(units).expect("no lone surrogates")).len()
}

fn main() {
    let storage = std::env::var("STORAGE").unwrap_or_default();
    let mut bytes = 0;
    let texts: Vec<Text> = std::env::args()
        .skip(1)
        .map(|p| {
            let text = std::fs::read_to_string(p).expect("readable UTF-8 file");
            bytes += text.len();
            Text::new(text, &storage)
        })
        .collect();
    let passes: usize = std::env::var("PASSES")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(20);
    #[allow(clippy::cast_precision_loss)] // byte counts far below 2^52
    let megabytes = bytes as f64 / 1e6;
    let mut best = f64::MAX;
    let mut count = 0;
    for _ in 0..passes {
        let start = Instant::now();
        count = texts.iter().map(Text::scan).sum::<usize>();
        let took = start.elapsed().as_secs_f64();
        if std::env::var("EACH").is_ok() {
            eprint!("{:.0} ", megabytes / took);
        }
        best = best.min(took);
    }
    let speed = megabytes / best;
    println!("{count} sentences in {bytes} bytes: {speed:.0} MB/s (best of {passes})");
}
