//! Cutting text that does not fit one chunk, so that answers stay whole: at sentence ends
//! first ([`crate::sentences`]), then clause ends (`, ; :` before a space, `，、；：`), then
//! line ends, then words, then characters, each piece as full as the budget allows.
//!
//! Code is cut after blank lines first, then before lines indented no deeper than the
//! span's first (statements; a doctest's `...` line continues one), then at line ends.
//!
//! At each level the span is cut into atoms at that level's seams. Runs of atoms that fit
//! are grouped greedily, each piece as full as the budget allows. An atom too large alone
//! is cut at the next level. Characters are
//! cut last, each piece the longest prefix that fits an even share. Every size is measured
//! exactly on the span it describes, so a token budget holds to the token. Only the first
//! piece may have a smaller budget (the room left beside a heading).
//! Mirrored by `python/ferrochunk/reference/markdown/prose.py`.

use crate::error::Result;
use crate::markdown::blocks::indent;
use crate::sentences::sentence_ends_in;
use crate::text::is_py_space;

/// Byte spans of pieces.
pub type Pieces = Vec<(usize, usize)>;

/// The seam after each piece ([`Prose::cut_why`]); `None`: the end of the span cut.
pub type Whys = Vec<Option<Seam>>;

/// What a cut may follow, best first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Seam {
    /// After a blank line (code: cut between its paragraphs first).
    Blank,
    /// Before a line indented no deeper than the span's first line (code: a statement).
    Top,
    /// After a sentence.
    Sentence,
    /// After a clause mark (`, ; :` before a space, `，、；：`).
    Clause,
    /// After a line.
    Line,
    /// Before a word.
    Word,
    /// Between two characters.
    Char,
}

use Seam as Level;

impl Level {
    fn next(self) -> Self {
        match self {
            Self::Sentence => Self::Clause,
            Self::Blank => Self::Top,
            Self::Clause | Self::Top => Self::Line,
            Self::Line => Self::Word,
            Self::Word | Self::Char => Self::Char,
        }
    }
}

/// A text and the exact size of any span of it.
pub struct Prose<'a> {
    /// The source text.
    pub text: &'a str,
    /// The size of `text[a..b]` (code points, tokens, ...).
    pub size: &'a dyn Fn(usize, usize) -> Result<usize>,
    /// Code: cut after blank lines first, then at line ends (no sentences or clauses), and
    /// start each piece at the start of its first line, indentation kept.
    pub code: bool,
}

/// A doctest continuation (`...` then a space or the line's end): the rest of the
/// statement above it, at the same indentation, so no statement starts there.
fn continues(line: &str) -> bool {
    line[indent(line).1..]
        .strip_prefix("...")
        .is_some_and(|rest| rest.chars().next().is_none_or(is_py_space))
}

fn is_clause_mark(c: char) -> bool {
    matches!(c, '\u{ff0c}' | '\u{3001}' | '\u{ff1b}' | '\u{ff1a}')
}

