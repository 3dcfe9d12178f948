//! Test oracle: `LangChain`'s string algorithm for literal separators, transcribed literally:
//! `_split_text_with_regex`, `_merge_splits` and `_split_text`.
//!
//! Kept apart from `recursive.rs` so the core file stays readable; compiled for tests only.

use crate::split::scan::KeepSeparator;
use crate::text::is_py_space;

pub struct Cfg {
    pub size: usize,
    pub overlap: usize,
    pub keep: KeepSeparator,
    pub strip: bool,
}

fn len(s: &str) -> usize {
    s.chars().count()
}

fn split(text: &str, sep: &str, keep: KeepSeparator) -> Vec<String> {
    if sep.is_empty() {
        return text.chars().map(String::from).collect();
    }
    let parts: Vec<&str> = text.split(sep).collect();
    let out: Vec<String> = match keep {
        KeepSeparator::Drop => parts.iter().map(|p| (*p).to_owned()).collect(),
        KeepSeparator::Start => std::iter::once(parts[0].to_owned())
            .chain(parts[1..].iter().map(|p| format!("{sep}{p}")))
            .collect(),
        KeepSeparator::End => {
            let n = parts.len();
            parts[..n - 1]
                .iter()
                .map(|p| format!("{p}{sep}"))
                .chain(std::iter::once(parts[n - 1].to_owned()))
                .collect()
        }
    };
    out.into_iter().filter(|s| !s.is_empty()).collect()
}

fn join(docs: &[String], sep: &str, cfg: &Cfg) -> Option<String> {
    let text = docs.join(sep);
    let text = if cfg.strip {
        text.trim_matches(is_py_space).to_owned()
    } else {
        text
    };
    (!text.is_empty()).then_some(text)
}

fn merge(splits: &[String], sep: &str, cfg: &Cfg) -> Vec<String> {
    let sep_len = len(sep);
    let (mut docs, mut current, mut total) = (Vec::new(), Vec::<String>::new(), 0);
    for d in splits {
        let l = len(d);
        let extra = |c: &Vec<String>| if c.is_empty() { 0 } else { sep_len };
        if total + l + extra(&current) > cfg.size && !current.is_empty() {
            docs.extend(join(&current, sep, cfg));
            while total > cfg.overlap || (total + l + extra(&current) > cfg.size && total > 0) {
                total -= len(&current[0]) + if current.len() > 1 { sep_len } else { 0 };
                current.remove(0);
            }
        }
        current.push(d.clone());
        total += l + if current.len() > 1 { sep_len } else { 0 };
    }
    docs.extend(join(&current, sep, cfg));
    docs
}

pub fn recursive(text: &str, seps: &[&str], cfg: &Cfg) -> Vec<String> {
    let mut sep = seps[seps.len() - 1];
    let mut rest: &[&str] = &[];
    for (i, s) in seps.iter().enumerate() {
        if s.is_empty() {
            sep = s;
            break;
        }
        if text.contains(s) {
            sep = s;
            rest = &seps[i + 1..];
            break;
        }
    }
    let joiner = if cfg.keep == KeepSeparator::Drop {
        sep
    } else {
        ""
    };
    let (mut out, mut good) = (Vec::new(), Vec::new());
    for s in split(text, sep, cfg.keep) {
        if len(&s) < cfg.size {
            good.push(s);
            continue;
        }
        if !good.is_empty() {
            out.extend(merge(&good, joiner, cfg));
            good.clear();
        }
        if rest.is_empty() {
            out.push(s);
        } else {
            out.extend(recursive(&s, rest, cfg));
        }
    }
    if !good.is_empty() {
        out.extend(merge(&good, joiner, cfg));
    }
    out
}
