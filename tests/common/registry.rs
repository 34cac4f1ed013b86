//! A loopback npm registry: static packuments and tarballs on 127.0.0.1, built from the
//! `packages.json` that `scripts/npm-packages.sh` writes. npm asks it for `/<name>` (a scoped name
//! as `/@scope%2fname`) and for the tarballs the packuments point at; anything else is a 404, as
//! the real registry answers for a package it does not have.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::{TcpListener, TcpStream};
use std::path::Path;
use std::sync::Arc;

use serde_json::{Value, json};

/// A registry serving until dropped (its thread ends with the test process).
pub struct Registry {
    /// `http://127.0.0.1:<port>/`, for `npm_config_registry`.
    pub url: String,
}

impl Registry {
    /// Serves the packages packed into `dir` whose names `keep` accepts.
    pub fn serve(dir: &Path, keep: impl Fn(&str) -> bool) -> Registry {
        let listener = TcpListener::bind("127.0.0.1:0").unwrap();
        let url = format!("http://{}/", listener.local_addr().unwrap());
        let packed: Vec<Value> =
            serde_json::from_str(&std::fs::read_to_string(dir.join("packages.json")).unwrap())
                .unwrap();
        let mut routes: HashMap<String, (&'static str, Vec<u8>)> = HashMap::new();
        for package in packed.iter().filter(|p| keep(p["name"].as_str().unwrap())) {
            let name = package["name"].as_str().unwrap();
            let version = package["version"].as_str().unwrap();
            let file = package["file"].as_str().unwrap();
            let mut manifest = package["manifest"].clone();
            manifest["_id"] = json!(format!("{name}@{version}"));
            manifest["dist"] = json!({
                "tarball": format!("{url}-/files/{file}"),
                "integrity": package["integrity"],
                "shasum": package["shasum"],
            });
            let packument = json!({
                "name": name,
                "dist-tags": {"latest": version},
                "versions": {version: manifest},
            });
            routes.insert(
                format!("/{}", name.replace('/', "%2f")),
                ("application/json", packument.to_string().into_bytes()),
            );
            routes.insert(
                format!("/-/files/{file}"),
                (
                    "application/octet-stream",
                    std::fs::read(dir.join(file)).unwrap(),
                ),
            );
        }
        let routes = Arc::new(routes);
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let routes = Arc::clone(&routes);
                std::thread::spawn(move || answer(stream, &routes));
            }
        });
        Registry { url }
    }
}

/// Answers one request and closes the connection.
fn answer(mut stream: TcpStream, routes: &HashMap<String, (&'static str, Vec<u8>)>) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut request = String::new();
    if reader.read_line(&mut request).is_err() {
        return;
    }
    // The headers, read to their end and not needed.
    let mut line = String::new();
    while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
        line.clear();
    }
    let path = request.split_whitespace().nth(1).unwrap_or("/");
    // npm writes a scoped name's slash as %2f or %2F.
    let path = path.replace("%2F", "%2f");
    let (status, kind, body) = match routes.get(&path) {
        Some((kind, body)) => ("200 OK", *kind, body.as_slice()),
        None => (
            "404 Not Found",
            "application/json",
            &b"{\"error\":\"Not found\"}"[..],
        ),
    };
    let head = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    let _ = stream.write_all(head.as_bytes());
    let _ = stream.write_all(body);
}
