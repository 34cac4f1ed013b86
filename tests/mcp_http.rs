//! `pi-ask mcp --http`: an agent elsewhere, as the official MCP TypeScript SDK's Streamable HTTP
//! client (`pi-extension/mcp-host/http-host.mjs`, on Node 22 from the pinned lock), asks; the
//! person answers on the web page (`pi-ask serve`, the same queue); the agent gets the result.
//! Without the token, from a web page's origin or under another host name, the server refuses.
//!
//! Needs the npm packages (`npm ci --prefix pi-extension`), installed first when npm is there; the
//! tests fail when they cannot be had.

mod common;

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::web::Served;
use pi_ask::stores::queue::AskQueue;
use pi_ask::stores::queue::Queue;
use serde_json::Value;

/// A running `pi-ask mcp --http` on a free loopback port.
struct HttpServer {
    child: Child,
    url: String,
    token: String,
}

impl Drop for HttpServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn http_server(home: &Path, queue: &Queue) -> HttpServer {
    // An environment of the test's own: none of the developer's PI_ASK_* reaches the server.
    let mut child = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .args(["mcp", "--http", "127.0.0.1:0", "--queue"])
        .arg(queue.dir())
        .env_clear()
        .env("HOME", home)
        .env("PATH", "/usr/bin:/bin")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let stderr = child.stderr.take().unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    let deadline = Instant::now() + Duration::from_secs(20);
    let url = loop {
        let line = rx
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
            .expect("pi-ask mcp --http says where it serves");
        if let Some(rest) = line.split("serving MCP over HTTP at ").nth(1) {
            break rest.split(';').next().unwrap().to_owned();
        }
    };
    let token = std::fs::read_to_string(queue.dir().join("mcp-http.token"))
        .unwrap()
        .trim()
        .to_owned();
    HttpServer { child, url, token }
}

fn agent(scenario: &str, server: &HttpServer) -> std::thread::JoinHandle<Value> {
    let (url, token) = (server.url.clone(), server.token.clone());
    let scenario = scenario.to_owned();
    std::thread::spawn(move || {
        common::npm::run_sdk_host("http-host.mjs", &[&scenario, &url, &token])
    })
}

#[test]
fn an_agent_over_http_gets_the_answer_given_on_the_web_page() {
    let home = tempfile::tempdir().unwrap();
    let queue = Queue::open(home.path().join("queue")).unwrap();
    let server = http_server(home.path(), &queue);
    let served = Served::start(home.path(), queue.dir(), &[]);
    let asking = agent("call", &server);
    let ask = common::wait_pending(&queue);
    assert!(ask.client.contains("remote-agent"), "{}", ask.client);
    let cookie = served.sign_in();
    let picked = served.press(&cookie, &ask.id, "tab=0&act=pick:1");
    assert!(picked.body.contains("Review answers"), "{}", picked.body);
    served.press(&cookie, &ask.id, "tab=1&act=submit");
    let seen = asking.join().unwrap();
    assert_eq!(seen["tools"], serde_json::json!(["ask_user"]));
    let result = &seen["result"];
    assert_eq!(result["content"][0]["text"], "Q1: Production", "{seen}");
    assert_eq!(
        result["structuredContent"]["answers"]["env"]["values"],
        serde_json::json!(["prod"])
    );
}

#[test]
fn without_the_token_from_a_page_or_under_another_name_it_is_refused() {
    let home = tempfile::tempdir().unwrap();
    let queue = Queue::open(home.path().join("queue")).unwrap();
    let server = http_server(home.path(), &queue);
    let seen = agent("refused", &server).join().unwrap();
    for name in ["none", "wrong"] {
        assert_eq!(seen[name]["code"], 401, "{name}: {seen}");
        let said = seen[name]["message"].as_str().unwrap();
        assert!(
            said.contains("Authorization: Bearer"),
            "the refusal says what to send: {said}"
        );
    }
    // With the token, but from a web page (an Origin), or through a rebinding name: refused.
    let address = server
        .url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp");
    let port = address.rsplit(':').next().unwrap();
    let bearer = format!("Bearer {}", server.token);
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}"#;
    for (host, origin) in [
        (address.to_owned(), Some("http://evil.example")),
        (format!("attacker.example:{port}"), None),
    ] {
        let status = raw_post(address, &host, origin, &bearer, initialize);
        assert_eq!(status, 403, "Host {host}, Origin {origin:?}");
    }
    assert_eq!(raw_post(address, address, None, &bearer, initialize), 200);
}

