//! What the reStructuredText, AsciiDoc and plain-text scanners share: a region of lines
//! (sub-slices of the source with their byte starts, so a nested body can be read with its
//! indentation or list marker cut off and still give exact spans), and the emitter that
//! turns line ranges into [`Block`]s, containers and their parts included.
//! Mirrored by `python/ferrochunk/reference/structure/lines.py`.

use crate::block::{indent, is_blank, split_lines, Block, Kind};
use crate::text::is_py_space;

/// Lines of the source (or of a nested body), each a sub-slice with its byte start.
pub struct Region<'a> {
    /// The lines, without line breaks (and without the columns a body is dedented by).
    pub lines: Vec<&'a str>,
    /// The byte offset of each line's first byte in the source.
    pub starts: Vec<usize>,
}

impl<'a> Region<'a> {
    /// All the lines of `text`.
    pub fn of(text: &'a str) -> Self {
        let (lines, starts) = split_lines(text);
        Self { lines, starts }
    }

    /// How many lines.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether line `i` is blank (spaces and tabs only); past the end counts as blank.
    pub fn blank(&self, i: usize) -> bool {
        i >= self.lines.len() || is_blank(self.lines[i])
    }

    /// Columns of indentation of line `i`.
    pub fn cols(&self, i: usize) -> usize {
        indent(self.lines[i]).0
    }

    /// Lines `first..=last`, each without its first `cols` columns of indentation (all of
    /// it when it has less), line `first` also without its first `skip` bytes (a marker).
    pub fn body(&self, first: usize, last: usize, cols: usize, skip: usize) -> Region<'a> {
        let mut out = Region {
            lines: Vec::with_capacity(last + 1 - first),
            starts: Vec::with_capacity(last + 1 - first),
        };
        for i in first..=last {
            let s = self.lines[i];
            let cut = if i == first && skip > 0 {
                skip
            } else {
                dedent_bytes(s, cols)
            };
            out.lines.push(&s[cut..]);
            out.starts.push(self.starts[i] + cut);
        }
        out
    }
}

/// Bytes of leading whitespace that make up `cols` columns (tabs to stops of 4), or all of
/// it when there is less.
fn dedent_bytes(s: &str, cols: usize) -> usize {
    let (mut col, mut n) = (0, 0);
    for b in s.bytes() {
        if col >= cols || !matches!(b, b' ' | b'\t') {
            break;
        }
        col += if b == b'\t' { 4 - col % 4 } else { 1 };
        n += 1;
    }
    n
}

/// The blocks found so far, in order (a container before its parts).
#[derive(Default)]
pub struct Out {
    /// The blocks.
    pub blocks: Vec<Block>,
}

impl Out {
    /// Adds lines `first..=last` of `r` as a block: from the first non-blank character to
    /// the end of the last non-blank line. Returns its index (`None` if all blank).
    pub fn add(
        &mut self,
        r: &Region,
        kind: Kind,
        (first, last): (usize, usize),
        level: usize,
        title: String,
    ) -> Option<usize> {
        let (mut first, mut last) = (first, last.min(r.len() - 1));
        while first < last && r.blank(first) {
            first += 1;
        }
        while last > first && r.blank(last) {
            last -= 1;
        }
        let start = r.starts[first] + indent(r.lines[first]).1;
        let end = r.starts[last] + r.lines[last].trim_end_matches(is_py_space).len();
        if end <= start {
            return None;
        }
        self.blocks.push(Block {
            kind,
            start,
            end,
            level,
            title,
            parts: 0,
            head: 0,
        });
        Some(self.blocks.len() - 1)
    }

    /// A block of `kind` over lines `first..=last`, no level or title.
    pub fn plain(&mut self, r: &Region, kind: Kind, first: usize, last: usize) -> Option<usize> {
        self.add(r, kind, (first, last), 0, String::new())
    }

    /// Closes the container at index `k` (added before its parts): every block added since
    /// is a part of it. The first part is made to start where the container does and the
    /// last to end where it does, so the parts cover its text (a list marker before the
    /// first, a closing delimiter after the last). With one part or none, the container
    /// goes and that part (stretched) stands for it.
    pub fn close(&mut self, k: usize) {
        let parts = self.blocks.len() - k - 1;
        let (start, end) = (self.blocks[k].start, self.blocks[k].end);
        if parts == 0 {
            return;
        }
        let mut j = k + 1;
        loop {
            self.blocks[j].start = start;
            if self.blocks[j].parts == 0 {
                break;
            }
            j += 1;
        }
        let last = self.blocks.len() - 1;
        for j in k + 1..=last {
            if j + self.blocks[j].parts == last {
                self.blocks[j].end = end;
            }
        }
        if parts == 1 {
            self.blocks.remove(k);
        } else {
            self.blocks[k].parts = parts;
        }
    }
}

