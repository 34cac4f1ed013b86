//! The same promise over HTTP as [`super::stdio`] keeps: a client's reply to pi-ask's own request
//! (the host's form) that cannot be read still ends that request. rmcp refuses such a POST with a
//! 400 and forgets it, so the call waiting on the form would wait for a reply that never comes.
//! Each POST body is read here first (at most `limit` bytes kept, the rest only scanned for its
//! id): a response that does not read, or is over the limit, reaches rmcp as an error response for
//! its id ([`super::line_check::unreadable_reply`]); everything else passes as it came.

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;

use super::line_check::{Checked, check, oversized_reply_instead};

/// What a POST body becomes.
#[derive(Debug, PartialEq)]
pub enum Handed {
    /// Passed on: the body as it came (or repaired, as over stdio).
    Pass(Vec<u8>),
    /// A response that could not be read: this error response for its id instead.
    Instead(Vec<u8>),
    /// Over the limit and no response: refused (413), as a body that long is not read.
    TooLong,
}

/// What the body read (`kept`, the first `limit` bytes of `total`) is handed to rmcp as.
pub fn rewrite(kept: Vec<u8>, total: u64, limit: usize, scanner: &super::IdScanner) -> Handed {
    if total > limit as u64 {
        return match scanner.response_id() {
            Some(id) => Handed::Instead(oversized_reply_instead(&id, total, limit)),
            None => Handed::TooLong,
        };
    }
    match check(kept) {
        Checked::Pass(body) => Handed::Pass(body),
        // A request that does not read: rmcp answers it itself (its own 400).
        Checked::Refuse { line, .. } => Handed::Pass(line),
        Checked::Unanswerable { instead, .. } => Handed::Instead(instead),
    }
}

/// The middleware: POST bodies through [`rewrite`]; other requests untouched.
pub async fn guard(limit: usize, request: Request, next: Next) -> Response {
    if request.method() != Method::POST {
        return next.run(request).await;
    }
    let (mut parts, body) = request.into_parts();
    let mut body = body.into_data_stream();
    let mut kept = Vec::new();
    let mut total: u64 = 0;
    let mut scanner = super::IdScanner::default();
    while let Some(data) = body.next().await {
        let Ok(data) = data else {
            return (
                StatusCode::BAD_REQUEST,
                "pi-ask: the request body broke off",
            )
                .into_response();
        };
        total += data.len() as u64;
        scanner.feed(&data);
        let room = limit.saturating_sub(kept.len());
        kept.extend_from_slice(&data[..data.len().min(room)]);
    }
    let body = match rewrite(kept, total, limit, &scanner) {
        Handed::TooLong => {
            return (
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("pi-ask: a message may be at most {limit} bytes"),
            )
                .into_response();
        }
        Handed::Pass(body) => body,
        Handed::Instead(instead) => {
            crate::report::report(
                "a reply from the client could not be read; the request it answers ends with an error",
            );
            instead
        }
    };
    // The body is whole now: its length is known, and no longer chunked.
    parts.headers.remove(header::TRANSFER_ENCODING);
    parts.headers.remove(header::CONTENT_LENGTH);
    parts
        .headers
        .insert(header::CONTENT_LENGTH, body.len().into());
    next.run(Request::from_parts(parts, Body::from(Bytes::from(body))))
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scanned(body: &[u8]) -> super::super::IdScanner {
        let mut scanner = super::super::IdScanner::default();
        scanner.feed(body);
        scanner
    }

    #[test]
    fn an_unreadable_or_oversized_response_becomes_an_error_for_its_id() {
        let deep = format!(
            r#"{{"jsonrpc":"2.0","id":5,"result":{{"content":{}}}}}"#,
            "[".repeat(300) + &"]".repeat(300)
        );
        let body = deep.as_bytes().to_vec();
        let Handed::Instead(instead) =
            rewrite(body.clone(), body.len() as u64, 1 << 20, &scanned(&body))
        else {
            panic!("passed");
        };
        let instead: serde_json::Value = serde_json::from_slice(&instead).unwrap();
        assert_eq!(instead["id"], 5);
        // Over the limit: only the first bytes kept, the id found in the rest.
        let long =
            br#"{"jsonrpc":"2.0","result":{"content":{"env":"xxxxxxxxxxxxxxxxxxxx"}},"id":"r"}"#;
        let Handed::Instead(instead) =
            rewrite(long[..16].to_vec(), long.len() as u64, 16, &scanned(long))
        else {
            panic!("passed");
        };
        let instead: serde_json::Value = serde_json::from_slice(&instead).unwrap();
        assert_eq!(instead["id"], "r");
        assert!(
            instead["error"]["data"]["piAskUnreadableReply"]
                .as_str()
                .unwrap()
                .contains("over the 16 bytes")
        );
    }

    #[test]
    fn requests_and_readable_bodies_pass_as_they_came() {
        let call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#.to_vec();
        assert_eq!(
            rewrite(call.clone(), call.len() as u64, 1024, &scanned(&call)),
            Handed::Pass(call)
        );
        let long_call = br#"{"jsonrpc":"2.0","id":1,"method":"tools/call"}"#;
        assert_eq!(
            rewrite(
                long_call[..8].to_vec(),
                long_call.len() as u64,
                8,
                &scanned(long_call)
            ),
            Handed::TooLong
        );
    }
}
