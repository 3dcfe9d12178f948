//! Scopes: the tree of definitions the pieces lie in, and the chain a chunk lies in.

/// One definition that encloses pieces; entry 0 is the file itself.
pub(crate) struct Scope {
    /// The enclosing definition (0 for top-level ones; itself for the file).
    pub parent: usize,
    /// Definitions above it (0 for the file).
    pub depth: usize,
    /// `"def parse"`, `"class Parser"`.
    pub label: String,
    /// Its signature: the text from its start to its body, trimmed.
    pub signature: String,
    /// Where its signature starts (bytes), to tell whether a chunk shows it.
    pub start: usize,
}

/// Every scope the walk opened, by index.
pub(crate) struct Scopes(pub Vec<Scope>);

impl Scopes {
    /// The file's scope alone.
    pub fn new() -> Self {
        Self(vec![Scope {
            parent: 0,
            depth: 0,
            label: String::new(),
            signature: String::new(),
            start: 0,
        }])
    }

    /// Opens a scope inside `parent`; returns its index.
    pub fn open(&mut self, parent: usize, label: String, signature: String, start: usize) -> usize {
        let depth = self.0[parent].depth + 1;
        self.0.push(Scope {
            parent,
            depth,
            label,
            signature,
            start,
        });
        self.0.len() - 1
    }

    /// The innermost scope holding both `a` and `b`.
    pub fn common(&self, mut a: usize, mut b: usize) -> usize {
        while self.0[a].depth > self.0[b].depth {
            a = self.0[a].parent;
        }
        while self.0[b].depth > self.0[a].depth {
            b = self.0[b].parent;
        }
        while a != b {
            a = self.0[a].parent;
            b = self.0[b].parent;
        }
        a
    }

    /// The chain of scopes from the outermost definition down to `scope` (the file left out).
    pub fn chain(&self, mut scope: usize) -> Vec<usize> {
        let mut chain = Vec::with_capacity(self.0[scope].depth);
        while scope != 0 {
            chain.push(scope);
            scope = self.0[scope].parent;
        }
        chain.reverse();
        chain
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn common_scope_is_the_deepest_shared_one() {
        let mut s = Scopes::new();
        let class = s.open(0, "class A".into(), "class A:".into(), 0);
        let f = s.open(class, "def f".into(), "def f():".into(), 10);
        let g = s.open(class, "def g".into(), "def g():".into(), 20);
        let h = s.open(0, "def h".into(), "def h():".into(), 30);
        assert_eq!(s.common(f, g), class);
        assert_eq!(s.common(f, f), f);
        assert_eq!(s.common(f, h), 0);
        assert_eq!(s.chain(g), vec![class, g]);
        assert!(s.chain(0).is_empty());
    }
}
