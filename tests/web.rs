//! `pi-ask serve` over plain HTTP: a real server, a real MCP asker (`pi-ask mcp`) or the queue's
//! own asker, and requests with exactly the headers a browser, a hostile page or a rebinding DNS
//! name would send. The browser itself is tests/web_browser.rs.

mod common;

use common::mcp::Mcp;
use common::web::Served;
use common::{queued_ask, wait_answer};
use pi_ask::stores::queue::AskQueue;
use pi_ask::stores::queue::Queue;
use serde_json::{Value, json};

struct Setting {
    home: tempfile::TempDir,
    queue: Queue,
}

fn setting() -> Setting {
    let home = tempfile::tempdir().unwrap();
    let queue = Queue::open(home.path().join("queue")).unwrap();
    Setting { home, queue }
}

#[test]
fn an_mcp_ask_answered_on_the_page_gives_the_terminals_result() {
    let s = setting();
    let served = Served::start(s.home.path(), s.queue.dir(), &[]);
    let mut mcp = Mcp::start_on(
        tempfile::tempdir().unwrap(),
        s.queue.clone(),
        &[],
        json!({}),
    );
    mcp.call(7, common::web::form_payload());
    let id = common::wait_pending(&s.queue).id;
    let cookie = served.sign_in();
    let list = served.get("/", &[("Cookie", &cookie)]);
    assert_eq!(list.status, 200);
    assert!(list.body.contains(&format!("/ask/{id}")), "{}", list.body);
    let page = served.get(&format!("/ask/{id}"), &[("Cookie", &cookie)]);
    assert!(
        page.body.contains("<strong>database</strong>"),
        "{}",
        page.body
    );
    assert!(page.body.contains("type=\"radio\""));
    for press in [
        "tab=0&act=qnote&qnote=keep+it+small",
        "tab=0&act=pick:1",
        "tab=1&act=toggle:0",
        "tab=1&act=toggle:2",
        "tab=1&act=note:2&note2=only+titles",
        "tab=1&act=own&own=exports",
        "tab=2&act=pick:1",
    ] {
        let response = served.press(&cookie, &id, press);
        assert_eq!(response.status, 200, "{press}: {}", response.body);
    }
    let review = served.press(&cookie, &id, "tab=3&act=goto:3");
    assert!(review.body.contains("Review answers"), "{}", review.body);
    for word in common::web::REVIEW_WORDS {
        assert!(
            review.body.contains(word),
            "{word} on the review: {}",
            review.body
        );
    }
    let done = served.press(&cookie, &id, "tab=3&act=submit");
    assert!(
        done.body.contains("The agent has your answer"),
        "{}",
        done.body
    );
    common::web::assert_same_as_terminal(&mcp.response(7)["result"]);
    // The page of an answered ask says so.
    let again = served.get(&format!("/ask/{id}"), &[("Cookie", &cookie)]);
    assert!(again.body.contains("Answered"), "{}", again.body);
    // Recorded in the history as the terminal inbox records an ask it answers.
    let history = s.home.path().join(".pi/agent/pi-ask/history.jsonl");
    let text = std::fs::read_to_string(&history).expect("the history");
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let opened = lines
        .iter()
        .find(|l| l.to_string().contains(&format!("\"queueId\":\"{id}\"")))
        .expect("the opening, with the queued ask's id");
    let history_id = opened["id"].as_str().unwrap();
    assert!(
        lines.iter().any(|l| l["id"] == history_id
            && l.to_string().contains("SQLite")
            && l.get("result").is_some()),
        "the end with the answer: {text}"
    );
}

