//! What the key benches share: timing Down presses down a long list, back to the top untimed.

use std::time::{Duration, Instant};

use pi_ask::keys::{KeyId, Mods, Named, RawKey};
use pi_ask::tui::App;
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

/// A flow on `payload` with default settings and keymaps.
pub fn app(payload: &str) -> App {
    let form = pi_ask::input::parse_payload(payload).unwrap();
    App::new(
        form,
        pi_ask::settings::Settings::defaults(),
        pi_ask::keymap::BindingTable::default(),
        String::new(),
        None,
    )
}

pub fn key(code: RawKey) -> KeyId {
    KeyId::from_raw(code, Mods::NONE).expect("a key with an id")
}

/// `iters` Down presses on the first question of `app`, each timed through the binding table and
/// `update`, and, with an `area`, the view drawn into a reset buffer of that size (as a frame is).
/// The cursor goes back to the top untimed, so every timed press really moves.
#[allow(dead_code)] // Not every bench presses Down.
pub fn time_down_presses(app: &mut App, iters: u64, area: Option<Rect>) -> Duration {
    time_presses(app, iters, area, false)
}

/// [`time_down_presses`] as the terminal runtime frames each press: the inline area sized to the
/// form's natural height at the width, then the frame drawn.
#[allow(dead_code)] // Not every bench presses Down.
pub fn time_sized_down_presses(app: &mut App, iters: u64, area: Rect) -> Duration {
    time_presses(app, iters, Some(area), true)
}

fn time_presses(app: &mut App, iters: u64, area: Option<Rect>, sized: bool) -> Duration {
    let mut buf = Buffer::empty(area.unwrap_or_default());
    if let Some(area) = area {
        app.draw(area, &mut buf);
    }
    let mut total = Duration::ZERO;
    for _ in 0..iters {
        if app.model().cursor(0) >= 290 {
            for _ in 0..290 {
                app.handle_key(&key(RawKey::Named(Named::Up)));
            }
        }
        let start = Instant::now();
        std::hint::black_box(app.handle_key(&key(RawKey::Named(Named::Down))));
        if let Some(area) = area {
            if sized {
                std::hint::black_box(app.natural_height(area.width));
            }
            buf.reset();
            app.draw(area, &mut buf);
        }
        total += start.elapsed();
    }
    std::hint::black_box(&buf);
    total
}
