//! One key press (Down) through the binding table, `update` and the view into a ratatui buffer,
//! on a 300-option question with descriptions at 200x60.

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use pi_ask::input::parse_payload;
use pi_ask::keymap::BindingTable;
use pi_ask::settings::Settings;
use pi_ask::tui::{App, view};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

fn app() -> App {
    let form = parse_payload(include_str!("../fixtures/payloads/many-options.json")).unwrap();
    App::new(
        form,
        Settings::defaults(),
        BindingTable::default(),
        String::new(),
        None,
    )
}

fn keypress(c: &mut Criterion) {
    let area = Rect::new(0, 0, 200, 60);
    let down = KeyEvent::new(KeyCode::Down, KeyModifiers::NONE);
    let up = KeyEvent::new(KeyCode::Up, KeyModifiers::NONE);
    c.bench_function("down_key_300_options_200x60", |b| {
        b.iter_custom(|iters| {
            let mut app = app();
            let mut buf = Buffer::empty(area);
            view::draw_into(&mut app, area, &mut buf);
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                if app.model().cursor(0) >= 290 {
                    // Back to the top, untimed, so every timed press really moves.
                    for _ in 0..290 {
                        app.handle_key(up);
                    }
                }
                let start = Instant::now();
                app.handle_key(down);
                buf.reset();
                view::draw_into(&mut app, area, &mut buf);
                total += start.elapsed();
            }
            std::hint::black_box(&buf);
            total
        })
    });
}

/// The parts of that press, measured apart: the key through the table and `update` alone, and the
/// floor every frame pays (resetting a 200x60 buffer, as ratatui does between frames).
fn keypress_parts(c: &mut Criterion) {
    let down = KeyEvent::new(KeyCode::Down, KeyModifiers::NONE);
    let up = KeyEvent::new(KeyCode::Up, KeyModifiers::NONE);
    c.bench_function("down_key_300_options_update_only", |b| {
        b.iter_custom(|iters| {
            let mut app = app();
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                if app.model().cursor(0) >= 290 {
                    for _ in 0..290 {
                        app.handle_key(up);
                    }
                }
                let start = Instant::now();
                std::hint::black_box(app.handle_key(down));
                total += start.elapsed();
            }
            total
        })
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