#[test]
fn elaborate_and_cancel_reach_the_asker_as_on_the_terminal() {
    let s = setting();
    let served = Served::start(s.home.path(), s.queue.dir(), &[]);
    let cookie = served.sign_in();
    for (n, (presses, mode)) in [
        (
            &[
                "tab=0&act=note:0&note0=why+this",
                "tab=0&act=goto:1",
                "tab=1&act=elaborate",
            ][..],
            "elaborate",
        ),
        (&["tab=0&act=goto:1", "tab=1&act=cancel"][..], "cancel"),
    ]
    .into_iter()
    .enumerate()
    {
        let id = format!("ask-{n}");
        s.queue
            .submit(&queued_ask(&id, "Where?", n as u64))
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(100));
        for press in presses {
            let response = served.press(&cookie, &id, press);
            assert_eq!(response.status, 200, "{press}: {}", response.body);
        }
        let answer = wait_answer(&s.queue, &id);
        match mode {
            "elaborate" => assert_eq!(answer["details"]["mode"], "elaborate", "{answer}"),
            _ => assert_eq!(answer["details"]["cancelled"], true, "{answer}"),
        }
    }
}

#[test]
fn a_sign_in_link_works_once_and_the_next_is_written() {
    let s = setting();
    let served = Served::start(s.home.path(), s.queue.dir(), &[]);
    let first = served.sign_in_path();
    let signed = served.get(&first, &[]);
    assert_eq!(signed.status, 303);
    let cookie = signed.header("set-cookie").unwrap();
    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(cookie.contains(attribute), "{cookie}");
    }
    assert_eq!(
        signed.header("location"),
        Some("/"),
        "the token leaves the address bar"
    );
    let reused = served.get(&first, &[]);
    assert_eq!(reused.status, 401, "a link works once: {reused:?}");
    assert!(!reused.body.contains(&first[first.find('=').unwrap() + 1..]));
    let next = served.sign_in_path();
    assert_ne!(next, first, "a new link for the next device");
    let mode = std::os::unix::fs::PermissionsExt::mode(
        &std::fs::metadata(&served.url_file).unwrap().permissions(),
    );
    assert_eq!(mode & 0o777, 0o600);
    assert_eq!(served.get(&next, &[]).status, 303);
}

#[test]
fn nothing_is_shown_or_done_without_a_session() {
    let s = setting();
    s.queue
        .submit(&queued_ask("secret-ask", "The secret prompt", 1))
        .unwrap();
    let served = Served::start(s.home.path(), s.queue.dir(), &[]);
    for path in ["/", "/ask/secret-ask", "/events"] {
        let response = served.get(path, &[("Cookie", "pi_ask_session=guessed")]);
        assert_eq!(response.status, 401, "{path}");
        assert!(!response.body.contains("secret prompt"), "{path}");
    }
    let origin = served.origin();
    let declined = served.request(
        "POST",
        "/ask/secret-ask/decline",
        &[("Origin", &origin)],
        "",
    );
    assert_eq!(declined.status, 401);
    assert_eq!(s.queue.pending().len(), 1, "the ask still waits");
}

#[test]
fn requests_from_another_site_or_host_are_refused_whatever_they_ask() {
    let s = setting();
    s.queue.submit(&queued_ask("a1", "Deploy?", 1)).unwrap();
    let served = Served::start(s.home.path(), s.queue.dir(), &[]);
    let cookie = served.sign_in();
    let evil = [
        ("Cookie", cookie.as_str()),
        ("Origin", "http://evil.example"),
    ];
    assert_eq!(served.get("/", &evil).status, 403);
    assert_eq!(served.get("/events", &evil).status, 403);
    let declined = served.request("POST", "/ask/a1/decline", &evil, "");
    assert_eq!(declined.status, 403);
    let pressed = served.request("POST", "/ask/a1", &evil, "tab=0&act=pick:0");
    assert_eq!(pressed.status, 403);
    assert_eq!(
        served
            .get("/", &[("Cookie", &cookie), ("Origin", "null")])
            .status,
        403
    );
    // DNS rebinding: the browser thinks it talks to the attacker's name.
    let port = served.address.rsplit(':').next().unwrap().to_owned();
    let rebound = format!("attacker.example:{port}");
    let response = served.get("/", &[("Cookie", &cookie), ("Host", &rebound)]);
    assert_eq!(response.status, 403);
    assert!(!response.body.contains("Deploy?"));
    assert_eq!(s.queue.pending().len(), 1, "nothing was answered");
    // Its own origin passes; a name given with --allow-host too.
    let own = served.origin();
    assert_eq!(
        served
            .get("/", &[("Cookie", &cookie), ("Origin", &own)])
            .status,
        200
    );
    drop(served);
    let served = Served::start(
        s.home.path(),
        s.queue.dir(),
        &["--allow-host", "laptop.example"],
    );
    let cookie = served.sign_in();
    let host = format!(
        "laptop.example:{}",
        served.address.rsplit(':').next().unwrap()
    );
    assert_eq!(
        served
            .get("/", &[("Cookie", &cookie), ("Host", &host)])
            .status,
        200
    );
}

