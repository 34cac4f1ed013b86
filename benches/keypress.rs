//! One key press (Down) through the binding table, `update` and the view into a ratatui buffer,
//! on a 300-option question with descriptions at 200x60.

mod support;

use criterion::{Criterion, criterion_group, criterion_main};
use pi_ask::tui::App;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

fn app() -> App {
    support::app(include_str!("../fixtures/payloads/many-options.json"))
}

/// The same 300 options with their descriptions written in Markdown (bold, code, a link).
fn markdown_app() -> App {
    let mut payload: serde_json::Value =
        serde_json::from_str(include_str!("../fixtures/payloads/many-options.json")).unwrap();
    for option in payload["questions"][0]["options"].as_array_mut().unwrap() {
        let value = option["value"].as_str().unwrap().to_owned();
        option["description"] = serde_json::Value::String(format!(
            "Description of **{value}**, with `inline code` and [a link](https://example.com/{value})."
        ));
    }
    support::app(&payload.to_string())
}

fn keypress(c: &mut Criterion) {
    let area = Rect::new(0, 0, 200, 60);
    c.bench_function("down_key_300_options_200x60", |b| {
        b.iter_custom(|iters| support::time_down_presses(&mut app(), iters, Some(area)))
    });
    c.bench_function("down_key_300_markdown_options_200x60", |b| {
        b.iter_custom(|iters| support::time_down_presses(&mut markdown_app(), iters, Some(area)))
    });
    // As the terminal runtime frames a key: sized to the form's natural height, then drawn.
    c.bench_function("down_key_300_options_sized_and_drawn_200x60", |b| {
        b.iter_custom(|iters| support::time_sized_down_presses(&mut app(), iters, area))
    });
}

/// The parts of that press, measured apart: the key through the table and `update` alone, and the
/// floor every frame pays (resetting a 200x60 buffer, as ratatui does between frames).
fn keypress_parts(c: &mut Criterion) {
    c.bench_function("down_key_300_options_update_only", |b| {
        b.iter_custom(|iters| support::time_down_presses(&mut app(), iters, None))
    });
    let area = Rect::new(0, 0, 200, 60);
    let mut buf = Buffer::empty(area);
    c.bench_function("buffer_reset_200x60", |b| {
        b.iter(|| {
            buf.reset();
            std::hint::black_box(&buf);
        })
    });
}

criterion_group!(benches, keypress, keypress_parts);
criterion_main!(benches);
