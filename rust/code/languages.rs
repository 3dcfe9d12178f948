//! The table of languages: a grammar, the node kinds that are definitions (each with the
//! keyword its scope label starts with), and the kinds that are comments. A language is
//! one row here and one grammar crate in `Cargo.toml`.

use tree_sitter::Language;

/// What the chunker needs to know of one language's grammar.
pub(crate) struct Grammar {
    /// The name `CodeChunker(language=...)` takes, then its aliases.
    pub names: &'static [&'static str],
    /// The tree-sitter grammar.
    pub language: fn() -> Language,
    /// `(node kind, label keyword)`: the nodes that open a scope (`"def parse"`).
    pub definitions: &'static [(&'static str, &'static str)],
    /// Kinds whose node only wraps a definition (Python's decorators): the wrapper is the
    /// definition, labelled by the definition inside it, which opens no scope of its own.
    pub wrappers: &'static [&'static str],
    /// Comment kinds: attached to the definition or statement on the next line.
    pub comments: &'static [&'static str],
}

fn python() -> Language {
    tree_sitter_python::LANGUAGE.into()
}

/// Every supported language, one row each.
static GRAMMARS: &[Grammar] = &[Grammar {
    names: &["python", "py"],
    language: python,
    definitions: &[
        ("function_definition", "def"),
        ("class_definition", "class"),
        ("decorated_definition", ""),
    ],
    wrappers: &["decorated_definition"],
    comments: &["comment"],
}];

/// The grammar called `name` (or one of its aliases), case-insensitive.
pub(crate) fn grammar(name: &str) -> Option<&'static Grammar> {
    let name = name.to_ascii_lowercase();
    GRAMMARS.iter().find(|g| g.names.contains(&name.as_str()))
}

/// The main name of every supported language, in table order.
pub fn names() -> Vec<&'static str> {
    GRAMMARS.iter().map(|g| g.names[0]).collect()
}

impl Grammar {
    /// The label keyword of a definition kind, if `kind` is one.
    pub fn keyword(&self, kind: &str) -> Option<&'static str> {
        self.definitions
            .iter()
            .find(|(k, _)| *k == kind)
            .map(|(_, w)| *w)
    }

    /// Whether `kind` is a comment.
    pub fn is_comment(&self, kind: &str) -> bool {
        self.comments.contains(&kind)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_grammar_loads_and_its_kinds_exist() {
        for g in GRAMMARS {
            let language = (g.language)();
            for (kind, _) in g.definitions {
                assert_ne!(
                    language.id_for_node_kind(kind, true),
                    0,
                    "{}: {kind}",
                    g.names[0]
                );
            }
            for kind in g.comments {
                assert_ne!(
                    language.id_for_node_kind(kind, true),
                    0,
                    "{}: {kind}",
                    g.names[0]
                );
            }
        }
    }

    #[test]
    fn names_are_case_insensitive() {
        assert!(grammar("Python").is_some());
        assert!(grammar("py").is_some());
        assert!(grammar("cobol").is_none());
    }
}