#[test]
fn no_script_from_a_payload_reaches_the_page() {
    let s = setting();
    let hostile = "<script>alert(1)</script><img src=x onerror=alert(2)>[x](javascript:alert(3))";
    let mut ask = queued_ask("h1", hostile, 1);
    ask.payload = json!({"title": hostile, "questions":[{"id":"q","type":"preview","prompt":hostile,"options":[
        {"value":"a","label":hostile,"description":hostile,"preview":hostile},
        {"value":"b","label":"B"}]}]});
    ask.client = hostile.to_owned();
    s.queue.submit(&ask).unwrap();
    let served = Served::start(s.home.path(), s.queue.dir(), &[]);
    let cookie = served.sign_in();
    std::thread::sleep(std::time::Duration::from_millis(100));
    for path in ["/", "/ask/h1"] {
        let response = served.get(path, &[("Cookie", &cookie)]);
        assert_eq!(response.status, 200, "{path}");
        let body = response.body.to_ascii_lowercase();
        // Escaped, the hostile text is only text; inside a tag nothing of it may stand.
        for tag in tags(&body) {
            for bad in ["<script>", "<img", "onerror", "javascript:"] {
                assert!(!tag.contains(bad), "{bad} in the tag {tag} on {path}");
            }
        }
        assert_eq!(
            body.matches("<script").count(),
            1,
            "only the page's own script"
        );
        let csp = response.header("content-security-policy").unwrap();
        assert!(
            csp.contains("default-src 'none'") && csp.contains("script-src 'self'"),
            "{csp}"
        );
        assert_eq!(response.header("x-content-type-options"), Some("nosniff"));
        assert_eq!(response.header("referrer-policy"), Some("same-origin"));
    }
}

/// The tags of an HTML text (`<…>`), as a browser's tokenizer would start them.
fn tags(html: &str) -> Vec<&str> {
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find('<') {
        let end = rest[start..]
            .find('>')
            .map_or(rest.len(), |e| start + e + 1);
        found.push(&rest[start..end]);
        rest = &rest[end..];
    }
    found
}

#[test]
fn a_press_that_is_not_understood_is_refused_and_loses_nothing() {
    let s = setting();
    s.queue.submit(&queued_ask("b1", "Deploy?", 1)).unwrap();
    let served = Served::start(s.home.path(), s.queue.dir(), &[]);
    let cookie = served.sign_in();
    served.press(&cookie, "b1", "tab=0&act=qnote&qnote=careful");
    for body in ["", "tab=0&act=rm+-rf", "tab=x&act=next", "\u{0}\u{ff}"] {
        let response = served.press(&cookie, "b1", body);
        assert_eq!(response.status, 400, "{body:?}");
    }
    let page = served.get("/ask/b1", &[("Cookie", &cookie)]);
    assert!(page.body.contains("careful"), "the note is still there");
    let huge = format!("tab=0&act=own&own={}", "a".repeat(2 * 1024 * 1024));
    assert_eq!(served.press(&cookie, "b1", &huge).status, 413);
    assert_eq!(s.queue.pending().len(), 1);
}