impl Prose<'_> {
    /// Pieces of `text[a..b]` (trimmed of whitespace, empty ones dropped): the first of at
    /// most `first`, the others of at most `rest` (a single character larger than that is
    /// a piece alone).
    #[cfg(test)] // the chunker asks for the seams too (`cut_why`)
    pub fn cut(&self, a: usize, b: usize, first: usize, rest: usize) -> Result<Pieces> {
        Ok(self.cut_why(a, b, first, rest)?.0)
    }

    /// [`Prose::cut`], and per piece the seam after it: the pieces of a range cut at a
    /// level get that level's seam, its last piece the range's own end (`None` for the
    /// span's).
    pub fn cut_why(&self, a: usize, b: usize, first: usize, rest: usize) -> Result<(Pieces, Whys)> {
        let mut out = (Vec::new(), Vec::new());
        let (a, b) = self.trim(a, b);
        if a < b {
            let top = if self.code {
                Level::Blank
            } else {
                Level::Sentence
            };
            self.level(a, b, (first.max(1), rest.max(1)), (top, None), &mut out)?;
        }
        Ok(out)
    }

    fn trim(&self, a: usize, b: usize) -> (usize, usize) {
        let piece = &self.text[a..b];
        let mut lead = piece.len() - piece.trim_start_matches(is_py_space).len();
        if self.code {
            // Back to the start of that line: code keeps its indentation.
            lead = memchr::memrchr(b'\n', &piece.as_bytes()[..lead]).map_or(0, |i| i + 1);
        }
        let end = a + piece.trim_end_matches(is_py_space).len();
        (a + lead, end.max(a + lead))
    }

    /// Cuts `[a, b)` at `level` (or finer) into `out`, its last piece marked `tail`.
    fn level(
        &self,
        a: usize,
        b: usize,
        caps: (usize, usize),
        (level, tail): (Level, Option<Level>),
        out: &mut (Pieces, Whys),
    ) -> Result<()> {
        let before = out.0.len();
        self.level_in(a, b, caps, level, out)?;
        if out.1.len() > before {
            if let Some(last) = out.1.last_mut() {
                *last = tail; // the range's last piece ends where the range does
            }
        }
        Ok(())
    }

    fn level_in(
        &self,
        a: usize,
        b: usize,
        caps: (usize, usize),
        level: Level,
        out: &mut (Pieces, Whys),
    ) -> Result<()> {
        let cap = if out.0.is_empty() { caps.0 } else { caps.1 };
        if (self.size)(a, b)? <= cap {
            out.0.push((a, b));
            out.1.push(Some(level));
            return Ok(());
        }
        if level == Level::Char {
            return self.chars(a, b, caps, out);
        }
        let atoms = self.atoms(a, b, level);
        if atoms.len() < 2 {
            return self.level_in(a, b, caps, level.next(), out);
        }
        let mut run: Vec<(usize, usize, usize)> = Vec::new();
        for (s, e) in atoms {
            let cap = if out.0.is_empty() && run.is_empty() {
                caps.0
            } else {
                caps.1
            };
            let n = (self.size)(s, e)?;
            if n <= cap {
                run.push((s, e, n));
                continue;
            }
            self.group(&run, caps, level, out)?;
            run.clear();
            self.level(s, e, caps, (level.next(), Some(level)), out)?;
        }
        self.group(&run, caps, level, out)
    }

    /// The atoms of `text[a..b]` between this level's seams, trimmed, none empty.
    fn atoms(&self, a: usize, b: usize, level: Level) -> Pieces {
        let mut seams = Vec::new();
        let span = &self.text[a..b];
        match level {
            Level::Sentence => seams = sentence_ends_in(self.text, a, b),
            Level::Blank => {
                let mut line = a;
                for i in memchr::memchr_iter(b'\n', span.as_bytes()) {
                    if line > a && span[line - a..i].chars().all(is_py_space) {
                        seams.push(a + i + 1);
                    }
                    line = a + i + 1;
                }
            }
            Level::Clause => {
                let mut chars = span.char_indices().peekable();
                while let Some((i, c)) = chars.next() {
                    let after = chars.peek().map(|&(_, n)| n);
                    let ascii = matches!(c, ',' | ';' | ':') && after.is_some_and(is_py_space);
                    if ascii || is_clause_mark(c) {
                        seams.push(a + i + c.len_utf8());
                    }
                }
            }
            Level::Top => {
                // The first line's indentation counted from its start (a block's span may
                // begin after it, as an RST literal block's does).
                let line = memchr::memrchr(b'\n', &self.text.as_bytes()[..a]).map_or(0, |i| i + 1);
                let base = indent(&self.text[line..b]).0;
                for i in memchr::memchr_iter(b'\n', span.as_bytes()) {
                    let line = &span[i + 1..];
                    let line =
                        &line[..memchr::memchr(b'\n', line.as_bytes()).unwrap_or(line.len())];
                    if !line.trim_matches(is_py_space).is_empty()
                        && indent(line).0 <= base
                        && !continues(line)
                    {
                        seams.push(a + i + 1);
                    }
                }
            }
            Level::Line => {
                seams.extend(memchr::memchr_iter(b'\n', span.as_bytes()).map(|i| a + i + 1));
            }
            Level::Word => {
                let mut prev_space = false;
                for (i, c) in span.char_indices() {
                    let space = is_py_space(c);
                    if prev_space && !space {
                        seams.push(a + i);
                    }
                    prev_space = space;
                }
            }
            Level::Char => {}
        }
        let mut out = Vec::with_capacity(seams.len() + 1);
        let mut from = a;
        for p in seams.into_iter().chain(std::iter::once(b)) {
            let (s, e) = self.trim(from, p.min(b));
            if s < e {
                out.push((s, e));
            }
            from = p.min(b);
        }
        out
    }

    /// Groups a run of atoms (each fits) into pieces, each as full as the budget allows:
    /// full pieces keep the most text together (a short last piece joins what follows it
    /// when packed, [`super::pack`]), which keeps more answers whole than pieces of even
    /// size (`docs/markdown.md`, "Cut selection").
    fn group(
        &self,
        run: &[(usize, usize, usize)],
        caps: (usize, usize),
        level: Level,
        out: &mut (Pieces, Whys),
    ) -> Result<()> {
        if !run.is_empty() {
            let first = if out.0.is_empty() { caps.0 } else { caps.1 };
            let groups = self.greedy(run, first, caps.1)?;
            out.1.extend(std::iter::repeat_n(Some(level), groups.len()));
            out.0.extend(groups);
        }
        Ok(())
    }

    /// Greedy groups of consecutive atoms: the first up to `first`, the others up to `cap`
    /// (an atom over the cap is a group alone).
    fn greedy(&self, run: &[(usize, usize, usize)], first: usize, cap: usize) -> Result<Pieces> {
        let mut groups = Vec::new();
        let mut cur = (run[0].0, run[0].1);
        for &(s, e, _) in &run[1..] {
            let limit = if groups.is_empty() { first } else { cap };
            if (self.size)(cur.0, e)? <= limit {
                cur.1 = e;
            } else {
                groups.push(cur);
                cur = (s, e);
            }
        }
        groups.push(cur);
        Ok(groups)
    }

    /// Character cuts of `text[a..b]`: each piece the longest prefix (at least one
    /// character) that fits an even share of what is left.
    #[allow(clippy::many_single_char_names)] // spans (a, b, s, e) and the index k
    fn chars(
        &self,
        a: usize,
        b: usize,
        caps: (usize, usize),
        (out, whys): &mut (Pieces, Whys),
    ) -> Result<()> {
        let bounds: Vec<usize> = self.text[a..b]
            .char_indices()
            .map(|(i, _)| a + i)
            .chain(std::iter::once(b))
            .collect();
        let mut k = 0; // index of the piece's start in `bounds`
        while k + 1 < bounds.len() {
            let cap = if out.is_empty() { caps.0 } else { caps.1 };
            let left = (self.size)(bounds[k], b)?;
            if left <= cap {
                out.push(self.trim(bounds[k], b));
                whys.push(Some(Level::Char));
                break;
            }
            let share = left.div_ceil(left.div_ceil(cap)).min(cap);
            // The largest end index whose prefix fits `share` (binary search, as the
            // reference does it, so both agree even where sizes are not monotone).
            let (mut lo, mut hi) = (k + 1, bounds.len() - 1);
            while lo < hi {
                let mid = (lo + hi).div_ceil(2);
                if (self.size)(bounds[k], bounds[mid])? <= share {
                    lo = mid;
                } else {
                    hi = mid - 1;
                }
            }
            let (s, e) = self.trim(bounds[k], bounds[lo]);
            if s < e {
                out.push((s, e));
                whys.push(Some(Level::Char));
            }
            k = lo;
            while k + 1 < bounds.len() && self.text[bounds[k]..].starts_with(is_py_space) {
                k += 1;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(text: &str, first: usize, rest: usize) -> Vec<&str> {
        let size = |a: usize, b: usize| Ok(text[a..b].chars().count());
        let prose = Prose {
            text,
            size: &size,
            code: false,
        };
        let pieces = prose.cut(0, text.len(), first, rest).unwrap();
        pieces.iter().map(|&(a, b)| &text[a..b]).collect()
    }

    #[test]
    fn sentences_first_then_full_pieces() {
        assert_eq!(cut("one. two. three.", 10, 10), ["one. two.", "three."]);
        let text = "Aa aa. Bb bb. Cc cc. Dd dd. Ee ee.";
        assert_eq!(cut(text, 28, 28), ["Aa aa. Bb bb. Cc cc. Dd dd.", "Ee ee."]);
        assert_eq!(cut("a, b, c; and d", 6, 6), ["a, b,", "c;", "and d"]);
    }

    #[test]
    fn code_cuts_after_blank_lines_and_keeps_indentation() {
        let text = "def a():\n    x = 1\n\ndef b():\n    y = 2\n    z = 3\n";
        let size = |a: usize, b: usize| Ok(text[a..b].chars().count());
        let prose = Prose {
            text,
            size: &size,
            code: true,
        };
        let got: Vec<&str> = prose
            .cut(0, text.len(), 40, 40)
            .unwrap()
            .iter()
            .map(|&(a, b)| &text[a..b])
            .collect();
        assert_eq!(
            got,
            ["def a():\n    x = 1", "def b():\n    y = 2\n    z = 3"]
        );
        let got: Vec<&str> = prose
            .cut(0, text.len(), 20, 20)
            .unwrap()
            .iter()
            .map(|&(a, b)| &text[a..b])
            .collect();
        assert_eq!(
            got,
            ["def a():\n    x = 1", "def b():\n    y = 2", "    z = 3"]
        );
    }

    #[test]
    fn doctest_continuations_are_not_statements() {
        let text = ">>> f(\n...     1,\n... )\n>>> g(\n...     2)\n";
        let size = |a: usize, b: usize| Ok(text[a..b].chars().count());
        let prose = Prose {
            text,
            size: &size,
            code: true,
        };
        let got: Vec<&str> = prose
            .cut(0, text.len(), 25, 25)
            .unwrap()
            .iter()
            .map(|&(a, b)| &text[a..b])
            .collect();
        assert_eq!(got, [">>> f(\n...     1,\n... )", ">>> g(\n...     2)"]);
        assert!(continues("    ...") && continues("... x") && !continues("...x"));
    }

    #[test]
    fn first_budget_words_and_characters() {
        assert_eq!(cut("alpha beta gamma", 5, 11), ["alpha", "beta gamma"]);
        assert_eq!(cut("abcdefghij", 4, 4), ["abcd", "efg", "hij"]);
        assert_eq!(
            cut("第一句话。第二句话！", 6, 6),
            ["第一句话。", "第二句话！"]
        );
        assert!(cut("  \n ", 3, 3).is_empty());
    }
}
