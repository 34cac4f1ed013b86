//! Every line the client sends gets an answer. rmcp drops a line it cannot read without a
//! reply (a lone UTF-16 surrogate, invalid UTF-8, nesting past serde_json's depth, trailing
//! garbage), or answers a duplicate `"id"` key without the id, so the client's call would wait
//! until its own timeout. Each line is checked before rmcp sees it: a lone surrogate escape (what
//! Node writes for a string cut inside an emoji) is repaired to U+FFFD, and a line that still does
//! not read is answered here with a JSON-RPC parse error addressed to its id when one is found.
//!
//! A *response* that does not read (a host's reply to pi-ask's own request, its form) is not
//! answered: rmcp is handed an error response for that id in its place
//! ([`unreadable_reply`]), so the request that waits on it ends, and the ask with it, instead of
//! waiting for a reply that was dropped.

use std::fmt;

use serde::de::{Deserializer, MapAccess, Visitor};
use serde_json::{Value, json};

/// What to do with one line.
#[derive(Debug, PartialEq)]
pub enum Checked {
    /// It reads: hand it to rmcp (repaired when it held lone surrogates).
    Pass(Vec<u8>),
    /// It does not: this error line is its answer, and why, for standard error.
    Refuse {
        /// The line as it came (for a reader that leaves the answer to rmcp).
        line: Vec<u8>,
        /// The JSON-RPC error line (`\n`-terminated).
        reply: Vec<u8>,
        /// What was wrong.
        why: String,
    },
    /// A response that does not read: this error response for its id goes to rmcp in its place.
    Unanswerable {
        /// The error response line (`\n`-terminated), as [`unreadable_reply`] writes it.
        instead: Vec<u8>,
        /// What was wrong.
        why: String,
    },
}

/// The error code of a reply pi-ask could not read (JSON-RPC's parse error).
pub const UNREADABLE_REPLY_CODE: i32 = -32700;

/// The key of the error's `data` that marks it as pi-ask's own (not one the host sent) and says
/// why.
pub const UNREADABLE_REPLY_MARK: &str = "piAskUnreadableReply";

/// The error response handed to rmcp in place of the response to request `id` that could not be
/// read, and `why`.
pub fn unreadable_reply(id: &Value, why: &str) -> Vec<u8> {
    let reply = json!({"jsonrpc": "2.0", "id": id, "error": {"code": UNREADABLE_REPLY_CODE,
        "message": format!("pi-ask could not read the host's reply: {why}"),
        "data": {UNREADABLE_REPLY_MARK: why}}});
    let mut line = reply.to_string().into_bytes();
    line.push(b'\n');
    line
}

/// [`unreadable_reply`] for a response of `bytes` bytes, over the `limit` read in one message.
pub fn oversized_reply_instead(id: &Value, bytes: u64, limit: usize) -> Vec<u8> {
    unreadable_reply(
        id,
        &format!("it is {bytes} bytes, over the {limit} bytes read in one message"),
    )
}

/// Why the reply could not be read, when `error` is [`unreadable_reply`]'s (not one the host
/// sent).
pub fn unreadable_reply_cause(error: &rmcp::ErrorData) -> Option<&str> {
    if error.code.0 != UNREADABLE_REPLY_CODE {
        return None;
    }
    error.data.as_ref()?.get(UNREADABLE_REPLY_MARK)?.as_str()
}

/// Checks one line (its `\n` included).
pub fn check(line: Vec<u8>) -> Checked {
    if line.iter().all(u8::is_ascii_whitespace) {
        return Checked::Pass(line);
    }
    let line = repair_lone_surrogates(line);
    match read(&line) {
        Ok(()) => Checked::Pass(line),
        Err(error) => {
            let why = error.to_string();
            let mut scanner = super::IdScanner::default();
            scanner.feed(&line);
            if let Some(answered) = scanner.response_id() {
                return Checked::Unanswerable {
                    instead: unreadable_reply(&answered, &why),
                    why,
                };
            }
            let id = scanner.request_id().unwrap_or(Value::Null);
            let reply = json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32700,
                "message": format!("pi-ask mcp could not read this message: {why}")}});
            let mut reply = reply.to_string().into_bytes();
            reply.push(b'\n');
            Checked::Refuse { line, reply, why }
        }
    }
}

/// Whether the line is one JSON value rmcp can read: valid JSON (depth included) and, for an
/// object, no top-level key twice (serde_json keeps the last, rmcp refuses the message).
fn read(line: &[u8]) -> Result<(), serde_json::Error> {
    let mut de = serde_json::Deserializer::from_slice(line);
    de.deserialize_any(Values { top: true })?;
    de.end()
}

/// Any value, read through `deserialize_any` all the way down so serde_json's nesting limit holds
/// as when rmcp reads it into a `Value` (`IgnoredAny` skips nesting without counting it).
struct Anything;

impl<'de> serde::Deserialize<'de> for Anything {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Anything, D::Error> {
        deserializer.deserialize_any(Values { top: false })?;
        Ok(Anything)
    }
}

