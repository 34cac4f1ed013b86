//! `pi-ask serve` measured as a page and an agent meet it, against the real binary on loopback:
//! - `ask_to_event`: an ask queued (as `pi-ask mcp` queues it) until an open page's event stream
//!   says the list changed and the page has fetched the list that shows it (what the page's script
//!   does; the browser's own drawing is not in it);
//! - `press_to_answer`: Submit pressed on an open ask until its answer is in the queue for the
//!   waiting agent;
//! - `press_to_agent`: the same, until a real `pi-ask mcp` has handed the agent its result;
//! - `press_to_hook`: the same, until a real `pi-ask hook claude` (as Claude Code runs it, its
//!   event on stdin) has printed the answer for the host and ended;
//! - `list_1000`: the list page with 1,000 asks waiting;
//! - the page's weight (a form page with its script and style), printed once.
//!
//! `cargo bench --bench web`.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use pi_ask::stores::history::ProcessId;
use pi_ask::stores::queue::AskQueue;
use pi_ask::stores::queue::{Queue, QueuedAsk};
use serde_json::json;

struct Server {
    child: Child,
    address: String,
    cookie: String,
    _home: tempfile::TempDir,
    queue: Queue,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn ask(id: &str, at: u64) -> QueuedAsk {
    QueuedAsk {
        id: id.into(),
        created_at: at,
        client: "bench".into(),
        cwd: "/".into(),
        asker: ProcessId::current(),
        payload: json!({"questions":[{"id":"env","prompt":"Where?","options":[
            {"value":"staging","label":"Staging"},{"value":"prod","label":"Production"}]}]}),
    }
}

fn request(address: &str, head: &str, body: &str) -> String {
    let mut stream = TcpStream::connect(address).unwrap();
    stream
        .write_all(
            format!(
                "{head}Connection: close\r\nContent-Length: {}\r\n\r\n{body}",
                body.len()
            )
            .as_bytes(),
        )
        .unwrap();
    let mut out = String::new();
    stream.read_to_string(&mut out).unwrap();
    out
}

impl Server {
    fn start(waiting: usize) -> Server {
        let home = tempfile::tempdir().unwrap();
        let queue = Queue::open(home.path().join("queue")).unwrap();
        for n in 0..waiting {
            queue.submit(&ask(&format!("w{n:04}"), n as u64)).unwrap();
        }
        let url_file = home.path().join("url");
        let child = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
            .args([
                "serve",
                "--no-history",
                "--listen",
                "127.0.0.1:0",
                "--queue",
            ])
            .arg(queue.dir())
            .arg("--url-file")
            .arg(&url_file)
            .env("HOME", home.path())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let link = loop {
            if let Ok(text) = std::fs::read_to_string(&url_file)
                && text.ends_with('\n')
            {
                break text.trim().to_owned();
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let rest = link.strip_prefix("http://").unwrap();
        let (address, path) = rest.split_at(rest.find('/').unwrap());
        let address = address.to_owned();
        let signed = request(
            &address,
            &format!("GET {path} HTTP/1.1\r\nHost: {address}\r\n"),
            "",
        );
        let cookie = signed
            .lines()
            .find_map(|l| l.strip_prefix("set-cookie: "))
            .unwrap()
            .split(';')
            .next()
            .unwrap()
            .to_owned();
        Server {
            child,
            address,
            cookie,
            _home: home,
            queue,
        }
    }

    fn get(&self, path: &str) -> String {
        let head = format!(
            "GET {path} HTTP/1.1\r\nHost: {}\r\nCookie: {}\r\n",
            self.address, self.cookie
        );
        request(&self.address, &head, "")
    }

    fn press(&self, id: &str, body: &str) -> String {
        let head = format!(
            "POST /ask/{id} HTTP/1.1\r\nHost: {0}\r\nOrigin: http://{0}\r\nCookie: {1}\r\nx-pi-ask-fragment: 1\r\nContent-Type: application/x-www-form-urlencoded\r\n",
            self.address, self.cookie
        );
        request(&self.address, &head, body)
    }

    /// An open event stream, past its first event.
    fn events(&self) -> BufReader<TcpStream> {
        let mut stream = TcpStream::connect(&self.address).unwrap();
        stream
            .write_all(
                format!(
                    "GET /events HTTP/1.1\r\nHost: {}\r\nCookie: {}\r\n\r\n",
                    self.address, self.cookie
                )
                .as_bytes(),
            )
            .unwrap();
        let mut reader = BufReader::new(stream);
        next_change(&mut reader);
        reader
    }
}

/// The version of the ask a page drew (its forms send it back with a submit).
fn drawn_version(page: &str) -> u64 {
    let at = page.find("data-version=\"").expect("a form page") + "data-version=\"".len();
    page[at..].split('"').next().unwrap().parse().unwrap()
}

/// Reads up to the next `changes` event's data line.
fn next_change(reader: &mut BufReader<TcpStream>) -> String {
    let mut line = String::new();
    loop {
        line.clear();
        reader.read_line(&mut line).unwrap();
        if let Some(data) = line.strip_prefix("data: ") {
            return data.to_owned();
        }
    }
}

fn web(c: &mut Criterion) {
    let mut group = c.benchmark_group("web");
    group.sample_size(30);
    group.measurement_time(Duration::from_secs(8));

    let server = Server::start(0);
    let mut events = server.events();
    let mut n = 0u64;
    group.bench_function("ask_to_event", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                n += 1;
                let id = format!("e{n}");
                // At a different moment of the desk's 40 ms look each time (not always just
                // after one, which the decline below would otherwise line it up with).
                std::thread::sleep(Duration::from_millis(n * 7 % 40));
                let start = Instant::now();
                server.queue.submit(&ask(&id, n)).unwrap();
                loop {
                    next_change(&mut events);
                    if server.get("/").contains(&format!("/ask/{id}")) {
                        break;
                    }
                }
                total += start.elapsed();
                // Out of the list again (declined), outside the time.
                server.press(&format!("{id}/decline"), "");
                next_change(&mut events);
            }
            total
        })
    });
    drop(events);

    group.bench_function("press_to_answer", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                n += 1;
                let id = format!("p{n}");
                server.queue.submit(&ask(&id, n)).unwrap();
                let page = server.press(&id, "tab=0&act=pick:1");
                let start = Instant::now();
                server.press(
                    &id,
                    &format!("tab=1&act=submit&seen={}", drawn_version(&page)),
                );
                while server.queue.take_result(&id).is_none() {
                    std::thread::sleep(Duration::from_micros(200));
                }
                total += start.elapsed();
            }
            total
        })
    });
    // The same, until a real `pi-ask mcp` (over stdio, as a host runs it) hands the agent the
    // result: its waiter looks at the queue every 20 ms.
    let mut agent = Agent::start(&server.queue);
    group.bench_function("press_to_agent", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let call = agent.call();
                let id = loop {
                    if let Some(ask) = server
                        .queue
                        .pending()
                        .into_iter()
                        .find(|a| a.client.starts_with("bench-agent"))
                    {
                        break ask.id;
                    }
                    std::thread::sleep(Duration::from_millis(1));
                };
                let page = server.press(&id, "tab=0&act=pick:1");
                // At a different moment of the waiter's 20 ms look each time.
                std::thread::sleep(Duration::from_millis(call * 3 % 20));
                let start = Instant::now();
                server.press(
                    &id,
                    &format!("tab=1&act=submit&seen={}", drawn_version(&page)),
                );
                agent.response(call);
                total += start.elapsed();
            }
            total
        })
    });
    drop(agent);
    // The same, until `pi-ask hook claude` has printed Claude Code's answer (it too looks at the
    // queue every 20 ms).
    let event = json!({"hook_event_name": "PreToolUse", "tool_name": "AskUserQuestion", "cwd": "/",
        "tool_input": {"questions": [{"question": "Ship?", "header": "Ship", "multiSelect": false,
            "options": [{"label": "Yes", "description": "now"}, {"label": "No", "description": "later"}]}]}})
    .to_string();
    group.bench_function("press_to_hook", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for round in 0..iters {
                let mut hook = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
                    .args(["hook", "claude", "--queue"])
                    .arg(server.queue.dir())
                    .stdin(Stdio::piped())
                    .stdout(Stdio::piped())
                    .stderr(Stdio::null())
                    .spawn()
                    .unwrap();
                hook.stdin
                    .take()
                    .unwrap()
                    .write_all(event.as_bytes())
                    .unwrap();
                let id = loop {
                    if let Some(ask) = server
                        .queue
                        .pending()
                        .into_iter()
                        .find(|a| a.client == "Claude Code")
                    {
                        break ask.id;
                    }
                    std::thread::sleep(Duration::from_millis(1));
                };
                let page = server.press(&id, "tab=0&act=pick:0");
                std::thread::sleep(Duration::from_millis(round * 3 % 20));
                let start = Instant::now();
                server.press(
                    &id,
                    &format!("tab=1&act=submit&seen={}", drawn_version(&page)),
                );
                let out = hook.wait_with_output().unwrap();
                total += start.elapsed();
                let said: serde_json::Value =
                    serde_json::from_slice(&out.stdout).expect("the hook answered");
                assert_eq!(
                    said["hookSpecificOutput"]["updatedInput"]["answers"]["Ship?"],
                    "Yes"
                );
            }
            total
        })
    });
    let page = server.get("/ask/none");
    let weight = |path: &str| server.get(path).len();
    server.queue.submit(&ask("weigh", 1)).unwrap();
    let form = weight("/ask/weigh");
    println!(
        "page weight: form page {form} B + app.js {} B + app.css {} B (headers included); outcome page {} B",
        weight("/app.js"),
        weight("/app.css"),
        page.len()
    );
    drop(server);

    let server = Server::start(1000);
    group.bench_function("list_1000", |b| {
        b.iter(|| assert!(server.get("/").contains("w0999")))
    });
    group.finish();
}

