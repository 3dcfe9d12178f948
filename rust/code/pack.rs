//! Pieces packed greedily into chunks: a chunk runs from its first piece's start to the
//! last piece's end that still fits the size, so whole pieces are never cut.

use super::scope::Scopes;
use crate::error::Result;
use crate::length::Length;
use crate::text::{char_count, is_py_space};

/// A whole node, line or run of characters: `text[start..end]`, in scope `scope`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Piece {
    pub start: usize,
    pub end: usize,
    pub scope: usize,
    /// False for comments: a chunk's scope is the one its code lies in.
    pub code: bool,
    /// The first piece of a definition (or commented statement) too big for one chunk:
    /// it starts a chunk, so the definition's head is not packed onto what precedes it.
    pub fresh: bool,
    /// What the piece is whole of: what a chunk ending with it was cut after.
    pub kind: Kind,
}

/// What a piece is whole of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A definition (function, class, impl block, ...), with its comments.
    Definition,
    /// The first piece of a definition too big for one chunk (opened at its children).
    Head,
    /// Any other node that fits: a statement (or a part of one too big for a chunk), an
    /// import, a comment.
    Statement,
    /// A line of a node too big for one chunk with nothing to open (a string, an error).
    Line,
    /// The longest run of characters of a line too big for one chunk.
    Character,
}

/// Why a chunk ending with `last` ends there, `next` starting the next one: `character`
/// inside a line too long for a chunk, `definition` where one ends or starts (its head,
/// when it is opened); else at a line end `line` (after a line of a node cut by lines) or
/// `statement` (after a whole node), and mid-line `token` (between two nodes of a line).
fn cut_reason(text: &str, last: &Piece, next: Option<&Piece>) -> &'static str {
    let Some(next) = next else { return "end" };
    let rest = text[last.end..].split('\n').next().unwrap_or_default();
    let line_end = rest.chars().all(is_py_space);
    match (last.kind, next.kind) {
        (Kind::Character, Kind::Character) if next.start == last.end => "character",
        (Kind::Definition, _) | (_, Kind::Definition | Kind::Head) => "definition",
        _ if !line_end => "token",
        (Kind::Line | Kind::Character, _) => "line",
        _ => "statement",
    }
}

/// A chunk's byte range and the scope all its code lies in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Packed {
    pub start: usize,
    pub end: usize,
    pub scope: usize,
    /// Why it ends where it does ([`cut_reason`]).
    pub cut: &'static str,
}

/// Sizes of ranges of one text, by the user's length (code points when `None`).
#[derive(Clone, Copy)]
pub(crate) struct Measure<'a> {
    pub text: &'a str,
    pub length: Option<&'a dyn Length>,
    pub size: usize,
}

impl Measure<'_> {
    /// Whether `text[start..end]` is at most the size.
    pub fn fits(&self, start: usize, end: usize) -> Result<bool> {
        let s = &self.text[start..end];
        match self.length {
            // Code points are at most bytes: most ranges need no counting.
            None => Ok(s.len() <= self.size || char_count(s) <= self.size),
            Some(f) if s.len() <= self.size && f.within_bytes(s) => Ok(true),
            Some(f) => Ok(f.length_until(s, self.size)? <= self.size),
        }
    }

    /// The end of the longest run of characters from `a` (before `b`) that fits, at least
    /// one character: galloping, then bisecting, over the characters' boundaries.
    pub fn longest(&self, a: usize, b: usize) -> Result<usize> {
        let ends: Vec<usize> = self.text[a..b]
            .char_indices()
            .map(|(i, c)| a + i + c.len_utf8())
            .collect();
        let (mut lo, mut hi) = (0, self.size.max(1).min(ends.len()) - 1);
        while self.fits(a, ends[hi])? {
            lo = hi;
            if hi == ends.len() - 1 {
                return Ok(ends[hi]);
            }
            hi = (hi * 2 + 1).min(ends.len() - 1);
        }
        // ends[lo] is taken (it fits, or it is the first character); ends[hi] does not fit.
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if self.fits(a, ends[mid])? {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Ok(ends[lo])
    }
}

/// The chunks of `pieces`, in order.
pub(crate) fn pack(
    pieces: &[Piece],
    scopes: &Scopes,
    measure: &Measure<'_>,
) -> Result<Vec<Packed>> {
    let mut chunks = Vec::new();
    let mut i = 0;
    while i < pieces.len() {
        let start = pieces[i].start;
        let mut j = i;
        while j + 1 < pieces.len()
            && joins(&pieces[i..=j], pieces[j + 1], scopes)
            && measure.fits(start, pieces[j + 1].end)?
        {
            j += 1;
        }
        let run = &pieces[i..=j];
        let code: Vec<usize> = run.iter().filter(|p| p.code).map(|p| p.scope).collect();
        let scopes_of = if code.is_empty() {
            run.iter().map(|p| p.scope).collect()
        } else {
            code
        };
        let scope = scopes_of
            .iter()
            .skip(1)
            .fold(scopes_of[0], |a, &b| scopes.common(a, b));
        chunks.push(Packed {
            start,
            end: pieces[j].end,
            scope,
            cut: cut_reason(measure.text, &pieces[j], pieces.get(j + 1)),
        });
        i = j + 1;
    }
    Ok(chunks)
}

/// Whether `next` may join `run`: any piece but a fresh one, which only joins a run that
/// began fresh itself and holds nothing but heads of the scopes `next` lies in (a class's
/// `class Parser:` line and the head of its oversize method, together).
fn joins(run: &[Piece], next: Piece, scopes: &Scopes) -> bool {
    !next.fresh
        || (run[0].fresh
            && run
                .iter()
                .all(|p| scopes.common(p.scope, next.scope) == p.scope && p.scope != next.scope))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measure(text: &str, size: usize) -> Measure<'_> {
        Measure {
            text,
            length: None,
            size,
        }
    }

    #[test]
    fn longest_takes_the_most_characters_that_fit() {
        let text = "aé中𝄞bcdefgh";
        for size in 1..=12 {
            let end = measure(text, size).longest(0, text.len()).unwrap();
            assert_eq!(
                text[..end].chars().count(),
                size.min(text.chars().count()),
                "{size}"
            );
        }
    }

    #[test]
    fn pieces_pack_up_to_the_size() {
        let text = "aaa bbb ccc";
        let p = |start, end| Piece {
            start,
            end,
            scope: 0,
            code: true,
            fresh: false,
            kind: Kind::Statement,
        };
        let pieces = [p(0, 3), p(4, 7), p(8, 11)];
        let got = pack(&pieces, &Scopes::new(), &measure(text, 7)).unwrap();
        assert_eq!(
            got,
            vec![
                Packed {
                    start: 0,
                    end: 7,
                    scope: 0,
                    cut: "token" // mid-line, between two nodes
                },
                Packed {
                    start: 8,
                    end: 11,
                    scope: 0,
                    cut: "end"
                }
            ]
        );
    }
}
