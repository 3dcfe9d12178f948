//! The syntax tree as a flat run of pieces, in text order: a node that fits is one piece;
//! one that does not is opened into its children (comments joined to what they precede),
//! and one without children to open (a leaf, or a syntax error) is cut into lines, then
//! characters. Whitespace between pieces is left out, anything else is kept.

use tree_sitter::Node;

use super::languages::Grammar;
use super::pack::{Kind, Measure, Piece};
use super::scope::Scopes;
use crate::error::Result;
use crate::text::is_py_space;

/// Work left to do, kept on a stack so that deep trees cannot overflow the call stack.
enum Work<'t> {
    /// A node whose piece starts at `start` (its line's start, when only blanks precede it);
    /// `head`: if it is a definition opened, its first piece starts a chunk (not so for one
    /// with comments above it: the comments' first piece does).
    Node {
        node: Node<'t>,
        start: usize,
        scope: usize,
        head: bool,
    },
    /// Comments and the sibling they precede, kept together when they fit.
    Group {
        nodes: Vec<Node<'t>>,
        start: usize,
        scope: usize,
    },
    /// Text cut into lines, then characters (leaves and syntax errors that do not fit).
    Lines {
        start: usize,
        end: usize,
        scope: usize,
        code: bool,
    },
}

/// Walks one tree; `pieces` and `scopes` are its result.
pub(crate) struct Walk<'a> {
    pub text: &'a str,
    pub grammar: &'static Grammar,
    pub measure: Measure<'a>,
    pub scopes: Scopes,
    pub pieces: Vec<Piece>,
    /// Whether the next piece starts a chunk (see [`Piece::fresh`]).
    pub fresh: bool,
    /// Whether the next piece is the head of a definition just opened ([`Kind::Head`]).
    pub head: bool,
}

fn blank(s: &str) -> bool {
    s.chars().all(is_py_space)
}

