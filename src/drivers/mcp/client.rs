//! Who the client of a call is, read per request. Clients of MCP 2026-07-28 (Claude Code 2.1.332
//! among them) open with `server/discover` and never send `initialize`: their name, capabilities
//! and protocol version travel in each request's `_meta`. Older clients said them once, in
//! `initialize`. A request's own `_meta` wins; what it leaves out comes from `initialize`.

use rmcp::model::{ClientCapabilities, Implementation, ProtocolVersion};
use rmcp::service::{RequestContext, RoleServer};

/// The longest client name kept (the inbox shows it on one line).
const NAME_CHARS: usize = 120;

/// What pi-ask needs to know of a call's client.
#[derive(Debug, Clone, PartialEq)]
pub struct Client {
    /// How the inbox names it (`Claude Code 2.1.332`; "an MCP client" when it said nothing).
    pub name: String,
    /// It shows elicitation forms (the capability, with form mode or no mode named).
    pub shows_forms: bool,
    /// The protocol version it speaks, when known.
    pub version: Option<ProtocolVersion>,
}

/// How a host's form is described: the schema dialect of the client's protocol version.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dialect {
    /// 2025-11-25 and later: titled enums (`oneOf` of `const` + `title`), arrays of them.
    Titled,
    /// 2025-06-18: `enum` with `enumNames`, no arrays (a multi question is a text of choices).
    Legacy,
}

impl Client {
    /// The client of the request `context` belongs to.
    pub fn of(context: &RequestContext<RoleServer>) -> Client {
        let session = context.peer.peer_info();
        let info: Option<Implementation> = context
            .meta
            .client_info()
            .or_else(|| session.as_ref().map(|s| s.client_info.clone()));
        let capabilities: Option<ClientCapabilities> = context
            .meta
            .client_capabilities()
            .or_else(|| session.as_ref().map(|s| s.capabilities.clone()));
        let version = context
            .meta
            .protocol_version()
            .or_else(|| session.as_ref().map(|s| s.protocol_version.clone()));
        Client::from_parts(info.as_ref(), capabilities.as_ref(), version)
    }

    /// The client from what it said of itself.
    pub fn from_parts(
        info: Option<&Implementation>,
        capabilities: Option<&ClientCapabilities>,
        version: Option<ProtocolVersion>,
    ) -> Client {
        let name = info
            .map(|i| {
                // The title is the name a person knows ("Claude Code", not "claude-code").
                let shown = i.title.as_deref().filter(|t| !t.trim().is_empty());
                let name = format!("{} {}", shown.unwrap_or(&i.name), i.version);
                // The client says what it likes: the queue keeps a name, not a document.
                name.trim().chars().take(NAME_CHARS).collect::<String>()
            })
            .filter(|n| !n.is_empty())
            .unwrap_or_else(|| "an MCP client".to_owned());
        let shows_forms = capabilities
            .and_then(|c| c.elicitation.as_ref())
            .is_some_and(|e| e.form.is_some() || e.url.is_none());
        Client {
            name,
            shows_forms,
            version,
        }
    }

    /// It speaks 2026-07-28 or later: a call that needs the person's input returns
    /// `input_required` and is called again with the form's reply (Multi Round-Trip Requests),
    /// instead of the server sending `elicitation/create` while the call waits.
    pub fn round_trips(&self) -> bool {
        self.version
            .as_ref()
            .is_some_and(|v| v.as_str() >= ProtocolVersion::V_2026_07_28.as_str())
    }

    /// The schema dialect its forms take.
    pub fn dialect(&self) -> Dialect {
        match &self.version {
            Some(v) if v.as_str() < ProtocolVersion::V_2025_11_25.as_str() => Dialect::Legacy,
            _ => Dialect::Titled,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn implementation(value: serde_json::Value) -> Implementation {
        serde_json::from_value(value).unwrap()
    }

    fn capabilities(value: serde_json::Value) -> ClientCapabilities {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn the_title_names_the_client_and_forms_need_form_mode() {
        let claude = implementation(
            json!({"name": "claude-code", "title": "Claude Code", "version": "2.1.332"}),
        );
        let both = capabilities(json!({"elicitation": {"form": {}, "url": {}}}));
        let client = Client::from_parts(
            Some(&claude),
            Some(&both),
            Some(ProtocolVersion::V_2026_07_28),
        );
        assert_eq!(client.name, "Claude Code 2.1.332");
        assert!(client.shows_forms && client.round_trips());
        assert_eq!(client.dialect(), Dialect::Titled);
        let url_only = capabilities(json!({"elicitation": {"url": {}}}));
        assert!(!Client::from_parts(None, Some(&url_only), None).shows_forms);
        let plain = capabilities(json!({"elicitation": {}}));
        assert!(Client::from_parts(None, Some(&plain), None).shows_forms);
        assert!(!Client::from_parts(None, None, None).shows_forms);
        assert_eq!(Client::from_parts(None, None, None).name, "an MCP client");
        let long = implementation(json!({"name": "x".repeat(10_000), "version": "1"}));
        assert_eq!(
            Client::from_parts(Some(&long), None, None)
                .name
                .chars()
                .count(),
            NAME_CHARS
        );
    }

    #[test]
    fn older_protocols_take_the_legacy_form_and_no_round_trips() {
        let old = Client::from_parts(None, None, Some(ProtocolVersion::V_2025_06_18));
        assert_eq!(old.dialect(), Dialect::Legacy);
        assert!(!old.round_trips());
        let current = Client::from_parts(None, None, Some(ProtocolVersion::V_2025_11_25));
        assert_eq!(current.dialect(), Dialect::Titled);
        assert!(!current.round_trips());
    }
}
