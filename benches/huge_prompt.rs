//! A key on a question whose prompt is 50 MB (the trial: 3 s to the first frame, 1.6 s a key):
//! the frame's work follows what the screen shows, not the size of the text. The same for a
//! 50 MB preview.

// Shared with the key benches; this one uses only `app` and `key`.
#[allow(dead_code)]
mod support;

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use pi_ask::keys::{Named, RawKey};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

fn huge_prompt_payload() -> String {
    let words = "lorem ipsum dolor sit amet ".repeat(50 * 1024 * 1024 / 27);
    serde_json::json!({"questions": [{"id": "q", "prompt": words, "options": [
        {"value": "a", "label": "A"}, {"value": "b", "label": "B"}, {"value": "c", "label": "C"}]}]})
    .to_string()
}

/// One option whose preview is 50 MB of code-like lines (the pane lays out only what is read).
fn huge_preview_payload() -> String {
    let preview = "    let value = compute(input, options);\n".repeat(50 * 1024 * 1024 / 40);
    serde_json::json!({"questions": [{"id": "q", "type": "preview", "prompt": "Pick", "options": [
        {"value": "a", "label": "A", "preview": preview}, {"value": "b", "label": "B", "preview": "small"}]}]})
    .to_string()
}

fn huge_prompt(c: &mut Criterion) {
    let payload = huge_prompt_payload();
    let area = Rect::new(0, 0, 200, 60);
    let mut group = c.benchmark_group("huge_prompt");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(5));
    group.bench_function("first_frame_50mb_prompt_200x60", |b| {
        let mut app = support::app(&payload);
        let mut buf = Buffer::empty(area);
        b.iter(|| {
            buf.reset();
            app.draw(area, &mut buf);
        })
    });
    group.bench_function("down_key_50mb_prompt_200x60", |b| {
        let mut app = support::app(&payload);
        let mut buf = Buffer::empty(area);
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for i in 0..iters {
                let code = if i % 2 == 0 {
                    RawKey::Named(Named::Down)
                } else {
                    RawKey::Named(Named::Up)
                };
                let start = Instant::now();
                std::hint::black_box(app.handle_key(&support::key(code)));
                buf.reset();
                app.draw(area, &mut buf);
                total += start.elapsed();
            }
            total
        })
    });
    group.bench_function("first_frame_50mb_preview_200x60", |b| {
        let mut app = support::app(&huge_preview_payload());
        let mut buf = Buffer::empty(area);
        b.iter(|| {
            buf.reset();
            app.draw(area, &mut buf);
        })
    });
    group.finish();
}

criterion_group!(benches, huge_prompt);
criterion_main!(benches);
