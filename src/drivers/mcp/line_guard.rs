//! The bound on one JSON-RPC message read from the MCP client, with an answer for every request
//! that is over it.
//!
//! rmcp drops a line over its limit without a reply, so the client's call would wait forever.
//! Lines pass through this guard before rmcp sees them: a line within the limit goes on
//! unchanged; a longer one is never held in memory, only scanned as it streams past for its
//! request id, so the server can answer that id with an error that names the limit.

use serde_json::Value;

/// The most bytes of a request id kept while scanning (ids are numbers or short strings).
const MAX_ID_BYTES: usize = 256;
/// The most raw bytes of a top-level key decoded (`method` spelled with `\u` escapes fits).
const MAX_KEY_BYTES: usize = 64;

/// What the guard makes of the bytes fed to it, line by line.
#[derive(Debug, PartialEq)]
pub enum Piece {
    /// A whole line within the limit, its `\n` included.
    Line(Vec<u8>),
    /// A line over the limit, already dropped: its length and, when it was a request or a
    /// response, its id.
    Oversized {
        /// How long the line was.
        bytes: u64,
        /// The request's id, when it was a request.
        request: Option<Value>,
        /// The id it answers, when it was a response (a host's reply to pi-ask's own request).
        response: Option<Value>,
    },
}

/// Splits a byte stream into lines, passing those within `limit` bytes and replacing longer ones
/// by their size and request id. Memory stays within `limit` whatever the stream holds.
pub struct LineGuard {
    limit: usize,
    line: Vec<u8>,
    oversized: Option<(u64, IdScanner)>,
}

impl LineGuard {
    /// A guard passing lines of at most `limit` bytes, the `\n` included.
    pub fn new(limit: usize) -> LineGuard {
        LineGuard {
            limit,
            line: Vec::new(),
            oversized: None,
        }
    }

    /// Feeds the next bytes of the stream, adding each line they complete to `out`.
    pub fn feed(&mut self, mut bytes: &[u8], out: &mut Vec<Piece>) {
        while !bytes.is_empty() {
            let (part, ends_line) = match bytes.iter().position(|&b| b == b'\n') {
                Some(at) => (&bytes[..=at], true),
                None => (bytes, false),
            };
            bytes = &bytes[part.len()..];
            self.take(part);
            if ends_line {
                out.push(self.finish_line());
            }
        }
    }

    fn take(&mut self, part: &[u8]) {
        if let Some((bytes, scanner)) = &mut self.oversized {
            *bytes += part.len() as u64;
            scanner.feed(part);
        } else if self.line.len() + part.len() > self.limit {
            // Over the limit: what was kept is scanned once and let go, the rest only streams by.
            let mut scanner = IdScanner::default();
            scanner.feed(&self.line);
            scanner.feed(part);
            let bytes = (self.line.len() + part.len()) as u64;
            self.line = Vec::new();
            self.oversized = Some((bytes, scanner));
        } else {
            self.line.extend_from_slice(part);
        }
    }

    fn finish_line(&mut self) -> Piece {
        match self.oversized.take() {
            Some((bytes, scanner)) => Piece::Oversized {
                bytes,
                request: scanner.request_id(),
                response: scanner.response_id(),
            },
            None => Piece::Line(std::mem::take(&mut self.line)),
        }
    }
}

/// A top-level member's key, as far as the scan cares.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
enum Key {
    Id,
    Method,
    #[default]
    Other,
}

/// Where the scan stands in the top-level object.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
enum Expect {
    /// Nothing to note: inside a value, a nested object or between members.
    #[default]
    Nothing,
    /// A string just ended at the top level; a `:` next makes it this member's key.
    Colon(Key),
    /// A member's value comes next.
    Value(Key),
}

/// Finds the top-level `"id"` and `"method"` members of a JSON object as its bytes stream past,
/// holding no more than the id's few bytes. Well-formed JSON is read correctly; on anything else
/// it finds no request id, which only means no error reply can be addressed.
#[derive(Default)]
pub struct IdScanner {
    started: bool,
    gave_up: bool,
    depth: u32,
    in_string: bool,
    escaped: bool,
    /// The raw bytes of the top-level string being read (escapes undecoded), up to
    /// `MAX_KEY_BYTES` and one more (a longer one is no key that matters).
    string: Vec<u8>,
    expect: Expect,
    /// The id's bytes: `Some` from its first byte on.
    id: Option<Vec<u8>>,
    id_done: bool,
    has_method: bool,
}