/// A host talking MCP to `pi-ask mcp` over its standard input and output.
struct Agent {
    child: Child,
    stdin: std::process::ChildStdin,
    lines: BufReader<std::process::ChildStdout>,
    next: u64,
}

impl Drop for Agent {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Agent {
    fn start(queue: &Queue) -> Agent {
        let mut child = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
            .args(["mcp", "--queue"])
            .arg(queue.dir())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let lines = BufReader::new(child.stdout.take().unwrap());
        let mut agent = Agent {
            child,
            stdin,
            lines,
            next: 1,
        };
        agent.send(json!({"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bench-agent","version":"1"}}}));
        agent.response(0);
        agent.send(json!({"jsonrpc":"2.0","method":"notifications/initialized"}));
        agent
    }

    fn send(&mut self, value: serde_json::Value) {
        writeln!(self.stdin, "{value}").unwrap();
        self.stdin.flush().unwrap();
    }

    fn call(&mut self) -> u64 {
        let id = self.next;
        self.next += 1;
        self.send(json!({"jsonrpc":"2.0","id":id,"method":"tools/call","params":{"name":"ask_user","arguments":{"questions":[{"id":"env","prompt":"Where?","options":[{"value":"staging","label":"Staging"},{"value":"prod","label":"Production"}]}]}}}));
        id
    }

    fn response(&mut self, id: u64) {
        let mut line = String::new();
        loop {
            line.clear();
            self.lines.read_line(&mut line).unwrap();
            let value: serde_json::Value = serde_json::from_str(&line).unwrap();
            if value["id"] == id && value.get("result").is_some() {
                return;
            }
        }
    }
}

criterion_group!(benches, web);
criterion_main!(benches);
