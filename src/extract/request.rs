//! The extraction request written to a model command's standard input: plain text any model CLI
//! accepts as a prompt (documented in docs/history.md).

use crate::stores::pi_session::AssistantTurn;

/// What one attempt sends.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtractionRequest<'a> {
    /// The assistant's turn to extract questions from.
    pub turn: &'a AssistantTurn,
    /// After an invalid attempt: what was wrong and what the model said.
    pub retry: Option<(&'a str, &'a str)>,
}

/// The instructions, as the original gives them to its model.
const INSTRUCTIONS: &str = "\
You turn the questions an assistant message asks the user into one ask_user tool call.
Rules:
- Extract only questions that need the user's input. Ignore generic conversational prompts \
(\"How can I help?\", \"Let me know what you need\").
- Keep the order of the message. Use snake_case ids.
- type \"single\" when one choice answers the question, \"multi\" when several may, \"preview\" \
only when every option has a preview text to compare.
- Use only the choices the message states; add no filler options and no option that restates \
the question. Add a description only when it helps.
- When the user should type the answer, give the question exactly one option \
{\"value\":\"freeform\",\"label\":\"Type answer\",\"freeform\":true} and never mix it with \
other options.
- At most 4 options per question.
- Never add recommendation metadata.
- When there are no actionable questions, call ask_user with {\"questions\":[]}.
Reply with only this JSON object and nothing else:
{\"name\":\"ask_user\",\"arguments\":{\"title\":\"…\",\"questions\":[…]}}
The arguments follow this JSON Schema:
";

/// The whole request text.
pub fn request_text(request: &ExtractionRequest<'_>) -> String {
    let schema = serde_json::to_string(&crate::schema::input_schema()).unwrap_or_default();
    let mut out = format!("{INSTRUCTIONS}{schema}\n\n");
    if let Some((error, response)) = request.retry {
        out.push_str(&format!(
            "The previous extraction was invalid. Fix this issue:\n{error}\n\nPrevious extraction output:\n{response}\n\n"
        ));
    }
    if let Some(user) = &request.turn.previous_user {
        out.push_str(&format!(
            "<previous_user_message>\n{user}\n</previous_user_message>\n\n"
        ));
    }
    out.push_str(&format!(
        "<assistant_message>\n{}\n</assistant_message>\n\nCall ask_user exactly once with the questions from the assistant message.\n",
        request.turn.text
    ));
    out
}