impl Walk<'_> {
    /// The pieces of the whole text, whose tree is rooted at `root`.
    pub fn run(&mut self, root: Node<'_>) -> Result<()> {
        let start = self.piece_start(0, root.start_byte());
        let mut stack = Vec::new();
        if root.end_byte() < self.text.len() {
            let end = self.text.len();
            stack.push(Work::Lines {
                start: root.end_byte(),
                end,
                scope: 0,
                code: true,
            });
        }
        stack.push(Work::Node {
            node: root,
            start,
            scope: 0,
            head: false,
        });
        while let Some(work) = stack.pop() {
            match work {
                Work::Node {
                    node,
                    start,
                    scope,
                    head,
                } => self.node(node, start, (scope, head), &mut stack)?,
                Work::Group {
                    nodes,
                    start,
                    scope,
                } => self.group(nodes, start, scope, &mut stack)?,
                Work::Lines {
                    start,
                    end,
                    scope,
                    code,
                } => self.lines(start, end, scope, code)?,
            }
        }
        Ok(())
    }

    fn node<'t>(
        &mut self,
        node: Node<'t>,
        start: usize,
        (scope, head): (usize, bool),
        stack: &mut Vec<Work<'t>>,
    ) -> Result<()> {
        let own = self.open(node, scope);
        let (end, code) = (node.end_byte(), !self.grammar.is_comment(node.kind()));
        let lead = code_end(self.grammar, node);
        let kind = whole(own, scope);
        if self.measure.fits(start, end)? {
            self.push(start, end, (own, code), kind);
        } else if lead < end && self.measure.fits(start, lead)? {
            // Comments a grammar puts at the end of a block (Python's, before a dedent)
            // belong to what follows: the node without them is whole, they go by lines.
            self.push(start, lead, (own, code), kind);
            self.lines(lead, end, own, false)?;
        } else if node.is_error() || node.child_count() == 0 {
            self.lines(start, end, own, code)?;
        } else {
            self.fresh |= head && (own != scope || g_wraps(self.grammar, node));
            self.head |= own != scope;
            let work = self.children(node, start, own);
            stack.extend(work.into_iter().rev());
        }
        Ok(())
    }

    fn group<'t>(
        &mut self,
        nodes: Vec<Node<'t>>,
        start: usize,
        scope: usize,
        stack: &mut Vec<Work<'t>>,
    ) -> Result<()> {
        let last = nodes[nodes.len() - 1];
        if self.measure.fits(start, last.end_byte())? {
            let own = self.open(last, scope);
            let code = nodes.iter().any(|n| !self.grammar.is_comment(n.kind()));
            self.push(start, last.end_byte(), (own, code), whole(own, scope));
            return Ok(());
        }
        self.fresh = true;
        let mut prev = start;
        let mut work = Vec::with_capacity(nodes.len());
        for (i, node) in nodes.into_iter().enumerate() {
            let at = if i == 0 {
                start
            } else {
                self.piece_start(prev, node.start_byte())
            };
            work.push(Work::Node {
                node,
                start: at,
                scope,
                head: false,
            });
            prev = node.end_byte();
        }
        stack.extend(work.into_iter().rev());
        Ok(())
    }

    /// The work of an opened node: its children, comments grouped with what follows them.
    fn children<'t>(&self, node: Node<'t>, start: usize, scope: usize) -> Vec<Work<'t>> {
        let mut cursor = node.walk();
        let kids: Vec<Node<'t>> = node.children(&mut cursor).collect();
        let mut work = Vec::with_capacity(kids.len());
        let (mut prev, mut i) = (start, 0);
        while i < kids.len() {
            let at = if i == 0 {
                start
            } else {
                self.piece_start(prev, kids[i].start_byte())
            };
            let mut j = i;
            while j + 1 < kids.len() && self.attached(kids[j], kids[j + 1]) {
                j += 1;
            }
            if j > i {
                work.push(Work::Group {
                    nodes: kids[i..=j].to_vec(),
                    start: at,
                    scope,
                });
            } else {
                work.push(Work::Node {
                    node: kids[i],
                    start: at,
                    scope,
                    head: true,
                });
            }
            prev = kids[j].end_byte();
            i = j + 1;
        }
        if prev < node.end_byte() {
            work.push(Work::Lines {
                start: prev,
                end: node.end_byte(),
                scope,
                code: true,
            });
        }
        work
    }

    /// Whether `comment` is a comment on lines of its own, with `next` on the line after.
    fn attached(&self, comment: Node<'_>, next: Node<'_>) -> bool {
        if !self.grammar.is_comment(comment.kind()) {
            return false;
        }
        let at = comment.start_byte();
        let between = &self.text[comment.end_byte()..next.start_byte()];
        blank(&self.text[line_start(self.text, at)..at])
            && blank(between)
            && between.bytes().filter(|&b| b == b'\n').count() <= 1
    }

    /// Where the piece of a node starting at `at` starts, after a piece ending at `prev`:
    /// the start of its line if only whitespace lies between, else right after `prev`.
    fn piece_start(&self, prev: usize, at: usize) -> usize {
        if blank(&self.text[prev..at]) {
            line_start(self.text, at).max(prev)
        } else {
            prev
        }
    }

    /// The scope a node's pieces lie in: its own if it is a definition, else `scope`.
    fn open(&mut self, node: Node<'_>, scope: usize) -> usize {
        let g = self.grammar;
        let Some(keyword) = g.keyword(node.kind()) else {
            return scope;
        };
        if node
            .parent()
            .is_some_and(|p| g.wrappers.contains(&p.kind()))
        {
            return scope; // the definition inside a wrapper: the wrapper opened it
        }
        let inner = if g.wrappers.contains(&node.kind()) {
            match wrapped(g, node) {
                Some(inner) => inner,
                None => return scope, // `export { a }`: wraps no definition
            }
        } else {
            node
        };
        let keyword = if g.wrappers.contains(&node.kind()) {
            g.keyword(inner.kind()).unwrap_or(keyword)
        } else {
            keyword
        };
        let name = name_of(inner).map_or("", |n| &self.text[n.byte_range()]);
        let label = [keyword, name]
            .iter()
            .filter(|s| !s.is_empty())
            .copied()
            .collect::<Vec<_>>()
            .join(" ");
        let sig_end = inner.child_by_field_name("body").map_or_else(
            || {
                self.text[inner.start_byte()..]
                    .find('\n')
                    .map_or(inner.end_byte(), |i| inner.start_byte() + i)
            },
            |b| b.start_byte(),
        );
        let signature = self.text[inner.start_byte()..sig_end.max(inner.start_byte())]
            .trim_end_matches(is_py_space);
        self.scopes
            .open(scope, label, signature.to_string(), inner.start_byte())
    }

    fn lines(&mut self, start: usize, end: usize, scope: usize, code: bool) -> Result<()> {
        let mut a = start;
        while a < end {
            let b = self.text[a..end].find('\n').map_or(end, |i| a + i);
            let stop = if b > a && self.text.as_bytes()[b - 1] == b'\r' {
                b - 1
            } else {
                b
            };
            if !blank(&self.text[a..stop]) {
                if self.measure.fits(a, stop)? {
                    self.push(a, stop, (scope, code), Kind::Line);
                } else {
                    self.chars(a, stop, scope, code)?;
                }
            }
            a = b + 1;
        }
        Ok(())
    }

    /// Cuts `[a, b)` into the longest runs of characters that fit (at least one each).
    fn chars(&mut self, mut a: usize, b: usize, scope: usize, code: bool) -> Result<()> {
        while a < b {
            let cut = self.measure.longest(a, b)?;
            self.push(a, cut, (scope, code), Kind::Character);
            a = cut;
        }
        Ok(())
    }

    /// Adds the piece `[start, end)` without its blank lines at either end (none if blank).
    fn push(&mut self, start: usize, end: usize, (scope, code): (usize, bool), kind: Kind) {
        let piece = &self.text[start..end];
        let end = start + piece.trim_end_matches(is_py_space).len();
        let first = end - piece[..end - start].trim_start_matches(is_py_space).len();
        let start = line_start(self.text, first).max(start);
        if end > start {
            let fresh = std::mem::take(&mut self.fresh);
            let kind = if std::mem::take(&mut self.head) {
                Kind::Head
            } else {
                kind
            };
            self.pieces.push(Piece {
                start,
                end,
                scope,
                code,
                fresh,
                kind,
            });
        }
    }
}

