//! Throughput of the sentence scan on files, without Python:
//! `cargo run --release --example sentbench -- FILE...` prints MB/s (UTF-8 bytes) of the
//! best pass of `PASSES` (default 20); `EACH=1` prints every pass (on a shared machine the
//! spread is large: preempted passes are several times slower).

use std::time::Instant;

fn main() {
    let texts: Vec<String> = std::env::args()
        .skip(1)
        .map(|p| std::fs::read_to_string(p).expect("readable UTF-8 file"))
        .collect();
    let bytes: usize = texts.iter().map(String::len).sum();
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
        count = texts
            .iter()
            .map(|t| ferrochunk::sentence_ends(t).len())
            .sum::<usize>();
        let took = start.elapsed().as_secs_f64();
        if std::env::var("EACH").is_ok() {
            eprint!("{:.0} ", megabytes / took);
        }
        best = best.min(took);
    }
    let speed = megabytes / best;
    println!("{count} sentences in {bytes} bytes: {speed:.0} MB/s (best of {passes})");
}