/// The visitor of [`TopLevel`] (`top`) and of every value under it.
struct Values {
    top: bool,
}

impl<'de> Visitor<'de> for Values {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut keys: Vec<String> = Vec::new();
        while let Some(key) = map.next_key::<String>()? {
            if self.top {
                if keys.contains(&key) {
                    return Err(serde::de::Error::custom(format!("duplicate key {key:?}")));
                }
                keys.push(key);
            }
            map.next_value::<Anything>()?;
        }
        Ok(())
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element::<Anything>()?.is_some() {}
        Ok(())
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, _: &str) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
}

/// The line with each `\uD800`–`\uDFFF` escape that is not half of a pair replaced by `\uFFFD`
/// (inside strings only; an escaped backslash is not an escape). The line itself when it has none.
fn repair_lone_surrogates(line: Vec<u8>) -> Vec<u8> {
    let surrogate_at = |i: usize| -> Option<u16> {
        let hex = line.get(i + 2..i + 6)?;
        let unit = u16::from_str_radix(std::str::from_utf8(hex).ok()?, 16).ok()?;
        (line.get(i + 1) == Some(&b'u') && (0xD800..=0xDFFF).contains(&unit)).then_some(unit)
    };
    let mut lone: Vec<usize> = Vec::new();
    let (mut i, mut in_string) = (0, false);
    while i < line.len() {
        match line[i] {
            b'"' => in_string = !in_string,
            b'\\' if in_string => {
                if let Some(unit) = surrogate_at(i) {
                    let pair = (0xD800..0xDC00).contains(&unit)
                        && surrogate_at(i + 6).is_some_and(|low| low >= 0xDC00);
                    if pair {
                        i += 12;
                        continue;
                    }
                    lone.push(i);
                    i += 6;
                    continue;
                }
                // Any other escape: skip the escaped character.
                i += 2;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    if lone.is_empty() {
        return line;
    }
    let mut out = line.clone();
    for &at in &lone {
        out[at + 2..at + 6].copy_from_slice(b"fffd");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pass(line: &str) -> String {
        match check(line.as_bytes().to_vec()) {
            Checked::Pass(bytes) => String::from_utf8(bytes).unwrap(),
            other => panic!("{line}: {other:?}"),
        }
    }

    fn refused(line: &[u8]) -> Value {
        match check(line.to_vec()) {
            Checked::Refuse { reply, .. } => serde_json::from_slice(&reply).unwrap(),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn lone_surrogates_are_repaired_and_pairs_and_escaped_backslashes_kept() {
        assert_eq!(
            pass(r#"{"id":1,"method":"x","params":{"t":"cut \ud83d"}}"#),
            r#"{"id":1,"method":"x","params":{"t":"cut \ufffd"}}"#
        );
        assert_eq!(
            pass(r#"{"t":"\udc00 and \ud83d\ude80"}"#),
            r#"{"t":"\ufffd and \ud83d\ude80"}"#
        );
        assert_eq!(pass(r#"{"t":"\\ud83d"}"#), r#"{"t":"\\ud83d"}"#);
        assert_eq!(pass("[1,2]\n"), "[1,2]\n");
        assert_eq!(pass("  \n"), "  \n");
    }

    #[test]
    fn what_does_not_read_is_answered_by_its_id() {
        let deep = format!(
            r#"{{"jsonrpc":"2.0","id":7,"method":"x","params":{}{}}}"#,
            "[".repeat(200),
            "]".repeat(200)
        );
        for line in [
            deep.as_bytes(),
            br#"{"jsonrpc":"2.0","id":7,"method":"x"} trailing"#.as_slice(),
            b"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"x\",\"params\":{\"t\":\"\xff\"}}",
            br#"{"jsonrpc":"2.0","id":3,"method":"x","id":7}"#,
        ] {
            let reply = refused(line);
            assert_eq!(reply["id"], 7, "{reply}");
            assert_eq!(reply["error"]["code"], -32700);
        }
        assert_eq!(refused(b"not json")["id"], Value::Null);
    }

    #[test]
    fn a_response_that_does_not_read_becomes_an_error_response_for_rmcp() {
        let deep = format!(
            r#"{{"jsonrpc":"2.0","result":{{"content":{}}},"id":3}}"#,
            "[".repeat(300) + &"]".repeat(300)
        );
        let Checked::Unanswerable { instead, why } = check(deep.into_bytes()) else {
            panic!("a response was answered");
        };
        assert!(why.contains("recursion limit"), "{why}");
        let instead: Value = serde_json::from_slice(&instead).unwrap();
        assert_eq!(instead["id"], 3);
        let error: rmcp::ErrorData = serde_json::from_value(instead["error"].clone()).unwrap();
        assert_eq!(unreadable_reply_cause(&error), Some(why.as_str()));
        // The host's own error is not taken for it.
        let theirs: rmcp::ErrorData =
            serde_json::from_value(json!({"code": -32700, "message": "x"})).unwrap();
        assert_eq!(unreadable_reply_cause(&theirs), None);
    }
}