/// What a whole node in `scope` is: a definition if it opened a scope of its own (`own`).
fn whole(own: usize, scope: usize) -> Kind {
    if own == scope {
        Kind::Statement
    } else {
        Kind::Definition
    }
}

/// Whether `node` is a wrapper (whose definition inside opens no scope of its own).
fn g_wraps(g: &Grammar, node: Node<'_>) -> bool {
    g.wrappers.contains(&node.kind())
}

/// The start of the line holding byte `at`.
fn line_start(text: &str, at: usize) -> usize {
    text[..at].rfind('\n').map_or(0, |i| i + 1)
}

/// Where `node` ends without the comments that close it (at any depth of last children).
fn code_end(g: &Grammar, node: Node<'_>) -> usize {
    if node.child_count() == 0 {
        return node.end_byte();
    }
    let mut at = node;
    loop {
        let count = at.child_count();
        let Some(last) = (0..count)
            .rev()
            .filter_map(|i| at.child(i))
            .find(|c| !g.is_comment(c.kind()))
        else {
            return at.start_byte().max(node.start_byte());
        };
        if last.end_byte() < at.end_byte() || last.child_count() == 0 {
            return last.end_byte();
        }
        at = last;
    }
}

/// The definition inside a wrapper: its `definition` field, else its last named child
/// that is a definition; none if it wraps none.
fn wrapped<'t>(g: &Grammar, node: Node<'t>) -> Option<Node<'t>> {
    node.child_by_field_name("definition").or_else(|| {
        let mut cursor = node.walk();
        let kids: Vec<Node<'t>> = node.named_children(&mut cursor).collect();
        kids.into_iter()
            .rev()
            .find(|k| g.keyword(k.kind()).is_some())
    })
}

/// The node naming a definition: its `name` field, else the innermost of its `declarator`
/// fields (C's `int *f(void)`), else its `type` (Rust's `impl Parser`), else the name of
/// its first named child (Go's `type_spec`), else none.
fn name_of(node: Node<'_>) -> Option<Node<'_>> {
    if let Some(name) = node.child_by_field_name("name") {
        return Some(name);
    }
    if let Some(mut at) = node.child_by_field_name("declarator") {
        while let Some(inner) = at.child_by_field_name("declarator") {
            at = inner;
        }
        return Some(at);
    }
    if let Some(kind) = node.child_by_field_name("type") {
        return Some(kind);
    }
    node.named_child(0)
        .and_then(|c| c.child_by_field_name("name"))
}
