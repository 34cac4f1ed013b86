//! The `@` file index on generated trees of 10k and 100k files (mixed depths, a .gitignore):
//! time to a complete index, time to the first suggestions, time per query keystroke at 100k
//! candidates, memory, and `fd` listing the same tree for comparison (when installed).

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use pi_ask::files::{FileIndex, IndexOptions, Searcher};

const WORDS: [&str; 16] = [
    "src", "lib", "core", "util", "model", "view", "config", "main", "parser", "render", "store",
    "index", "test", "docs", "api", "net",
];
const EXTENSIONS: [&str; 6] = ["rs", "ts", "md", "json", "toml", "py"];

/// Writes `files` files under `root`: folders 1 to 6 deep, ~25 files per folder, plus ignored
/// build output (`target/`, `*.log`) that the index must skip.
fn generate(root: &Path, files: usize) {
    std::fs::create_dir_all(root).unwrap();
    std::fs::write(root.join(".gitignore"), "target/\n*.log\n").unwrap();
    let mut written = 0;
    let mut folder = 0usize;
    while written < files {
        // Folder `n` sits 1..=6 levels deep under a shared mix of parents; its own name is unique.
        let depth = 1 + folder % 6;
        let mut dir = root.to_path_buf();
        for level in 0..depth - 1 {
            dir.push(format!(
                "{}{}",
                WORDS[(folder / (level + 2) + level) % WORDS.len()],
                (folder >> (level + 2)) % 5
            ));
        }
        dir.push(format!("{}_{folder}", WORDS[folder % WORDS.len()]));
        std::fs::create_dir_all(&dir).unwrap();
        for f in 0..25.min(files - written) {
            let name = format!(
                "{}_{}{}.{}",
                WORDS[(f + folder) % WORDS.len()],
                WORDS[f % 5],
                f,
                EXTENSIONS[f % EXTENSIONS.len()]
            );
            std::fs::write(dir.join(name), "").unwrap();
            written += 1;
        }
        folder += 1;
    }
    let ignored = root.join("target/debug");
    std::fs::create_dir_all(&ignored).unwrap();
    for i in 0..1000 {
        std::fs::write(ignored.join(format!("artifact{i}.o")), "").unwrap();
        std::fs::write(root.join(format!("run{i}.log")), "").unwrap();
    }
}

fn tree(files: usize) -> PathBuf {
    let root = std::env::temp_dir().join(format!("pi-ask-bench-tree-v2-{files}"));
    if !root.join(".complete").exists() {
        let _ = std::fs::remove_dir_all(&root);
        generate(&root, files);
        std::fs::write(root.join(".complete"), "").unwrap();
    }
    root
}

fn options() -> IndexOptions {
    IndexOptions {
        git_global: false,
        ..IndexOptions::default()
    }
}

fn build_complete(root: &Path) -> FileIndex {
    let index = FileIndex::build(root, options()).unwrap();
    index.wait();
    index
}

fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or(0)
}

fn fd_binary() -> Option<&'static str> {
    ["fdfind", "fd"].into_iter().find(|b| {
        Command::new(b)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

fn index_benches(c: &mut Criterion) {
    // Memory first, before other indexes have warmed the allocator.
    let root = tree(100_000);
    let before = rss_kib();
    let index = build_complete(&root);
    let after = rss_kib();
    eprintln!(
        "file_index/memory_100000: {} entries, {:.1} MB held by the index, RSS grew by {:.1} MB",
        index.len(),
        index.heap_bytes() as f64 / 1_048_576.0,
        after.saturating_sub(before) as f64 / 1024.0
    );
    drop(index);

    let mut group = c.benchmark_group("file_index");
    group
        .sample_size(10)
        .measurement_time(Duration::from_secs(10));
    for files in [10_000, 100_000] {
        let root = tree(files);
        group.bench_with_input(
            BenchmarkId::new("complete_index", files),
            &root,
            |b, root| b.iter(|| build_complete(root)),
        );
        if let Some(fd) = fd_binary() {
            group.bench_with_input(BenchmarkId::new("fd_listing", files), &root, |b, root| {
                b.iter(|| {
                    let out = Command::new(fd)
                        .args([
                            "--hidden",
                            "--exclude",
                            ".git",
                            "--type",
                            "f",
                            "--type",
                            "d",
                            ".",
                        ])
                        .arg(root)
                        .output()
                        .unwrap();
                    assert!(out.status.success());
                    out.stdout.len()
                })
            });
        }
        // From typing `@` (index walk starting) to the first suggestions being available.
        group.bench_with_input(
            BenchmarkId::new("first_suggestions", files),
            &root,
            |b, root| {
                b.iter_custom(|iters| {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        let start = Instant::now();
                        let index = FileIndex::build(root, options()).unwrap();
                        let mut searcher = Searcher::default();
                        while searcher.search(&index, "", 20).items.is_empty() {
                            std::thread::yield_now();
                        }
                        total += start.elapsed();
                        index.wait();
                    }
                    total
                })
            },
        );
    }
    group.finish();

    let index = build_complete(&tree(100_000));

    let mut group = c.benchmark_group("file_query_100k");
    // A fresh search scans every candidate (the first character after `@`, or after an edit).
    for query in ["m", "main", "src/core", "pars_rs"] {
        group.bench_with_input(BenchmarkId::new("full_scan", query), &query, |b, q| {
            b.iter(|| Searcher::default().search(&index, q, 20).total)
        });
    }
    // Typing one more character refines the previous matches.
    group.bench_function("keystroke_mai_to_main", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let mut searcher = Searcher::default();
                searcher.search(&index, "mai", 20);
                let start = Instant::now();
                std::hint::black_box(searcher.search(&index, "main", 20));
                total += start.elapsed();
            }
            total
        })
    });
    group.finish();
}

criterion_group!(benches, index_benches);
criterion_main!(benches);