fn raw_post(address: &str, host: &str, origin: Option<&str>, bearer: &str, body: &str) -> u16 {
    use std::io::{Read, Write};
    let mut stream = std::net::TcpStream::connect(address).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {host}\r\nAuthorization: {bearer}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    if let Some(origin) = origin {
        head.push_str(&format!("Origin: {origin}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(body.as_bytes()).unwrap();
    let mut first = [0u8; 12];
    let _ = stream.read_exact(&mut first);
    String::from_utf8_lossy(&first[9..12]).parse().unwrap_or(0)
}

#[test]
fn an_agent_behind_ssh_r_reaches_the_laptops_pi_ask() {
    if let Some(why) = common::ssh::missing() {
        return common::not_run(&why);
    }
    let home = tempfile::tempdir().unwrap();
    let queue = Queue::open(home.path().join("queue")).unwrap();
    let mut server = http_server(home.path(), &queue);
    let port: u16 = server
        .url
        .trim_end_matches("/mcp")
        .rsplit(':')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    // docs/remote.md: `ssh -R 7440:127.0.0.1:7440 server`, here with free ports on loopback.
    let tunnel = common::ssh::Tunnel::start(common::ssh::Forward::Remote, port);
    server.url = format!("http://127.0.0.1:{}/mcp", tunnel.port);
    let served = Served::start(home.path(), queue.dir(), &[]);
    let asking = agent("call", &server);
    let deadline = Instant::now() + Duration::from_secs(30);
    let ask = loop {
        if let Some(ask) = queue.pending().into_iter().next() {
            break ask;
        }
        assert!(
            Instant::now() < deadline,
            "the agent's ask never came through the tunnel"
        );
        std::thread::sleep(Duration::from_millis(20));
    };
    let cookie = served.sign_in();
    served.press(&cookie, &ask.id, "tab=0&act=pick:0");
    served.press(&cookie, &ask.id, "tab=1&act=submit");
    let seen = asking.join().unwrap();
    assert_eq!(
        seen["result"]["content"][0]["text"], "Q1: Staging",
        "{seen}"
    );
    drop(tunnel);
}

#[test]
fn a_signal_to_the_http_server_takes_its_waiting_asks_back() {
    let home = tempfile::tempdir().unwrap();
    let queue = Queue::open(home.path().join("queue")).unwrap();
    let mut server = http_server(home.path(), &queue);
    // The agent's call fails when the server stops; what matters here is the queue.
    let _asking = agent("call", &server);
    let ask = common::wait_pending(&queue);
    unsafe { libc::kill(server.child.id() as i32, libc::SIGTERM) };
    let deadline = Instant::now() + Duration::from_secs(10);
    while !queue.is_withdrawn(&ask.id) {
        assert!(
            Instant::now() < deadline,
            "the ask was left waiting for nobody"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(queue.pending().is_empty());
    let _ = server.child.wait();
}

/// 500 silent and 500 trickling sockets at each door (`pi-ask serve` and `pi-ask mcp --http`),
/// kept open for the whole test (each one closed is opened again at once): the page still
/// answers, an agent on the official SDK still asks and gets its answer, and neither server's
/// memory grows past a bound. Before the door had a deadline for a request's head and let
/// silent sockets give way, 64 of them locked both out for good.
#[test]
fn a_thousand_idle_and_trickling_sockets_at_each_door_lock_nobody_out() {
    let limit = common::flood::raise_open_files();
    assert!(
        limit >= 2_600,
        "the flood needs 2,600 open files; this machine allows {limit}"
    );
    let home = tempfile::tempdir().unwrap();
    let queue = Queue::open(home.path().join("queue")).unwrap();
    let server = http_server(home.path(), &queue);
    let served = Served::start(home.path(), queue.dir(), &[]);
    let cookie = served.sign_in();
    let mcp_address: std::net::SocketAddr = server
        .url
        .trim_start_matches("http://")
        .trim_end_matches("/mcp")
        .parse()
        .unwrap();
    let page_address: std::net::SocketAddr = served.address.parse().unwrap();
    let memory_before = (
        common::flood::resident_kib(server.child.id()),
        common::flood::resident_kib(served.child.id()),
    );
    let floods = [
        common::flood::Flood::start(mcp_address, 500, 500),
        common::flood::Flood::start(page_address, 500, 500),
    ];
    for flood in &floods {
        flood.wait_all_open(1_000);
    }
    // Past the head deadline: every socket has been closed and opened again at least once.
    std::thread::sleep(Duration::from_secs(6));
    let mut page_ms = Vec::new();
    for _ in 0..10 {
        let started = Instant::now();
        let list = served.get("/", &[("Cookie", &cookie)]);
        assert_eq!(
            list.status, 200,
            "the page answers under the flood: {list:?}"
        );
        page_ms.push(started.elapsed().as_millis());
    }
    let started = Instant::now();
    let asking = agent("call", &server);
    let ask = common::wait_pending(&queue);
    served.press(&cookie, &ask.id, "tab=0&act=pick:1");
    let done = served.press(&cookie, &ask.id, "tab=1&act=submit");
    assert!(done.body.contains("The agent has your answer"), "{done:?}");
    let seen = asking.join().unwrap();
    assert_eq!(
        seen["result"]["content"][0]["text"], "Q1: Production",
        "{seen}"
    );
    let agent_ms = started.elapsed().as_millis();
    let memory_during = (
        common::flood::resident_kib(server.child.id()),
        common::flood::resident_kib(served.child.id()),
    );
    page_ms.sort_unstable();
    eprintln!(
        "under the flood: the page answered in {} ms (median of 10, slowest {} ms); the agent's \
         ask went from its start to its answer in {agent_ms} ms; sockets closed and reopened: \
         {} at the agent's door, {} at the page's; resident memory (agent's door, page's door): \
         {:?} KiB before, {:?} KiB during",
        page_ms[page_ms.len() / 2],
        page_ms[page_ms.len() - 1],
        floods[0].reopened(),
        floods[1].reopened(),
        memory_before,
        memory_during,
    );
    assert!(
        floods[0].reopened() >= 1_000 && floods[1].reopened() >= 1_000,
        "the doors closed the silent and the trickling sockets"
    );
    for (before, during) in [
        (memory_before.0, memory_during.0),
        (memory_before.1, memory_during.1),
    ] {
        assert!(
            during < before + 64 * 1024,
            "memory stays bounded: {before} KiB before, {during} KiB under the flood"
        );
    }
}