/// The page's filter box asks the engine: what it answers is the terminal filter's ranking
/// (fuzzy, on the description too, labels first), and what is not a filter is refused.
#[test]
fn the_filter_is_the_engines_ranking() {
    let s = setting();
    let mut ask = queued_ask("f1", "Which region?", 1);
    ask.payload = json!({"questions":[{"id":"r","prompt":"Which region?","options":[
        {"value":"fra","label":"Frankfurt"},
        {"value":"war","label":"Warsaw","description":"nearest to Kyiv"},
        {"value":"lon","label":"London"},
        {"value":"kyi","label":"Kyiv"}
    ]}]});
    s.queue.submit(&ask).unwrap();
    let served = Served::start(s.home.path(), s.queue.dir(), &[]);
    let cookie = served.sign_in();
    let headers = [("Cookie", cookie.as_str())];
    let matches = |tab: &str, q: &str| {
        let response = served.get(&format!("/ask/f1/filter?tab={tab}&q={q}"), &headers);
        let shown = (response.status == 200)
            .then(|| serde_json::from_str::<Value>(&response.body).unwrap()["shown"].clone());
        (response.status, shown)
    };
    // Not open yet: nothing to rank.
    assert_eq!(matches("0", "kyiv").0, 400);
    assert_eq!(served.get("/ask/f1", &headers).status, 200);
    assert_eq!(
        matches("0", "kyiv"),
        (200, Some(json!([3, 1]))),
        "label first"
    );
    assert_eq!(matches("0", "frnk"), (200, Some(json!([0]))), "fuzzy");
    assert_eq!(matches("0", ""), (200, Some(json!([0, 1, 2, 3]))));
    assert_eq!(matches("1", "kyiv").0, 400, "the review has no options");
    assert_eq!(matches("x", "kyiv").0, 400);
    assert_eq!(matches("0", &"a".repeat(201)).0, 400);
    assert_eq!(matches("0", &"a".repeat(200)), (200, Some(json!([]))));
    // Without a session, nothing is ranked.
    assert_ne!(served.get("/ask/f1/filter?tab=0&q=kyiv", &[]).status, 200);
    assert_eq!(s.queue.pending().len(), 1, "filtering answers nothing");
}

#[test]
fn later_and_decline_from_the_list() {
    let s = setting();
    s.queue.submit(&queued_ask("first", "First?", 1)).unwrap();
    s.queue.submit(&queued_ask("second", "Second?", 2)).unwrap();
    let served = Served::start(s.home.path(), s.queue.dir(), &[]);
    let cookie = served.sign_in();
    let origin = served.origin();
    let headers = [("Cookie", cookie.as_str()), ("Origin", origin.as_str())];
    let later = served.request("POST", "/ask/first/later", &headers, "");
    assert_eq!(later.status, 303);
    let list = served.get("/", &[("Cookie", &cookie)]).body;
    let (second, first) = (list.find("Second?").unwrap(), list.find("First?").unwrap());
    assert!(second < first, "left for later goes last: {list}");
    assert!(list.contains("left for later"));
    let declined = served.request("POST", "/ask/second/decline", &headers, "");
    assert_eq!(declined.status, 200);
    let answer = wait_answer(&s.queue, "second");
    assert_eq!(answer["details"]["cancelled"], true);
    assert!(
        answer["content"][0]["text"]
            .as_str()
            .unwrap()
            .contains("declined"),
        "{answer}"
    );
}

