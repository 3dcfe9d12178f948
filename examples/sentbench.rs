//! Throughput of the sentence scan on files (no Python): `cargo run --release --example
//! sentbench -- FILE...`; prints MB/s (UTF-8 bytes) as the best of 20 passes.

use std::time::Instant;

fn main() {
    let texts: Vec<String> = std::env::args()
        .skip(1)
        .map(|p| std::fs::read_to_string(p).expect("readable UTF-8 file"))
        .collect();
    let bytes: usize = texts.iter().map(String::len).sum();
    let mut best = f64::MAX;
    let mut count = 0;
    let passes: usize = std::env::var("PASSES")
        .ok()
        .and_then(|p| p.parse().ok())
        .unwrap_or(20);
    for _ in 0..passes {
        let start = Instant::now();
        count = texts
            .iter()
            .map(|t| ferrochunk::sentence_ends(t).len())
            .sum::<usize>();
        best = best.min(start.elapsed().as_secs_f64());
    }
    #[allow(clippy::cast_precision_loss)] // byte counts far below 2^52
    let mbps = bytes as f64 / best / 1e6;
    println!("{count} sentences in {bytes} bytes: {mbps:.0} MB/s (best of {passes})");
}
