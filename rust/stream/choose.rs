//! The separator LangChain's recursive splitter starts with, found over a stream: the first
//! of the list that occurs anywhere in the text (the empty separator always "occurs"; if
//! none does, the last one, alone).

use super::rules::{floor_char, Rule};
use crate::split::Separator;

/// Feeds of text in, the index of the first separator that occurs out.
#[derive(Debug, Clone)]
pub struct Chooser {
    seps: Vec<Separator>,
    rules: Vec<Rule>,
    /// The first separator known to occur so far (`seps.len()`: none yet).
    best: usize,
    /// The end of the text seen so far that a later match may still include.
    window: String,
}

impl Chooser {
    /// A chooser for `seps` and their [`Rule`]s (one each, in the same order).
    pub fn new(seps: Vec<Separator>, rules: Vec<Rule>) -> Self {
        let best = seps
            .iter()
            .position(Separator::is_chars)
            .unwrap_or(seps.len());
        Self {
            seps,
            rules,
            best,
            window: String::new(),
        }
    }

    /// Whether the answer is known without reading further (the first separator occurs).
    pub fn decided(&self) -> bool {
        self.best == 0
    }

    /// Reads the next stretch of text.
    pub fn feed(&mut self, text: &str) {
        if self.decided() {
            return;
        }
        self.window.push_str(text);
        if let Some(j) = (0..self.best).find(|&j| self.seps[j].is_found(&self.window)) {
            self.best = j;
        }
        // Keep the tail that a match of a still-undecided separator may continue from.
        let keep = (0..self.best)
            .map(|j| self.rules[j].carry(&self.window))
            .try_fold(0, |most, carry| carry.map(|c| most.max(c)));
        if let Some(keep) = keep {
            let from = floor_char(&self.window, self.window.len().saturating_sub(keep));
            self.window.drain(..from);
        }
    }

    /// The separator's index once the whole text has been fed (see the module comment).
    pub fn finish(&self) -> usize {
        self.best.min(self.seps.len().saturating_sub(1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chooser(specs: &[(&str, bool)]) -> Chooser {
        let seps = specs
            .iter()
            .map(|&(p, re)| {
                if re {
                    Separator::regex(p).unwrap()
                } else {
                    Separator::literal(p)
                }
            })
            .collect();
        Chooser::new(seps, specs.iter().map(|&(p, re)| Rule::of(p, re)).collect())
    }

    #[track_caller]
    fn choose(specs: &[(&str, bool)], parts: &[&str]) -> usize {
        let mut c = chooser(specs);
        for part in parts {
            c.feed(part);
        }
        c.finish()
    }

    #[test]
    fn separators_split_across_feeds_are_found() {
        let defaults = [("\n\n", false), ("\n", false), (" ", false), ("", false)];
        assert_eq!(choose(&defaults, &["ab\n", "\ncd"]), 0);
        assert_eq!(choose(&defaults, &["ab\n", "cd"]), 1);
        assert_eq!(choose(&defaults, &["abc", "d"]), 3);
        let regex = [("[.!?]+\\s", true), ("\\n+", true), ("x", false)];
        assert_eq!(choose(&regex, &["one!", "!", " two"]), 0);
        assert_eq!(choose(&regex, &["one", "two"]), 2); // none occurs: the last, alone
        assert_eq!(choose(&regex, &["one\n", "\ntwo"]), 1);
    }

    #[test]
    fn first_separator_decides_early() {
        let mut c = chooser(&[("==", false), ("-", false)]);
        c.feed("a-b=");
        assert!(!c.decided());
        c.feed("=c");
        assert!(c.decided());
        assert_eq!(c.finish(), 0);
    }
}