/// Whether `s` (trimmed of trailing spaces) is one punctuation character repeated: an
/// `RST` adornment, or a plain-text underline. Returns the character and the run length.
pub fn adornment(s: &str) -> Option<(u8, usize)> {
    let t = s.trim_end_matches([' ', '\t']);
    let first = *t.as_bytes().first()?;
    let ok = first.is_ascii_punctuation() && t.bytes().all(|b| b == first);
    ok.then_some((first, t.len()))
}

/// Whether line `s` is a grid-table border: `+` then runs of `-` or `=` separated by `+`,
/// ending with `+`.
pub fn grid_border(s: &str) -> bool {
    let t = s.trim_end_matches([' ', '\t']).as_bytes();
    t.len() >= 3
        && t[0] == b'+'
        && t[t.len() - 1] == b'+'
        && matches!(t[1], b'-' | b'=')
        && t.iter().all(|&b| matches!(b, b'+' | b'-' | b'=' | b':'))
}

/// Lines `i..` of a grid table starting at a border on line `i`: the last line of the table
/// (every line starts with `+` or `|`) and the header's last line (its `+===+` border).
pub fn grid_table(r: &Region, i: usize) -> (usize, Option<usize>) {
    let mut j = i;
    let mut head = None;
    while j + 1 < r.len() {
        let next = r.lines[j + 1].trim_start_matches([' ', '\t']);
        if !(next.starts_with('+') || next.starts_with('|')) {
            break;
        }
        j += 1;
        if head.is_none() && grid_border(next) && next.as_bytes()[1] == b'=' {
            head = Some(j);
        }
    }
    // A table ends on a border: drop trailing lines that are not one.
    while j > i && !grid_border(r.lines[j].trim_start_matches([' ', '\t'])) {
        j -= 1;
    }
    (j, head.filter(|&h| h < j))
}

/// Adds a table over lines `first..=last` whose header ends on line `head`.
pub fn table(out: &mut Out, r: &Region, first: usize, last: usize, head: Option<usize>) {
    if let Some(k) = out.plain(r, Kind::Table, first, last) {
        if let Some(h) = head {
            out.blocks[k].head = r.starts[h] + r.lines[h].trim_end_matches(is_py_space).len();
        }
    }
}

/// `(columns of the text after the marker, marker bytes)` of a bullet (`-`, `*`, `+`, `•`,
/// `‣`, `⁃`) or enumerator (`1.`, `1)`, `(1)`, `a.`, `#.`, `iv.`) followed by a space,
/// at the start of `s` (no indentation).
pub fn list_marker(s: &str) -> Option<(usize, usize)> {
    let mut marker = 0;
    for bullet in ["-", "*", "+", "\u{2022}", "\u{2023}", "\u{2043}"] {
        if s.starts_with(bullet) {
            marker = bullet.len();
        }
    }
    if marker == 0 {
        marker = enumerator(s)?;
    }
    let rest = &s[marker..];
    if !rest.starts_with([' ', '\t']) || is_blank(rest) {
        return None;
    }
    let pad = indent(rest);
    let chars = s[..marker].chars().count();
    Some((chars + pad.0, marker + pad.1))
}

/// Bytes of an enumerator: `1.` `1)` `(1)` with digits, one letter, `#` or roman numerals.
fn enumerator(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let open = usize::from(b.first() == Some(&b'('));
    let body = b[open..]
        .iter()
        .take_while(|c| c.is_ascii_alphanumeric() || **c == b'#')
        .count();
    let word = &s[open..open + body];
    let ok = match body {
        0 => false,
        1 => true,
        _ => {
            word.bytes().all(|c| c.is_ascii_digit())
                || word.bytes().all(|c| b"ivxlcdm".contains(&c))
                || word.bytes().all(|c| b"IVXLCDM".contains(&c))
        }
    };
    if !ok || (body > 1 && (word.len() > 9 || word.contains('#'))) {
        return None;
    }
    let close = *b.get(open + body)?;
    let fits = if open == 1 {
        close == b')'
    } else {
        close == b'.' || close == b')'
    };
    fits.then_some(open + body + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markers_and_adornments() {
        assert_eq!(list_marker("- item"), Some((2, 2)));
        assert_eq!(list_marker("(12) item"), Some((5, 5)));
        assert_eq!(list_marker("iv. item"), Some((4, 4)));
        assert_eq!(list_marker("\u{2022} dot"), Some((2, 4)));
        assert_eq!(list_marker("-x"), None);
        assert_eq!(list_marker("ab. no"), None);
        assert_eq!(list_marker("- "), None);
        assert_eq!(adornment("=== "), Some((b'=', 3)));
        assert_eq!(adornment("=-="), None);
        assert!(grid_border("+---+===+"));
        assert!(!grid_border("+ a +"));
    }

    #[test]
    fn body_cuts_columns_and_markers() {
        let text = "- one\n  two\n\n  three\n";
        let r = Region::of(text);
        let b = r.body(0, 3, 2, 2);
        assert_eq!(b.lines, ["one", "two", "", "three"]);
        assert_eq!(&text[b.starts[3]..], "three\n");
    }
}
