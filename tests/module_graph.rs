//! The top-level modules of `src/` depend on each other one way only: a test that fails on any
//! import circle, naming it. A module depends on another when its code (not its comments, not
//! its unit tests) names `crate::<other>`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

type Graph = BTreeMap<String, BTreeSet<String>>;

/// Every `.rs` file under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A file's code as the graphs read it: unit tests (which may reach anywhere) and comment lines
/// left out.
fn code_of(text: &str) -> String {
    let code = text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text);
    code.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The first segment of each path `code` reaches through `prefix` (`crate::`, `super::`, …):
/// `prefix name…`, and each item of a group, `prefix{a, b::{c, d}, e}` (over several lines, as
/// rustfmt writes long ones) at its top level.
fn names_after(code: &str, prefix: &str) -> BTreeSet<String> {
    let word = |text: &str| -> String {
        text.trim_start()
            .chars()
            .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
            .collect()
    };
    let mut named = BTreeSet::new();
    let mut rest = code;
    while let Some(at) = rest.find(prefix) {
        let after = &rest[at + prefix.len()..];
        // Not the tail of a longer path or name (`pi_ask_crate::`, `super::super::`).
        let standalone = rest[..at]
            .chars()
            .last()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == ':'));
        if standalone {
            match after.strip_prefix('{') {
                Some(group) => named.extend(group_items(group).into_iter().map(word)),
                None => {
                    named.insert(word(after));
                }
            }
        }
        rest = after;
    }
    named.retain(|n| !n.is_empty());
    named
}

/// The top-level items of a `{…}` group, given the text after its `{`.
fn group_items(group: &str) -> Vec<&str> {
    let (mut items, mut depth, mut start) = (Vec::new(), 0usize, 0);
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' if depth == 0 => {
                items.push(&group[start..i]);
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&group[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items
}

/// The modules a file's code names as `crate::<module>`.
fn named_modules(code: &str) -> BTreeSet<String> {
    names_after(&code_of(code), "crate::")
}

fn module_graph() -> Graph {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut graph = Graph::new();
    for file in files {
        let relative = file.strip_prefix(&src).expect("under src");
        let first = relative
            .components()
            .next()
            .expect("a path")
            .as_os_str()
            .to_string_lossy();
        let module = first.trim_end_matches(".rs").to_owned();
        if module == "lib" || module == "main" {
            continue;
        }
        let code = std::fs::read_to_string(&file).expect("a readable source file");
        let deps = graph.entry(module.clone()).or_default();
        deps.extend(
            named_modules(&code)
                .into_iter()
                .filter(|dep| *dep != module),
        );
    }
    graph
}

/// A circle through the graph, as the modules along it, if there is one.
fn find_circle(graph: &Graph) -> Option<Vec<String>> {
    #[derive(Clone, Copy, PartialEq)]
    enum Mark {
        Open,
        Done,
    }
    fn visit(
        node: &str,
        graph: &Graph,
        marks: &mut BTreeMap<String, Mark>,
        path: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        match marks.get(node) {
            Some(Mark::Done) => return None,
            Some(Mark::Open) => {
                let start = path.iter().position(|n| n == node).unwrap_or(0);
                let mut circle = path[start..].to_vec();
                circle.push(node.to_owned());
                return Some(circle);
            }
            None => {}
        }
        marks.insert(node.to_owned(), Mark::Open);
        path.push(node.to_owned());
        for dep in graph.get(node).into_iter().flatten() {
            if let Some(circle) = visit(dep, graph, marks, path) {
                return Some(circle);
            }
        }
        path.pop();
        marks.insert(node.to_owned(), Mark::Done);
        None
    }
    let mut marks = BTreeMap::new();
    for node in graph.keys() {
        if let Some(circle) = visit(node, graph, &mut marks, &mut Vec::new()) {
            return Some(circle);
        }
    }
    None
}

#[test]
fn the_top_level_modules_import_each_other_one_way_only() {
    let graph = module_graph();
    assert!(graph.contains_key("model") && graph.contains_key("result"));
    assert!(graph["model"].contains("result"), "the scan sees imports");
    if let Some(circle) = find_circle(&graph) {
        panic!("an import circle: {}", circle.join(" -> "));
    }
}

/// The files a file's code names among its siblings: `super::<name>` and
/// `crate::<folder>::<name>`.
fn named_siblings(code: &str, folder: &str) -> BTreeSet<String> {
    let code = code_of(code);
    let own = format!("crate::{}::", folder.replace('/', "::"));
    let mut named = names_after(&code, "super::");
    named.extend(names_after(&code, &own));
    named
}

/// Inside each folder of `src/`, its files (not counting the folder's own `mod.rs`, their
/// parent) import each other one way only.
#[test]
fn the_files_of_each_folder_import_each_other_one_way_only() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut folders: BTreeMap<String, Graph> = BTreeMap::new();
    for file in &files {
        let relative = file.strip_prefix(&src).expect("under src");
        let (Some(folder), Some(stem)) = (relative.parent(), relative.file_stem()) else {
            continue;
        };
        let (folder, stem) = (folder.to_string_lossy(), stem.to_string_lossy());
        if folder.is_empty() || stem == "mod" {
            continue;
        }
        let code = std::fs::read_to_string(file).expect("a readable source file");
        folders
            .entry(folder.to_string())
            .or_default()
            .insert(stem.to_string(), named_siblings(&code, &folder));
    }
    assert!(
        folders["stores/config"]["store"].contains("toml_file"),
        "the scan sees sibling imports"
    );
    for (folder, mut graph) in folders {
        let siblings: BTreeSet<String> = graph.keys().cloned().collect();
        for deps in graph.values_mut() {
            deps.retain(|d| siblings.contains(d));
        }
        if let Some(circle) = find_circle(&graph) {
            panic!("an import circle in src/{folder}: {}", circle.join(" -> "));
        }
    }
}

