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

/// Every supported language, one row each.
static GRAMMARS: &[Grammar] = &[
    Grammar {
        names: &["python", "py"],
        language: || tree_sitter_python::LANGUAGE.into(),
        definitions: &[
            ("function_definition", "def"),
            ("class_definition", "class"),
            ("decorated_definition", ""),
        ],
        wrappers: &["decorated_definition"],
        comments: &["comment"],
    },
    Grammar {
        names: &["javascript", "js", "jsx"],
        language: || tree_sitter_javascript::LANGUAGE.into(),
        definitions: JS_DEFINITIONS,
        wrappers: &["export_statement"],
        comments: &["comment"],
    },
    Grammar {
        names: &["typescript", "ts"],
        language: || tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        definitions: TS_DEFINITIONS,
        wrappers: &["export_statement"],
        comments: &["comment"],
    },
    Grammar {
        names: &["tsx"],
        language: || tree_sitter_typescript::LANGUAGE_TSX.into(),
        definitions: TS_DEFINITIONS,
        wrappers: &["export_statement"],
        comments: &["comment"],
    },
    Grammar {
        names: &["rust", "rs"],
        language: || tree_sitter_rust::LANGUAGE.into(),
        definitions: &[
            ("function_item", "fn"),
            ("impl_item", "impl"),
            ("trait_item", "trait"),
            ("struct_item", "struct"),
            ("enum_item", "enum"),
            ("mod_item", "mod"),
            ("macro_definition", "macro_rules!"),
        ],
        wrappers: &[],
        // Attributes (`#[derive(...)]`) attach to the item below them as comments do.
        comments: &["line_comment", "block_comment", "attribute_item"],
    },
    Grammar {
        names: &["go"],
        language: || tree_sitter_go::LANGUAGE.into(),
        definitions: &[
            ("function_declaration", "func"),
            ("method_declaration", "func"),
            ("type_declaration", "type"),
        ],
        wrappers: &[],
        comments: &["comment"],
    },
    Grammar {
        names: &["java"],
        language: || tree_sitter_java::LANGUAGE.into(),
        definitions: &[
            ("class_declaration", "class"),
            ("interface_declaration", "interface"),
            ("enum_declaration", "enum"),
            ("record_declaration", "record"),
            ("method_declaration", ""),
            ("constructor_declaration", ""),
        ],
        wrappers: &[],
        comments: &["line_comment", "block_comment"],
    },
    Grammar {
        names: &["c", "h"],
        language: || tree_sitter_c::LANGUAGE.into(),
        definitions: &[
            ("function_definition", ""),
            ("struct_specifier", "struct"),
            ("union_specifier", "union"),
            ("enum_specifier", "enum"),
        ],
        wrappers: &[],
        comments: &["comment"],
    },
    Grammar {
        names: &["cpp", "c++", "cc", "cxx", "hpp"],
        language: || tree_sitter_cpp::LANGUAGE.into(),
        definitions: &[
            ("function_definition", ""),
            ("class_specifier", "class"),
            ("struct_specifier", "struct"),
            ("union_specifier", "union"),
            ("enum_specifier", "enum"),
            ("namespace_definition", "namespace"),
            ("template_declaration", ""),
        ],
        wrappers: &["template_declaration"],
        comments: &["comment"],
    },
];

/// JavaScript's definitions (TypeScript's start with them).
const JS_DEFINITIONS: &[(&str, &str)] = &[
    ("function_declaration", "function"),
    ("generator_function_declaration", "function*"),
    ("class_declaration", "class"),
    ("method_definition", ""),
    ("export_statement", ""),
];

/// TypeScript's (and TSX's) definitions.
const TS_DEFINITIONS: &[(&str, &str)] = &[
    ("function_declaration", "function"),
    ("generator_function_declaration", "function*"),
    ("class_declaration", "class"),
    ("abstract_class_declaration", "class"),
    ("method_definition", ""),
    ("interface_declaration", "interface"),
    ("enum_declaration", "enum"),
    ("internal_module", "namespace"),
    ("export_statement", ""),
];

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
