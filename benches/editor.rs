//! Keys in heavy states, through the binding table, `update` and the view into a ratatui buffer
//! at 200x60: one typed character in an answer editor holding 1 MB of pasted text, and one Down
//! key on a preview question with 300 options (compared with the plain 300-option list in
//! `benches/keypress.rs`).

mod support;

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use pi_ask::keys::{Named, RawKey};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use support::key;

use support::app;

/// One single question whose only row is `Type your own`, so its answer editor is open at once.
fn free_form_payload() -> String {
    serde_json::json!({
        "questions": [{
            "id": "text", "label": "Text", "prompt": "Paste something",
            "type": "single",
            "options": [{"value": "a", "label": "A"}, {"value": "b", "label": "B"}]
        }]
    })
    .to_string()
}

fn preview_payload() -> String {
    let options: Vec<_> = (0..300)
        .map(|i| {
            let preview: String = (0..40)
                .map(|l| format!("line {l} of option {i}: some preview text to wrap\n"))
                .collect();
            serde_json::json!({
                "value": format!("v{i}"),
                "label": format!("Option number {i}"),
                "description": format!("What option {i} means, in a sentence long enough."),
                "preview": preview,
            })
        })
        .collect();
    serde_json::json!({
        "questions": [{"id": "p", "label": "P", "prompt": "Pick one", "type": "preview", "options": options}]
    })
    .to_string()
}

fn editor_char(c: &mut Criterion) {
    let area = Rect::new(0, 0, 200, 60);
    let pasted: String = "lorem ipsum dolor sit amet ".repeat(1_048_576 / 27 + 1);
    c.bench_function("typed_char_in_1mb_editor_200x60", |b| {
        b.iter_custom(|iters| {
            let mut app = app(&free_form_payload());
            // Down twice: onto `Type your own`, which opens the answer editor.
            app.handle_key(&key(RawKey::Named(Named::Down)));
            app.handle_key(&key(RawKey::Named(Named::Down)));
            assert!(app.model().editor().is_some(), "the answer editor is open");
            app.handle_paste(&pasted);
            let mut buf = Buffer::empty(area);
            app.draw(area, &mut buf);
            let mut total = Duration::ZERO;
            for i in 0..iters {
                let event = if i % 2 == 0 {
                    key(RawKey::Char('x'))
                } else {
                    key(RawKey::Named(Named::Backspace))
                };
                let start = Instant::now();
                app.handle_key(&event);
                buf.reset();
                app.draw(area, &mut buf);
                total += start.elapsed();
            }
            std::hint::black_box(&buf);
            total
        })
    });
}

fn preview_down(c: &mut Criterion) {
    let area = Rect::new(0, 0, 200, 60);
    let payload = preview_payload();
    c.bench_function("down_key_300_preview_options_200x60", |b| {
        b.iter_custom(|iters| support::time_down_presses(&mut app(&payload), iters, Some(area)))
    });
}

criterion_group!(benches, editor_char, preview_down);
criterion_main!(benches);