impl IdScanner {
    /// Scans the next bytes.
    pub fn feed(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if self.gave_up {
                return;
            }
            self.step(b);
        }
    }

    /// The id of a request: a message with a `method` and a number or string `id`.
    pub fn request_id(&self) -> Option<Value> {
        self.has_method.then(|| self.id()).flatten()
    }

    /// The id a response answers: a message with a number or string `id` and no `method`.
    pub fn response_id(&self) -> Option<Value> {
        (!self.has_method).then(|| self.id()).flatten()
    }

    /// The top-level `id`, when it is a number or a string.
    fn id(&self) -> Option<Value> {
        if !self.id_done {
            return None;
        }
        match serde_json::from_slice::<Value>(self.id.as_deref()?).ok()? {
            id @ (Value::Number(_) | Value::String(_)) => Some(id),
            _ => None,
        }
    }

    fn step(&mut self, b: u8) {
        if let Some(id) = self.id.as_mut().filter(|_| !self.id_done) {
            if id[0] == b'"' {
                // A string id, to its closing quote.
                id.push(b);
                if self.escaped {
                    self.escaped = false;
                } else if b == b'\\' {
                    self.escaped = true;
                } else if b == b'"' {
                    self.id_done = true;
                }
                self.gave_up = id.len() > MAX_ID_BYTES;
                return;
            }
            if !(b == b',' || b == b'}' || b.is_ascii_whitespace()) {
                id.push(b);
                self.gave_up = id.len() > MAX_ID_BYTES;
                return;
            }
            // A number or literal ends at the byte after it, which the object still reads.
            self.id_done = true;
        }
        if self.in_string {
            self.string_byte(b);
            return;
        }
        if b.is_ascii_whitespace() {
            return;
        }
        if !self.started {
            self.started = true;
            self.gave_up = b != b'{';
            self.depth = 1;
            return;
        }
        if self.depth == 0 {
            return;
        }
        if self.depth == 1 {
            match std::mem::take(&mut self.expect) {
                Expect::Colon(key) if b == b':' => {
                    self.has_method |= key == Key::Method;
                    self.expect = Expect::Value(key);
                    return;
                }
                Expect::Value(Key::Id) => {
                    // An object or array is no id; a string or scalar is read above. A repeated
                    // `id` replaces the one before, as serde_json reads it.
                    self.gave_up = matches!(b, b'{' | b'[');
                    self.id = Some(vec![b]);
                    self.id_done = false;
                    return;
                }
                _ => {}
            }
        }
        match b {
            b'{' | b'[' => self.depth += 1,
            b'}' | b']' => self.depth -= 1,
            b'"' => {
                self.in_string = true;
                self.string.clear();
            }
            _ => {}
        }
    }

    /// One byte inside a string.
    fn string_byte(&mut self, b: u8) {
        let closing = !self.escaped && b == b'"';
        self.escaped = !self.escaped && b == b'\\';
        if !closing {
            // The raw bytes, escapes included, while short enough to be a key worth decoding.
            if self.depth == 1 && self.string.len() <= MAX_KEY_BYTES {
                self.string.push(b);
            }
            return;
        }
        self.in_string = false;
        if self.depth == 1 {
            // Decoded as JSON decodes it, so `"\u0069d"` is `id` and `"i\\d"` is not.
            let key = if self.string.len() > MAX_KEY_BYTES {
                Key::Other
            } else {
                let mut quoted = Vec::with_capacity(self.string.len() + 2);
                quoted.push(b'"');
                quoted.extend_from_slice(&self.string);
                quoted.push(b'"');
                match serde_json::from_slice::<String>(&quoted).as_deref() {
                    Ok("id") => Key::Id,
                    Ok("method") => Key::Method,
                    _ => Key::Other,
                }
            };
            self.expect = Expect::Colon(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use serde_json::json;

    fn pieces(limit: usize, chunks: &[&[u8]]) -> Vec<Piece> {
        let mut guard = LineGuard::new(limit);
        let mut out = Vec::new();
        for chunk in chunks {
            guard.feed(chunk, &mut out);
        }
        out
    }

    fn scan(text: &str) -> Option<Value> {
        let mut scanner = IdScanner::default();
        scanner.feed(text.as_bytes());
        scanner.request_id()
    }

    #[test]
    fn lines_within_the_limit_pass_unchanged_however_they_are_split() {
        let out = pieces(8, &[b"ab", b"c\nde", b"f\n\n12345678"]);
        assert_eq!(
            out,
            [
                Piece::Line(b"abc\n".to_vec()),
                Piece::Line(b"def\n".to_vec()),
                Piece::Line(b"\n".to_vec()),
            ]
        );
    }

    #[test]
    fn a_longer_line_is_dropped_and_reported_with_its_size_and_request_id() {
        let line = format!(
            r#"{{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{{"x":"{}"}}}}"#,
            "y".repeat(100)
        );
        let out = pieces(50, &[line.as_bytes(), b"\n", b"{\"ok\":1}\n"]);
        assert_eq!(
            out,
            [
                Piece::Oversized {
                    bytes: line.len() as u64 + 1,
                    request: Some(json!(7)),
                    response: None,
                },
                Piece::Line(b"{\"ok\":1}\n".to_vec()),
            ]
        );
    }

    #[test]
    fn the_guard_never_holds_more_than_its_limit() {
        let mut guard = LineGuard::new(1024);
        let mut out = Vec::new();
        guard.feed(br#"{"method":"m","params":""#, &mut out);
        for _ in 0..1000 {
            guard.feed(&[b'z'; 4096], &mut out);
            assert!(
                guard.line.capacity() <= 1024 * 2,
                "{}",
                guard.line.capacity()
            );
        }
        guard.feed(br#"","id":"last"}"#, &mut out);
        guard.feed(b"\n", &mut out);
        assert!(out.is_empty() || out.len() == 1);
        assert!(matches!(&out[..], [Piece::Oversized { request: Some(id), .. }] if id == "last"));
    }

    #[test]
    fn the_id_is_found_first_or_last_and_only_at_the_top_level() {
        assert_eq!(
            scan(r#"{"jsonrpc":"2.0","id":3,"method":"m"}"#),
            Some(json!(3))
        );
        // The official TypeScript SDK writes the id after the params.
        assert_eq!(
            scan(r#"{"method":"m","params":{"id":9,"t":"\"id\":8"},"jsonrpc":"2.0","id":"a\"b"}"#),
            Some(json!("a\"b"))
        );
        assert_eq!(
            scan(r#" { "method" : "m" , "id" : -12 } "#),
            Some(json!(-12))
        );
        assert_eq!(
            scan(r#"{"method":"m","params":["id",1],"id":2}"#),
            Some(json!(2))
        );
    }

    #[test]
    fn only_requests_have_an_id_to_answer() {
        // A notification, a response, an id that is not a number or string, not an object.
        assert_eq!(scan(r#"{"method":"notifications/x"}"#), None);
        assert_eq!(scan(r#"{"id":4,"result":{}}"#), None);
        assert_eq!(scan(r#"{"method":"m","id":null}"#), None);
        assert_eq!(scan(r#"{"method":"m","id":{"n":1}}"#), None);
        assert_eq!(scan(r#"[{"method":"m","id":1}]"#), None);
        // A value that reads "method" is not the key.
        assert_eq!(scan(r#"{"x":"method","id":1}"#), None);
        // An id longer than any real one.
        let long = format!(r#"{{"method":"m","id":"{}"}}"#, "x".repeat(MAX_ID_BYTES));
        assert_eq!(scan(&long), None);
    }

    #[test]
    fn a_response_names_the_id_it_answers_wherever_it_stands() {
        let answered = |text: &str| {
            let mut scanner = IdScanner::default();
            scanner.feed(text.as_bytes());
            (scanner.response_id(), scanner.request_id())
        };
        assert_eq!(answered(r#"{"id":4,"result":{}}"#), (Some(json!(4)), None));
        assert_eq!(
            answered(r#"{"result":{"id":9,"x":[[[]]]},"jsonrpc":"2.0","id":"r-1"}"#),
            (Some(json!("r-1")), None)
        );
        assert_eq!(answered(r#"{"id":4,"method":"m"}"#), (None, Some(json!(4))));
        assert_eq!(answered(r#"{"id":null,"error":{}}"#), (None, None));
    }

    proptest! {
        /// Any object with a method: the id the scanner finds is the one serde_json reads, and
        /// splitting the line anywhere changes nothing.
        #[test]
        fn the_scanner_agrees_with_serde_json(
            id in prop_oneof![
                proptest::num::i64::ANY.prop_map(Value::from),
                "[ -~]{0,20}".prop_map(Value::from),
            ],
            before in proptest::collection::vec(("[a-z\"\\\\:{}]{1,6}", "[ -~]{0,12}"), 0..4),
            after in proptest::collection::vec(("[a-z\"\\\\]{1,6}", "[ -~]{0,12}"), 0..4),
            split in 0usize..200,
        ) {
            let mut object = serde_json::Map::new();
            for (k, v) in &before {
                object.insert(k.clone(), json!({ "nested": v, "id": 0 }));
            }
            object.insert("method".into(), json!("tools/call"));
            object.insert("id".into(), id.clone());
            for (k, v) in &after {
                object.entry(k.clone()).or_insert(json!(v));
            }
            let line = serde_json::to_string(&Value::Object(object)).unwrap();
            let at = split.min(line.len());
            let mut scanner = IdScanner::default();
            scanner.feed(&line.as_bytes()[..at]);
            scanner.feed(&line.as_bytes()[at..]);
            prop_assert_eq!(scanner.request_id(), Some(id));
        }
    }
}