#[test]
fn the_circle_finder_finds_a_circle() {
    let mut graph = Graph::new();
    for (from, to) in [("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")] {
        graph
            .entry(from.to_owned())
            .or_default()
            .insert(to.to_owned());
    }
    assert_eq!(
        find_circle(&graph),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    graph.get_mut("c").unwrap().remove("a");
    assert_eq!(find_circle(&graph), None);
    assert_eq!(
        named_modules(
            "use crate::model::Msg;\n// crate::cli in a comment\nlet x = pi_ask_crate::run;\n"
        ),
        BTreeSet::from(["model".to_owned()])
    );
    // Groups over several lines, nested ones read at their top level only.
    assert_eq!(
        named_modules("use crate::{\n    form::{Form, Question},\n    result,\n};\n"),
        BTreeSet::from(["form".to_owned(), "result".to_owned()])
    );
}

/// The error type of every `Result<T, E>` written in `code` (the text after the top-level comma).
fn result_error_types(code: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut rest = code;
    while let Some(at) = rest.find("Result<") {
        let inner = &rest[at + "Result<".len()..];
        let (mut depth, mut comma, mut end) = (0usize, None, None);
        for (i, c) in inner.char_indices() {
            match c {
                '<' | '(' | '[' => depth += 1,
                '>' | ')' | ']' if depth == 0 => {
                    end = Some(i);
                    break;
                }
                '>' | ')' | ']' => depth -= 1,
                ',' if depth == 0 => comma = Some(i),
                _ => {}
            }
        }
        if let (Some(comma), Some(end)) = (comma, end) {
            found.push(inner[comma + 1..end].trim().to_owned());
        }
        rest = inner;
    }
    found
}

/// Errors are types: no function of `src/` hands back a bare `String` as its error.
#[test]
fn no_result_in_src_has_a_string_for_its_error() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut offenders = Vec::new();
    for file in files {
        let code = std::fs::read_to_string(&file).expect("a readable source file");
        let code = code
            .split("#[cfg(test)]\nmod tests")
            .next()
            .unwrap_or(&code);
        if result_error_types(code).iter().any(|e| e == "String") {
            offenders.push(file.display().to_string());
        }
    }
    assert!(offenders.is_empty(), "Result<_, String> in {offenders:?}");
    assert_eq!(
        result_error_types("fn f() -> Result<Vec<(u8, u8)>, String> {} fn g() -> io::Result<()>"),
        ["String"]
    );
}

/// A command returns how it ended (`report::CommandOutcome`) or its error; only the command line (and
/// the binary's `main`, which hands it on) makes an exit status, so no command can exit with a
/// status the others do not mean, or say a failure twice.
#[test]
fn only_the_command_line_makes_an_exit_status() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let allowed = ["cli.rs", "main.rs"];
    let mut offenders = Vec::new();
    for file in files {
        let relative = file.strip_prefix(&src).expect("under src");
        if allowed.iter().any(|a| relative == Path::new(a)) {
            continue;
        }
        let code = std::fs::read_to_string(&file).expect("a readable source file");
        if code
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .any(|l| l.contains("ExitCode") || l.contains("process::exit"))
        {
            offenders.push(relative.display().to_string());
        }
    }
    assert!(
        offenders.is_empty(),
        "exit statuses made outside the command line in {offenders:?}"
    );
}
