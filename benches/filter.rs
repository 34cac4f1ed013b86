//! Type-to-filter on 10,000 options: one typed character of the query through the binding table,
//! `update` (ranking every option with nucleo) and, in the frame bench, the view drawn at 200x60.
//! The character is taken back untimed between presses, so every timed press ranks from the same
//! two-letter query: among that query's matches only, since `reg` narrows `re`
//! (`model::filter::narrows`); the Backspace, untimed, ranks every option again.

mod support;

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use pi_ask::keys::{Named, RawKey};
use pi_ask::tui::App;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use support::key;

fn ten_thousand() -> App {
    let words = [
        "north", "south", "east", "west", "harbour", "ridge", "valley",
    ];
    let options: Vec<serde_json::Value> = (0..10_000)
        .map(|i| {
            serde_json::json!({
                "value": format!("site-{i}"),
                "label": format!("Site {} {} {i}", words[i % 7], words[(i / 7) % 7]),
                "description": format!("Region {} of the {} network", i % 13, words[(i / 3) % 7]),
            })
        })
        .collect();
    let payload = serde_json::json!({"questions": [{"id": "site", "prompt": "Which site?", "options": options}]});
    let mut app = support::app(&payload.to_string());
    app.handle_key(&key(RawKey::Char('/')));
    app.handle_key(&key(RawKey::Char('r')));
    app.handle_key(&key(RawKey::Char('e')));
    app
}

/// `iters` presses of `g` (query `reg`), each followed untimed by Backspace (back to `re`).
fn time_typing(app: &mut App, iters: u64, area: Option<Rect>) -> Duration {
    let mut buf = Buffer::empty(area.unwrap_or_default());
    if let Some(area) = area {
        app.draw(area, &mut buf);
    }
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        let start = Instant::now();
        std::hint::black_box(app.handle_key(&key(RawKey::Char('g'))));
        if let Some(area) = area {
            buf.reset();
            app.draw(area, &mut buf);
        }
        total += start.elapsed();
        app.handle_key(&key(RawKey::Named(Named::Backspace)));
    }
    assert!(app.model().filter().is_some(), "the filter stayed open");
    std::hint::black_box(&buf);
    total
}

fn filter(c: &mut Criterion) {
    let area = Rect::new(0, 0, 200, 60);
    c.bench_function("filter_key_10000_options_200x60", |b| {
        b.iter_custom(|iters| time_typing(&mut ten_thousand(), iters, Some(area)))
    });
    c.bench_function("filter_key_10000_options_update_only", |b| {
        b.iter_custom(|iters| time_typing(&mut ten_thousand(), iters, None))
    });
}

criterion_group!(benches, filter);
criterion_main!(benches);
