//! `pi-ask serve` run as a person runs it, and spoken to over plain HTTP/1.1 (a raw socket: the
//! tests set every header themselves, as a hostile page or a rebinding DNS name would).

use std::io::{Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// A running `pi-ask serve` on a free loopback port.
pub struct Served {
    pub child: Child,
    /// `127.0.0.1:PORT`.
    pub address: String,
    /// Where it writes its sign-in links.
    pub url_file: PathBuf,
    /// The version of each ask the last page drawn of it showed, sent back with each press as
    /// the page's forms send it (`seen`).
    versions: std::sync::Mutex<std::collections::HashMap<String, u64>>,
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP response.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    /// Header lines, names lowercased.
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

impl Served {
    /// `pi-ask serve` over `queue`, with HOME (history, config) in `home`.
    pub fn start(home: &Path, queue: &Path, extra: &[&str]) -> Served {
        let url_file = home.join("serve-url");
        // A link left by an earlier server in the same home is not this one's.
        let _ = std::fs::remove_file(&url_file);
        let child = Command::new(env!("CARGO_BIN_EXE_pi-ask"))
            .args(["serve", "--listen", "127.0.0.1:0", "--queue"])
            .arg(queue)
            .arg("--url-file")
            .arg(&url_file)
            .args(extra)
            .env("HOME", home)
            .env_remove("PI_ASK_QUEUE")
            .env_remove("PI_ASK_CONFIG")
            .env_remove("PI_ASK_HISTORY")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("pi-ask serve starts");
        let deadline = Instant::now() + Duration::from_secs(20);
        let link = loop {
            if let Ok(text) = std::fs::read_to_string(&url_file)
                && text.ends_with('\n')
            {
                break text.trim().to_owned();
            }
            assert!(
                Instant::now() < deadline,
                "pi-ask serve wrote no sign-in link"
            );
            std::thread::sleep(Duration::from_millis(20));
        };
        let address = link
            .strip_prefix("http://")
            .and_then(|rest| rest.split('/').next())
            .expect("an http link")
            .to_owned();
        Served {
            child,
            address,
            url_file,
            versions: Default::default(),
        }
    }

    /// The current sign-in link's path and query (`/signin?token=…`).
    pub fn sign_in_path(&self) -> String {
        let link = std::fs::read_to_string(&self.url_file).unwrap();
        let link = link.trim();
        link[link.find("/signin").expect("a sign-in link")..].to_owned()
    }

    /// `http://127.0.0.1:PORT`.
    pub fn origin(&self) -> String {
        format!("http://{}", self.address)
    }

    /// Signs in with the current link; the session cookie's `name=value`.
    pub fn sign_in(&self) -> String {
        let response = self.get(&self.sign_in_path(), &[]);
        assert_eq!(response.status, 303, "{response:?}");
        let cookie = response.header("set-cookie").expect("a session cookie");
        cookie.split(';').next().unwrap().to_owned()
    }

    /// A request with exactly these extra headers (`Host` is the server's own unless given).
    pub fn request(
        &self,
        method: &str,
        path: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> Response {
        let mut stream = TcpStream::connect(&self.address).expect("the server listens");
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        let mut head = format!("{method} {path} HTTP/1.1\r\nConnection: close\r\n");
        if !headers.iter().any(|(n, _)| n.eq_ignore_ascii_case("host")) {
            head.push_str(&format!("Host: {}\r\n", self.address));
        }
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        if method == "POST" {
            head.push_str(&format!(
                "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {}\r\n",
                body.len()
            ));
        }
        head.push_str("\r\n");
        stream.write_all(head.as_bytes()).unwrap();
        stream.write_all(body.as_bytes()).unwrap();
        let mut raw = Vec::new();
        let _ = stream.read_to_end(&mut raw);
        let response = parse(&raw);
        if let Some((id, version)) = drawn_version(&response.body) {
            self.versions.lock().unwrap().insert(id, version);
        }
        response
    }

    /// The version of ask `id` its last page drawn showed (0 before any).
    pub fn seen(&self, id: &str) -> u64 {
        self.versions.lock().unwrap().get(id).copied().unwrap_or(0)
    }

    pub fn get(&self, path: &str, headers: &[(&str, &str)]) -> Response {
        self.request("GET", path, headers, "")
    }

    /// The presses `presses` on an ask's page in turn, the last of them the one that ends the form:
    /// a panic with the page unless it says the agent has the answer.
    pub fn answer(&self, cookie: &str, id: &str, presses: &[&str]) {
        let mut last = None;
        for press in presses {
            last = Some(self.press(cookie, id, press));
        }
        let done = last.expect("at least the press that submits");
        assert!(
            done.body.contains("The agent has your answer"),
            "{}",
            done.body
        );
    }

    /// A press on an ask's page, as the page's script sends it (its own origin, the session, and
    /// the version of the ask its last page showed unless `body` says one).
    pub fn press(&self, cookie: &str, id: &str, body: &str) -> Response {
        let body = if body.split('&').any(|f| f.starts_with("seen=")) {
            body.to_owned()
        } else {
            format!("{body}&seen={}", self.seen(id))
        };
        let body = body.as_str();
        let origin = self.origin();
        self.request(
            "POST",
            &format!("/ask/{id}"),
            &[
                ("Cookie", cookie),
                ("Origin", &origin),
                ("x-pi-ask-fragment", "1"),
            ],
            body,
        )
    }
}

/// The ask and version a form page draws (`data-ask="…" data-tab="…" data-version="N"`).
pub fn drawn_version(html: &str) -> Option<(String, u64)> {
    let start =
        html.find("data-page=\"form\" data-ask=\"")? + "data-page=\"form\" data-ask=\"".len();
    let rest = &html[start..];
    let id = &rest[..rest.find('"')?];
    let at = rest.find("data-version=\"")? + "data-version=\"".len();
    let version = rest[at..].split('"').next()?.parse().ok()?;
    Some((id.to_owned(), version))
}

fn parse(raw: &[u8]) -> Response {
    let text = String::from_utf8_lossy(raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(n, v)| (n.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect::<Vec<_>>();
    let chunked = headers
        .iter()
        .any(|(n, v)| n == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked {
        dechunk(body)
    } else {
        body.to_owned()
    };
    Response {
        status,
        headers,
        body,
    }
}

fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let Ok(size) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if size == 0 || rest.len() < size {
            break;
        }
        out.push_str(&rest[..size]);
        body = rest[size..].trim_start_matches("\r\n");
    }
    out
}

/// The web tests' form: a single question (Markdown, a recommended option, descriptions), a multi
/// one and a preview one (a table and a code block).
pub fn form_payload() -> serde_json::Value {
    serde_json::json!({"title":"Set-up","questions":[
        {"id":"db","prompt":"Which **database** should the service use?","options":[
            {"value":"pg","label":"PostgreSQL","description":"Solid and boring","recommended":true},
            {"value":"sqlite","label":"SQLite","description":"One file, no server"},
            {"value":"mysql","label":"MySQL"}]},
        {"id":"features","type":"multi","prompt":"Which features ship first?","options":[
            {"value":"auth","label":"Auth"},
            {"value":"billing","label":"Billing"},
            {"value":"search","label":"Search"}]},
        {"id":"layout","type":"preview","prompt":"Which layout for the dashboard?","options":[
            {"value":"cards","label":"Cards","preview":"## Cards\n\nEach project is a card with its **status** and last deploy.\n\n| name | status |\n|---|---|\n| api | green |"},
            {"value":"table","label":"Table","preview":"## Table\n\n```\nname   status  deployed\napi    green   2 h ago\nweb    amber   1 d ago\n```"}]}
    ]})
}

/// What the review shows of the answers [`terminal_result`] gives (each answer, own words, a note).
pub const REVIEW_WORDS: [&str; 6] = [
    "SQLite",
    "Auth",
    "Search",
    "exports",
    "Table",
    "keep it small",
];

/// [`form_payload`] answered with the terminal form's keys: a note on the first question and its
/// second option; the first and third of the second, a note on the third, own words; the second
/// of the third; Submit.
pub fn terminal_result() -> serde_json::Value {
    let mut h = pi_ask::testing::Harness::new(&form_payload().to_string(), 100, 30).unwrap();
    h.press("shift+n").type_text("keep it small").press("enter");
    h.press("down").press("enter");
    h.press("space").keys(&["down", "down"]).press("space");
    h.press("n").type_text("only titles").press("enter");
    // Enter keeps a multi question's own answer and stays; Tab goes on.
    h.press("down")
        .type_text("exports")
        .press("enter")
        .press("tab");
    h.press("down").press("enter");
    h.press("enter");
    serde_json::to_value(h.result().expect("submitted on the terminal")).unwrap()
}

/// Asserts that an MCP call's `result`, answered on the page, is the terminal form's for the same
/// choices ([`terminal_result`]): the same text and `details`, and `outcome: answered`, which the
/// MCP server adds (the terminal's own result has no such field).
pub fn assert_same_as_terminal(result: &serde_json::Value) {
    let mut details = result["structuredContent"].clone();
    let outcome = details
        .as_object_mut()
        .expect("structured content")
        .shift_remove("outcome");
    assert_eq!(outcome, Some(serde_json::json!("answered")), "{result}");
    let terminal = terminal_result();
    assert_eq!(details, terminal["details"]);
    assert_eq!(result["content"][0]["text"], terminal["content"][0]["text"]);
}
