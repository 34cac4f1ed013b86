//! One key press (Down) through the binding table, `update` and the view into a ratatui buffer,
//! on a 300-option question with descriptions at 200x60.

mod support;

use criterion::{Criterion, criterion_group, criterion_main};
use std::time::{Duration, Instant};

use pi_ask::engine::{Engine, Input, Viewport};
use pi_ask::engine::{Screen, Session};
use pi_ask::keys::{Named, RawKey, TerminalInput};
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

/// One frame at the area the engine's viewport gives.
fn frame(engine: &mut Engine, buf: &mut Buffer) {
    let area = engine.frame_area().expect("a viewport with frames");
    buf.resize(area);
    buf.reset();
    engine.render(area, buf);
}

/// An engine over `app` at `viewport`, its first frame drawn into the buffer returned with it.
fn drawn_engine(app: App, viewport: Viewport) -> (Engine, Buffer) {
    let session = Session::new(Screen::Flow(Box::new(app)), None, Box::new(|_, _| {}));
    let mut engine = Engine::new(session, viewport);
    let mut buf = Buffer::empty(Rect::default());
    frame(&mut engine, &mut buf);
    (engine, buf)
}

/// A named key, as the engine takes it from a terminal.
fn press(named: Named) -> Input {
    Input::Terminal(TerminalInput::Key(support::key(RawKey::Named(named))))
}

/// `iters` steps of `keys` Down presses each through the engine (the batch applied, then one frame
/// drawn at the area the viewport gives), as every driver now runs a key; back to the top untimed.
fn time_engine_steps(iters: u64, keys: usize, viewport: Viewport) -> Duration {
    let (mut engine, mut buf) = drawn_engine(app(), viewport);
    let now = Instant::now();
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        let cursor = engine.session().app().map_or(0, |a| a.model().cursor(0));
        if cursor + keys >= 290 {
            engine.step((0..cursor).map(|_| press(Named::Up)), now);
        }
        let start = Instant::now();
        std::hint::black_box(engine.step((0..keys).map(|_| press(Named::Down)), now));
        frame(&mut engine, &mut buf);
        total += start.elapsed();
    }
    std::hint::black_box(&buf);
    total
}

/// Keys through the engine: one key a step (measured by the frame before it, so no extra
/// drawing), in a fixed and an inline viewport (sized to the form, as the terminal's inline area
/// and an embedding host are), and two keys in one step (the second measured first, in a scratch
/// frame).
fn engine_steps(c: &mut Criterion) {
    let (width, height) = (200, 60);
    let fixed = Viewport::Fixed { width, height };
    let inline = Viewport::Inline { width, height };
    c.bench_function("down_key_300_options_engine_step_200x60", |b| {
        b.iter_custom(|iters| time_engine_steps(iters, 1, fixed))
    });
    c.bench_function("down_key_300_options_engine_step_inline_200x60", |b| {
        b.iter_custom(|iters| time_engine_steps(iters, 1, inline))
    });
    c.bench_function("two_down_keys_300_options_one_engine_step_200x60", |b| {
        b.iter_custom(|iters| time_engine_steps(iters, 2, fixed))
    });
}

/// A preview question whose three options each carry a long Markdown preview (headings, lists,
/// code) and a Markdown description.
fn preview_app() -> App {
    let section = |n: usize| {
        format!(
            "## Part {n}\n\nSome *prose* with `code` and a [link](https://example.com/{n}).\n\n- one\n- two\n  - nested\n\n```rust\nfn part_{n}() -> u32 {{ {n} }}\n```\n\n"
        )
    };
    let preview: String = (0..150).map(section).collect();
    let options: Vec<serde_json::Value> = ["a", "b", "c"]
        .iter()
        .map(|v| {
            serde_json::json!({"value": v, "label": format!("Layout {v}"),
                "description": format!("The **{v}** layout, with `code`."),
                "preview": format!("# Layout {v}\n\n{preview}")})
        })
        .collect();
    let payload = serde_json::json!({"questions": [{"id": "layout", "type": "preview",
        "prompt": "Which layout?", "options": options}]});
    support::app(&payload.to_string())
}

/// `iters` keys moving between the preview question's options (Down, Down, Up, Up, …) through
/// the engine, each followed by its frame: every frame lays out the highlighted option's pane.
fn time_preview_steps(iters: u64, viewport: Viewport) -> Duration {
    let (mut engine, mut buf) = drawn_engine(preview_app(), viewport);
    let now = Instant::now();
    let mut total = Duration::ZERO;
    for i in 0..iters {
        let key = if i % 4 < 2 { Named::Down } else { Named::Up };
        let start = Instant::now();
        std::hint::black_box(engine.step([press(key)], now));
        frame(&mut engine, &mut buf);
        total += start.elapsed();
    }
    std::hint::black_box(&buf);
    total
}

fn preview_steps(c: &mut Criterion) {
    let fixed = Viewport::Fixed {
        width: 200,
        height: 60,
    };
    c.bench_function(
        "option_key_long_markdown_previews_engine_step_200x60",
        |b| b.iter_custom(|iters| time_preview_steps(iters, fixed)),
    );
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

criterion_group!(
    benches,
    keypress,
    engine_steps,
    preview_steps,
    keypress_parts
);
criterion_main!(benches);
