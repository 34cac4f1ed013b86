//! The public JSON Schema of the `ask_user` input, for hosts that register the tool.

use serde_json::{Value, json};

/// The JSON Schema (draft 2020-12) of an `ask_user` payload. Structural rules only;
/// trimmed text, uniqueness and preview text are checked by [`crate::input::validate_payload`].
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
                "minItems": 1,
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
                            "minItems": 1,
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