#[test]
fn the_first_answer_wins_between_a_terminal_inbox_and_the_page() {
    let s = setting();
    s.queue.submit(&queued_ask("race", "Deploy?", 1)).unwrap();
    let served = Served::start(s.home.path(), s.queue.dir(), &[]);
    let cookie = served.sign_in();
    // The page opens the ask and a choice is made there…
    served.press(&cookie, "race", "tab=0&act=qnote&qnote=from+the+page");
    // …while a terminal inbox (this process, as `pi-ask inbox` does) opens it too: it claims it.
    let claim = s
        .queue
        .claim("race")
        .unwrap()
        .expect("the terminal's claim");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    let page = loop {
        let page = served.get("/ask/race", &[("Cookie", &cookie)]).body;
        if page.contains("Open in another inbox") || std::time::Instant::now() > deadline {
            break page;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(page.contains("Open in another inbox"), "{page}");
    // A press on the page now claims nothing and sends nothing.
    let late = served.press(&cookie, "race", "tab=0&act=pick:1");
    assert!(late.body.contains("Open in another inbox"), "{}", late.body);
    // The terminal answers: that answer is the one the asker gets, once.
    let answer = json!({"content":[{"type":"text","text":"from the terminal"}],"details":{"cancelled":false}});
    s.queue.answer(claim, &answer).unwrap();
    assert_eq!(wait_answer(&s.queue, "race"), answer);
    let after = served.get("/ask/race", &[("Cookie", &cookie)]).body;
    assert!(
        after.contains("Answered elsewhere") || after.contains("Open in another inbox"),
        "{after}"
    );
}

#[test]
fn a_thousand_waiting_asks_are_listed() {
    let s = setting();
    for n in 0..1000u64 {
        s.queue
            .submit(&queued_ask(
                &format!("ask-{n:04}"),
                &format!("Question {n}?"),
                n,
            ))
            .unwrap();
    }
    let served = Served::start(s.home.path(), s.queue.dir(), &[]);
    let cookie = served.sign_in();
    let list = served.get("/", &[("Cookie", &cookie)]);
    assert_eq!(list.status, 200);
    assert_eq!(list.body.matches("<li>").count(), 1000);
    assert!(list.body.contains("<title>(1000) Waiting asks"));
}

#[test]
fn status_and_doctor_say_where_the_page_serves() {
    let s = setting();
    let served = Served::start(s.home.path(), s.queue.dir(), &[]);
    let status = std::process::Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .args(["inbox", "--status", "--queue"])
        .arg(s.queue.dir())
        .env("HOME", s.home.path())
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&status.stdout);
    assert!(
        text.contains(&format!("web page: serving at {}", served.origin())),
        "{text}"
    );
    assert!(status.status.success(), "the page watches: {text}");
}

/// One HTTP request a stand-in server took: its request line, headers and body.
struct Taken {
    line: String,
    headers: Vec<(String, String)>,
    body: String,
}

/// A stand-in for ntfy on a free port: takes one request, answers 200, hands it over.
fn stand_in() -> (String, std::sync::mpsc::Receiver<Taken>) {
    use std::io::{BufRead, BufReader, Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let Ok((stream, _)) = listener.accept() else {
            return;
        };
        let mut reader = BufReader::new(stream.try_clone().unwrap());
        let mut line = String::new();
        reader.read_line(&mut line).unwrap();
        let mut headers = Vec::new();
        loop {
            let mut header = String::new();
            reader.read_line(&mut header).unwrap();
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some((n, v)) = header.split_once(':') {
                headers.push((n.trim().to_ascii_lowercase(), v.trim().to_owned()));
            }
        }
        let length: usize = headers
            .iter()
            .find(|(n, _)| n == "content-length")
            .map_or(0, |(_, v)| v.parse().unwrap());
        let mut body = vec![0; length];
        reader.read_exact(&mut body).unwrap();
        let mut stream = stream;
        let _ = stream
            .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}");
        let _ = tx.send(Taken {
            line: line.trim_end().to_owned(),
            headers,
            body: String::from_utf8_lossy(&body).into_owned(),
        });
    });
    (address, rx)
}

/// The config block docs/web.md gives for ntfy, as written there.
fn ntfy_recipe() -> String {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/docs/web.md")).unwrap();
    let after = &doc[doc.find("<!-- ntfy-recipe").expect("the recipe's marker")..];
    let block = &after[after.find("```toml\n").unwrap() + 8..];
    block[..block.find("```").unwrap()].to_owned()
}

