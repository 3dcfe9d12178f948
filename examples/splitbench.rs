//! Splits a corpus folder's files as CPython stores them (UCS-2 where a file needs it) for
//! profiling: `cargo run --release --example splitbench -- DIR [ROUNDS]`.

#![allow(clippy::cast_precision_loss)] // MB/s for display

use std::time::Instant;

use ferrochunk::{Fixed, SplitConfig, Splitter, Units, Utf8};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let dir = args.get(1).ok_or("usage: splitbench DIR [ROUNDS]")?;
    let rounds: usize = args.get(2).map_or(Ok(20), |s| s.parse())?;
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
    let ucs2: Vec<Option<Vec<u16>>> = texts
        .iter()
        .map(|t| {
            t.chars()
                .map(|c| u16::try_from(u32::from(c)).ok())
                .collect()
        })
        .collect();
    let splitter = Splitter::recursive(SplitConfig::new(1000, 200)?, vec![]);
    for round in 0..rounds {
        let (mut validate, mut split, mut copy, mut utf8) = (0.0, 0.0, 0.0, 0.0);
        let mut chunks = 0;
        for (text, units) in texts.iter().zip(&ucs2) {
            let t = Instant::now();
            let out = splitter.split_units(Utf8(text), None)?;
            utf8 += t.elapsed().as_secs_f64();
            let Some(units) = units else { continue };
            let t = Instant::now();
            let fixed = Fixed::new(&units[..]).map_err(|_| "surrogate")?;
            validate += t.elapsed().as_secs_f64();
            let t = Instant::now();
            let out2 = splitter.split_units(fixed, None)?;
            split += t.elapsed().as_secs_f64();
            let t = Instant::now();
            for s in &out2.spans {
                let piece = &fixed.units()[s.start..s.end];
                let any = piece.iter().fold(0u16, |a, &u| a | u);
                let v: Vec<u8> = piece.iter().map(|&u| u as u8).collect();
                std::hint::black_box((any, v));
            }
            copy += t.elapsed().as_secs_f64();
            chunks += out.spans.len();
        }
        if round == rounds - 1 {
            let mb = bytes as f64 / 1e6;
            println!(
                "{chunks} chunks; utf8 split {:.3} ms; ucs2: validate {:.3} ms, split {:.3} ms, copy {:.3} ms ({mb:.2} MB)",
                utf8 * 1e3, validate * 1e3, split * 1e3, copy * 1e3
            );
        }
    }
    let _ = Utf8("").len();
    Ok(())
}
