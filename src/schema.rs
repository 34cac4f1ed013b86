//! The public JSON Schema of the `ask_user` input, for hosts that register the tool.

use serde_json::{Value, json};

/// The JSON Schema (draft 2020-12) of an `ask_user` payload. Structural rules only;
/// trimmed text, uniqueness, preview text and emptiness (at least one question, one option) are
/// checked by [`crate::input::validate_payload`], so a host that enforces the schema still lets an
/// empty list through to the contract's `invalid_input` result, with its issue and message, as
/// the original's schema does (no `minItems`).
pub fn input_schema() -> Value {
    json!({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "ask_user",
        "description": "Ask the user to resolve material requirement, preference, or authorization gaps after context review, or conduct explicitly requested interviews. Supports single, multi, and preview questions.",
        "type": "object",
        "required": ["questions"],
        "properties": {
            "title": { "type": "string", "description": "Optional form title." },
            "questions": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["id", "prompt", "options"],
                    "properties": {
                        "id": { "type": "string", "description": "Stable id, unique within the call." },
                        "label": { "type": "string", "description": "Short tab label; defaults to Q1, Q2, ..." },
                        "prompt": { "type": "string", "description": "The full question." },
                        "type": { "type": "string", "enum": ["single", "multi", "preview"], "default": "single" },
                        "required": { "type": "boolean", "default": false, "description": "Advisory only; never blocks submission." },
                        "options": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["value", "label"],
                                "properties": {
                                    "value": { "type": "string", "description": "Machine-readable value, unique within the question." },
                                    "label": { "type": "string" },
                                    "description": { "type": "string" },
                                    "preview": { "type": "string", "description": "Required on every option of a preview question." },
                                    "recommended": { "type": "boolean", "description": "Grounded recommendation marker; never preselected." }
                                }
                            }
                        }
                    }
                }
            }
        }
    })
}

/// The `ask_user` tool as pi registers it: name, label, description, the one-line
/// `promptSnippet`, the `promptGuidelines` bullets (each names the tool, since pi appends them
/// flat), and the parameters (the input schema without its `$schema` key). The pi extension
/// ships this as `pi-extension/tool.json`; a test keeps the two equal.
pub fn pi_tool() -> Value {
    json!({
        "name": "ask_user",
        "label": "Ask User",
        "description": "Ask the user to resolve material requirement, preference, or authorization gaps after context review, or conduct explicitly requested interviews. Supports single, multi, and preview questions; RPC uses sequential dialogs.",
        "promptSnippet": "Clarify ambiguous or preference-sensitive decisions with a short interactive interview before proceeding",
        "promptGuidelines": [
            "Read the available code, docs, conversation and earlier answers before calling ask_user; use ask_user only for a critical requirement still missing or conflicting, a preference that materially changes the outcome, or missing authorization for a consequential or hard-to-reverse action beyond the approved scope, or when the user explicitly asks to be interviewed.",
            "Do not use ask_user to reconfirm what the context already settles; resolve facts from evidence, proceed with reversible steps and ordinary implementation details, and state useful assumptions instead.",
            "Keep each ask_user question to one decision and ask only current blockers; when an answer asks for elaboration, answer that first. A cancelled or unanswered ask_user form is not approval.",
            "Give every ask_user question a stable unique id and every option a non-empty value and label; preview questions need a preview on every option. Mark an option recommended: true only for grounded preferences, and explain why in its description; a recommendation is never preselected.",
            "In RPC mode ask_user shows sequential dialogs with one choice or Type something… per question: do not promise notes, previews or a review tab there, and never read required or cancelled: false as approval."
        ],
        "parameters": parameters(),
    })
}

/// The input schema as a tool's `parameters` (without its `$schema` key, which tool APIs refuse).
pub fn parameters() -> Value {
    let mut schema = input_schema();
    if let Some(map) = schema.as_object_mut() {
        map.remove("$schema");
    }
    schema
}
