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

fn keypress(c: &mut Criterion) {
    let area = Rect::new(0, 0, 200, 60);
    c.bench_function("down_key_300_options_200x60", |b| {
        b.iter_custom(|iters| support::time_down_presses(&mut app(), iters, Some(area)))
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