#[test]
fn a_new_ask_reaches_a_phone_through_the_documented_ntfy_recipe() {
    if std::process::Command::new("curl")
        .arg("--version")
        .output()
        .is_err()
    {
        return common::not_run("curl is not installed");
    }
    let s = setting();
    let (address, taken) = stand_in();
    let config = s.home.path().join(".pi/agent/extensions");
    std::fs::create_dir_all(&config).unwrap();
    // The block added to a config (every config starts with its schema version).
    let toml = format!("schemaVersion = 1\n\n{}", ntfy_recipe());
    std::fs::write(config.join("pi-ask.toml"), toml).unwrap();
    let topic = s.home.path().join(".config/pi-ask");
    std::fs::create_dir_all(&topic).unwrap();
    std::fs::write(
        topic.join("ntfy-topic-url"),
        format!("http://{address}/pi-ask-0123456789abcdef0123456789abcdef\n"),
    )
    .unwrap();
    let _served = Served::start(
        s.home.path(),
        s.queue.dir(),
        &["--public-url", "http://phone.example:9000/"],
    );
    s.queue
        .submit(&queued_ask("pushed", "Deploy now?", 1))
        .unwrap();
    let request = taken
        .recv_timeout(std::time::Duration::from_secs(15))
        .expect("the stand-in for ntfy was told");
    assert_eq!(
        request.line,
        "POST /pi-ask-0123456789abcdef0123456789abcdef HTTP/1.1"
    );
    let header = |name: &str| {
        request
            .headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    let page = "http://phone.example:9000/ask/pushed";
    assert_eq!(header("title"), "pi-ask");
    assert_eq!(header("click"), page);
    assert_eq!(header("actions"), format!("view, Answer, {page}"));
    assert_eq!(
        request.body,
        "Question waiting from claude-code: Deploy now?"
    );
}

#[test]
fn a_terminal_inbox_and_the_page_on_the_same_asks_answer_each_once_and_say_so() {
    use common::pty::Session;
    let s = setting();
    s.queue
        .submit(&queued_ask("w1", "First on the web?", 1))
        .unwrap();
    s.queue
        .submit(&queued_ask("w2", "Second in the terminal?", 2))
        .unwrap();
    let served = Served::start(s.home.path(), s.queue.dir(), &[]);
    let cookie = served.sign_in();
    let queue_dir = s.queue.dir().to_str().unwrap().to_owned();
    let mut inbox = Session::start(&["inbox", "--no-history", "--queue", &queue_dir], |_| {});
    inbox.wait_for("pi-ask inbox · 2 asks waiting");
    // The page answers the first: the terminal's list says one went elsewhere.
    served.answer(&cookie, "w1", &["tab=0&act=pick:0", "tab=1&act=submit"]);
    assert_eq!(
        wait_answer(&s.queue, "w1")["details"]["answers"]["env"]["values"][0],
        "staging"
    );
    inbox.wait_for("1 ask waiting · 1 answered elsewhere or withdrawn");
    // The terminal opens the second (it claims it): the page says so and sends nothing.
    served.press(&cookie, "w2", "tab=0&act=qnote&qnote=typed+on+the+page");
    inbox.send("\r");
    inbox.wait_for("Type your own");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        let page = served.get("/ask/w2", &[("Cookie", &cookie)]).body;
        if page.contains("Open in another inbox") {
            break;
        }
        assert!(std::time::Instant::now() < deadline, "{page}");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let refused = served.press(&cookie, "w2", "tab=0&act=pick:0");
    assert!(
        refused.body.contains("Open in another inbox"),
        "{}",
        refused.body
    );
    inbox.send("2");
    inbox.wait_for("Review");
    inbox.send("\r");
    let answer = wait_answer(&s.queue, "w2");
    assert_eq!(
        answer["details"]["answers"]["env"]["values"][0], "prod",
        "the terminal's, once"
    );
    assert!(
        answer["details"]["answers"]["env"].get("note").is_none(),
        "{answer}"
    );
    let after = served.get("/ask/w2", &[("Cookie", &cookie)]).body;
    assert!(after.contains("Answered elsewhere"), "{after}");
}

#[test]
fn a_page_without_its_script_posts_and_is_sent_back_to_the_ask() {
    let s = setting();
    s.queue.submit(&queued_ask("plain", "Deploy?", 1)).unwrap();
    let served = Served::start(s.home.path(), s.queue.dir(), &[]);
    let cookie = served.sign_in();
    let origin = served.origin();
    let headers = [("Cookie", cookie.as_str()), ("Origin", origin.as_str())];
    // The checked box and the button, as a form without a script sends them.
    let chosen = served.request("POST", "/ask/plain", &headers, "tab=0&opt=1&act=choose");
    assert_eq!(chosen.status, 303);
    assert_eq!(chosen.header("location"), Some("/ask/plain"));
    let review = served.get("/ask/plain", &[("Cookie", &cookie)]).body;
    assert!(
        review.contains("Review answers") && review.contains("Production"),
        "{review}"
    );
    let odd = served.request("POST", "/ask/..%2F%0d%0aX:%20y", &headers, "tab=0&act=next");
    assert_eq!(odd.header("location"), Some("/"), "{odd:?}");
    // The page's forms carry the version of the ask they drew; the press that ends the ask is
    // told at once what became of it (a look at the ask's page later cannot tell whose it was).
    let (_, seen) = common::web::drawn_version(&review).expect("a form page");
    let sent = served.request(
        "POST",
        "/ask/plain",
        &headers,
        &format!("tab=1&act=submit&seen={seen}"),
    );
    assert_eq!(sent.status, 200, "{sent:?}");
    assert!(sent.body.contains("The agent has your answer"), "{sent:?}");
    assert_eq!(
        wait_answer(&s.queue, "plain")["details"]["answers"]["env"]["values"][0],
        "prod"
    );
}

#[test]
fn a_signal_stops_the_page_and_loses_nothing() {
    let s = setting();
    s.queue.submit(&queued_ask("kept", "Deploy?", 1)).unwrap();
    let mut served = Served::start(s.home.path(), s.queue.dir(), &[]);
    let cookie = served.sign_in();
    let noted = served.press(&cookie, "kept", "tab=0&act=qnote&qnote=half+typed+thought");
    assert_eq!(noted.status, 200);
    let pid = served.child.id() as i32;
    unsafe { libc::kill(pid, libc::SIGTERM) };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    let status = loop {
        if let Some(status) = served.child.try_wait().unwrap() {
            break status;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "pi-ask serve did not stop"
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    assert!(status.success(), "{status:?}");
    // The ask still waits for the next inbox; nobody is said to watch any more.
    assert_eq!(s.queue.pending().len(), 1);
    assert!(s.queue.inboxes_watching().is_empty());
    assert!(s.queue.web_pages().is_empty());
    // What was typed on the page is in the history, as a terminal form's draft is.
    let history = s.home.path().join(".pi/agent/pi-ask/history.jsonl");
    let text = std::fs::read_to_string(history).unwrap();
    assert!(text.contains("half typed thought"), "{text}");
}

#[test]
fn without_a_terminal_the_link_needs_a_file() {
    let s = setting();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .args(["serve", "--listen", "127.0.0.1:0", "--queue"])
        .arg(s.queue.dir())
        .env("HOME", s.home.path())
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("--url-file FILE"), "{said}");
    assert!(!said.contains("token="), "no link in a log: {said}");
}

#[test]
fn listening_beyond_loopback_warns_and_names_ssh_forwarding() {
    let s = setting();
    let url_file = s.home.path().join("url");
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_pi-ask"))
        .args(["serve", "--listen", "0.0.0.0:0", "--url-file"])
        .arg(&url_file)
        .arg("--queue")
        .arg(s.queue.dir())
        .env("HOME", s.home.path())
        .stdin(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !std::fs::read_to_string(&url_file).is_ok_and(|t| t.ends_with('\n')) {
        assert!(std::time::Instant::now() < deadline, "no sign-in link");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
    let out = child.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("other machines can reach"), "{said}");
    assert!(said.contains("SSH port forwarding"), "{said}");
    assert!(
        said.contains("--allow-host"),
        "the link names 0.0.0.0: {said}"
    );
    assert!(!said.contains("token="), "no link in a log: {said}");
}

/// Two windows on one ask: a submit sends what its page showed, or nothing. A picks Staging and
/// sees it on the review; B, in another window, picks Production; A's submit from the page that
/// showed Staging is refused with the answers as they are now, and the agent has nothing until
/// A submits what A then sees.
#[test]
fn a_submit_from_a_page_another_window_changed_sends_nothing_and_shows_the_answers_now() {
    let s = setting();
    let served = Served::start(s.home.path(), s.queue.dir(), &[]);
    let a = served.sign_in();
    let b = served.sign_in();
    s.queue.submit(&queued_ask("both", "Deploy?", 1)).unwrap();
    let review = served.press(&a, "both", "tab=0&act=pick:0");
    assert!(
        review.body.contains("Review answers") && review.body.contains("Staging"),
        "{}",
        review.body
    );
    let (_, seen_by_a) = common::web::drawn_version(&review.body).expect("a form page");
    let changed = served.press(&b, "both", "tab=0&act=pick:1");
    assert!(changed.body.contains("Production"), "{}", changed.body);
    let refused = served.press(&a, "both", &format!("tab=1&act=submit&seen={seen_by_a}"));
    assert_eq!(refused.status, 200, "{}", refused.body);
    assert!(
        refused.body.contains("Nothing was sent")
            && refused.body.contains("Review answers")
            && refused.body.contains("Production"),
        "refused, with the answers as they are: {}",
        refused.body
    );
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert!(
        s.queue.take_result("both").is_none(),
        "nothing reached the agent"
    );
    // A submit that carries no version at all is refused the same way.
    let unversioned = served.request(
        "POST",
        "/ask/both",
        &[
            ("Cookie", a.as_str()),
            ("Origin", served.origin().as_str()),
            ("x-pi-ask-fragment", "1"),
        ],
        "tab=1&act=submit",
    );
    assert!(
        unversioned.body.contains("Nothing was sent"),
        "{}",
        unversioned.body
    );
    // A, now seeing Production, submits it.
    let (_, seen_now) = common::web::drawn_version(&unversioned.body).expect("a form page");
    let done = served.press(&a, "both", &format!("tab=1&act=submit&seen={seen_now}"));
    assert!(
        done.body.contains("The agent has your answer"),
        "{}",
        done.body
    );
    assert_eq!(
        wait_answer(&s.queue, "both")["details"]["answers"]["env"]["values"][0],
        "prod"
    );
}

/// Two windows press Submit at the same moment, ten times: one answer reaches the agent each
/// time, one page is told it has the answer and the other that its press sent nothing.
#[test]
fn two_submits_at_once_deliver_one_answer_and_tell_one_winner() {
    let s = setting();
    let served = Served::start(s.home.path(), s.queue.dir(), &[]);
    let a = served.sign_in();
    let b = served.sign_in();
    for round in 0..10 {
        let id = format!("race-{round}");
        s.queue.submit(&queued_ask(&id, "Deploy?", round)).unwrap();
        let review = served.press(&a, &id, "tab=0&act=pick:1");
        let (_, seen) = common::web::drawn_version(&review.body).expect("a form page");
        let press = format!("tab=1&act=submit&seen={seen}");
        let barrier = std::sync::Barrier::new(2);
        let pages: Vec<String> = std::thread::scope(|scope| {
            let presses: Vec<_> = [&a, &b]
                .into_iter()
                .map(|cookie| {
                    let (served, id, press, barrier) = (&served, &id, &press, &barrier);
                    scope.spawn(move || {
                        barrier.wait();
                        served.press(cookie, id, press).body
                    })
                })
                .collect();
            presses.into_iter().map(|p| p.join().unwrap()).collect()
        });
        let won = pages
            .iter()
            .filter(|p| p.contains("The agent has your answer"))
            .count();
        let lost = pages
            .iter()
            .filter(|p| p.contains("Answered in another window") && p.contains("sent nothing"))
            .count();
        assert_eq!((won, lost), (1, 1), "round {round}: {pages:#?}");
        assert_eq!(
            wait_answer(&s.queue, &id)["details"]["answers"]["env"]["values"][0],
            "prod"
        );
        assert!(s.queue.take_result(&id).is_none(), "one answer, once");
    }
}
