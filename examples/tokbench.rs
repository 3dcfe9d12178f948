//! Counts a corpus folder's tokens (cold first pass, then warm passes) for profiling with
//! `perf`/`callgrind`: `cargo run --release --example tokbench -- o200k_base DIR [ROUNDS]`.

#![allow(clippy::cast_precision_loss)] // MB/s for display

use std::time::Instant;

use ferrochunk::Tokenizer;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let name = args.get(1).map_or("cl100k_base", String::as_str);
    let dir = args.get(2).ok_or(
        "usage: tokbench ENCODING DIR [ROUNDS] [count|cold|encode|encode-cold|batch|pieces]",
    )?;
    let rounds: usize = args.get(3).map_or(Ok(3), |s| s.parse())?;
    let mode = args.get(4).map_or("count", String::as_str);
    let mut paths: Vec<_> = std::fs::read_dir(dir)?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "md" || x == "txt"))
        .collect();
    paths.sort();
    let texts: Vec<String> = paths
        .iter()
        .map(std::fs::read_to_string)
        .collect::<Result<_, _>>()?;
    let bytes: usize = texts.iter().map(String::len).sum();
    let t = Instant::now();
    let tok = Tokenizer::new(name)?;
    let loaded = t.elapsed().as_secs_f64();
    // A merge builds the pair table: "漢字" is several tokens in every encoding.
    let _ = tok.count_ordinary("warm up the tables: 漢字漢字");
    println!(
        "{name}: ranks {:.0} ms, merge tables {:.0} ms",
        loaded * 1e3,
        (t.elapsed().as_secs_f64() - loaded) * 1e3
    );
    for round in 0..rounds {
        if mode == "cold" || mode == "encode-cold" {
            ferrochunk::clear_caches();
        }
        let t = Instant::now();
        let total: usize = match mode {
            "pieces" => texts
                .iter()
                .map(|s| ferrochunk::Pieces::new(s, tok.spec().dialect).count())
                .sum(),
            "encode" | "encode-cold" => texts.iter().map(|s| tok.encode_ordinary(s).len()).sum(),
            "batch" => {
                let strs: Vec<&str> = texts.iter().map(String::as_str).collect();
                let policy = tok.policy(&[], Some(&[]));
                tok.count_batch(&strs, &policy)?.iter().sum()
            }
            _ => texts.iter().map(|s| tok.count_ordinary(s)).sum(),
        };
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{name} {mode} round {round}: {total} tokens, {:.1} MB/s",
            bytes as f64 / secs / 1e6
        );
    }
    Ok(())
}
