//! The host's forms this server closed before the person answered there (its ask was settled
//! otherwise: answered in an inbox, timed out, withdrawn). rmcp drops a reply to a request it
//! cancelled; the person may still have answered, so such a reply is recognised on its way in
//! and said on standard error rather than lost in silence.

use std::sync::{Arc, Mutex};

use serde_json::Value;

/// Most closed forms remembered at once (each is one ask; older ones are forgotten first).
const REMEMBERED: usize = 1024;

/// The closed forms: each request's id (as JSON text) with the ask it was for, oldest first.
#[derive(Debug, Clone, Default)]
pub struct ClosedForms(Arc<Mutex<Vec<(String, String)>>>);

impl ClosedForms {
    /// Form request `request_id` for ask `ask` was closed.
    pub fn closed(&self, request_id: &Value, ask: &str) {
        let mut forms = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if forms.len() >= REMEMBERED {
            forms.remove(0);
        }
        forms.push((request_id.to_string(), ask.to_owned()));
    }

    /// The ask a message answers when it is a reply to a closed form (each reply once).
    pub fn reply_to(&self, line: &[u8]) -> Option<String> {
        let mut forms = self.0.lock().unwrap_or_else(|e| e.into_inner());
        if forms.is_empty() {
            return None;
        }
        let message: Value = serde_json::from_slice(line).ok()?;
        if message.get("method").is_some() {
            return None;
        }
        let id = message.get("id")?.to_string();
        let at = forms.iter().position(|(closed, _)| *closed == id)?;
        Some(forms.remove(at).1)
    }

    /// Whether no form is remembered (nothing to look for in the client's messages).
    pub fn is_empty(&self) -> bool {
        self.0.lock().map_or(true, |forms| forms.is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn only_a_reply_to_a_closed_form_is_recognised_and_once() {
        let forms = ClosedForms::default();
        assert_eq!(
            forms.reply_to(br#"{"jsonrpc":"2.0","id":3,"result":{}}"#),
            None
        );
        forms.closed(&json!(3), "ask-a");
        assert_eq!(
            forms.reply_to(br#"{"jsonrpc":"2.0","id":3,"method":"x"}"#),
            None,
            "a request with that id is not a reply"
        );
        assert_eq!(forms.reply_to(b"not json"), None);
        assert_eq!(
            forms.reply_to(br#"{"jsonrpc":"2.0","id":3,"result":{"action":"accept"}}"#),
            Some("ask-a".to_owned())
        );
        assert_eq!(
            forms.reply_to(br#"{"jsonrpc":"2.0","id":3,"result":{}}"#),
            None
        );
        assert!(forms.is_empty());
    }
}
