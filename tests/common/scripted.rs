//! A scripted model for the agent-host tests: an HTTP server on a free loopback port that answers
//! each request the host makes (the Anthropic Messages API, the OpenAI Responses API) with what
//! the test's script says, and hands the test every request it was sent.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};

use serde_json::Value;

/// One request the host sent.
#[derive(Debug, Clone)]
pub struct Request {
    /// The method and path (`POST /v1/messages`).
    pub line: String,
    /// The body as JSON (`null` when it is not).
    pub body: Value,
    /// The body as text.
    pub raw: String,
}

/// A reply: its content type and body.
pub struct Reply {
    /// `text/event-stream` or `application/json`.
    pub content_type: &'static str,
    /// The body.
    pub body: String,
}

impl Reply {
    /// A server-sent event stream of `(event, data)` pairs.
    pub fn events(events: &[(&str, Value)]) -> Reply {
        let mut body = String::new();
        for (name, data) in events {
            body.push_str(&format!("event: {name}\ndata: {data}\n\n"));
        }
        Reply {
            content_type: "text/event-stream",
            body,
        }
    }

    /// A server-sent event stream of `data:` lines only (the Gemini API's).
    pub fn data(events: &[Value]) -> Reply {
        let mut body = String::new();
        for data in events {
            body.push_str(&format!("data: {data}\r\n\r\n"));
        }
        Reply {
            content_type: "text/event-stream",
            body,
        }
    }

    /// A JSON body.
    pub fn json(value: &Value) -> Reply {
        Reply {
            content_type: "application/json",
            body: value.to_string(),
        }
    }
}

/// Serves `script` until the test ends: its base URL, and every request as it comes.
pub fn serve(
    script: impl Fn(&Request) -> Reply + Send + Sync + 'static,
) -> (String, Receiver<Request>) {
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    let (tx, rx) = channel();
    let tx = Arc::new(Mutex::new(tx));
    let script = Arc::new(script);
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { break };
            let tx = Arc::clone(&tx);
            let script = Arc::clone(&script);
            std::thread::spawn(move || answer(stream, &tx, &*script));
        }
    });
    (url, rx)
}

fn answer(stream: TcpStream, seen: &Mutex<Sender<Request>>, script: &dyn Fn(&Request) -> Reply) {
    let mut reader = BufReader::new(stream.try_clone().unwrap());
    let mut line = String::new();
    if reader.read_line(&mut line).is_err() {
        return;
    }
    let mut length = 0;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header).is_err() {
            return;
        }
        let header = header.trim_end();
        if header.is_empty() {
            break;
        }
        if let Some((name, value)) = header.split_once(':')
            && name.eq_ignore_ascii_case("content-length")
        {
            length = value.trim().parse().unwrap_or(0);
        }
    }
    let mut body = vec![0; length];
    let _ = reader.read_exact(&mut body);
    let request = Request {
        line: line
            .split_whitespace()
            .take(2)
            .collect::<Vec<_>>()
            .join(" "),
        body: serde_json::from_slice(&body).unwrap_or(Value::Null),
        raw: String::from_utf8_lossy(&body).into_owned(),
    };
    let reply = script(&request);
    let _ = seen.lock().unwrap().send(request);
    let mut stream = stream;
    let _ = write!(
        stream,
        "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{}",
        reply.content_type,
        reply.body.len(),
        reply.body
    );
}
