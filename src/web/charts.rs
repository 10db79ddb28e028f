//! Small hand-written SVG charts for the reports: a bar chart (rake per
//! gaming day) and a step chart (jackpot balances over time). Every text is
//! escaped; each chart has a `viewBox`, a `<title>` and a `<desc>`, and each
//! bar or line its own `<title>` (read out by screen readers, shown on hover).

use chrono::NaiveDateTime;
use std::fmt::Write;

use crate::db::reports::{MarkKind, PoolMark};
use crate::domain::Money;

const WIDTH: f64 = 800.0;
const HEIGHT: f64 = 320.0;
const LEFT: f64 = 70.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 36.0;
const BOTTOM: f64 = 44.0;
/// Line colours (readable on white, distinguishable in grey).
const COLOURS: [&str; 6] = ["#0f5132", "#b3261e", "#1f4e99", "#c99a2e", "#6f42c1", "#5b6470"];

/// Text for XML content and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
    out
}

fn money(cents: i64) -> String {
    Money::from_cents(cents).to_string()
}

fn open(out: &mut String, id: &str, title: &str, desc: &str) {
    let _ = write!(
        out,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" class="chart" aria-labelledby="{id}-title {id}-desc" font-family="system-ui, sans-serif" font-size="12"><title id="{id}-title">{}</title><desc id="{id}-desc">{}</desc><rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/><text x="{LEFT}" y="22" font-size="15" font-weight="600" fill="#111">{}</text>"##,
        escape(title),
        escape(desc),
        escape(title)
    );
}

/// A "nice" top for an axis reaching `max` cents (1, 2 or 5 × a power of ten).
fn nice_top(max: i64) -> i64 {
    let max = max.max(100);
    let mut step = 1i64;
    while step.saturating_mul(10) <= max {
        step *= 10;
    }
    for m in [1, 2, 5, 10] {
        if step * m >= max {
            return step * m;
        }
    }
    step * 10
}

/// Horizontal grid lines and money labels from `low` to `high` cents.
fn y_axis(out: &mut String, low: i64, high: i64, y: &dyn Fn(i64) -> f64) {
    for i in 0..=4 {
        let value = low + (high - low) * i / 4;
        let at = y(value);
        let _ = write!(
            out,
            r##"<line x1="{LEFT}" x2="{:.1}" y1="{at:.1}" y2="{at:.1}" stroke="#d6d9de"/><text x="{:.1}" y="{:.1}" text-anchor="end" fill="#5b6470">{}</text>"##,
            WIDTH - RIGHT,
            LEFT - 6.0,
            at + 4.0,
            money(value)
        );
    }
}

/// One bar per entry (`label`, cents), in order; negative values draw no bar.
/// Bars carry `class="bar"`.
pub fn bar_chart(id: &str, title: &str, bars: &[(String, i64)]) -> String {
    let total: i64 = bars.iter().map(|b| b.1).sum();
    let desc = format!(
        "{} bars, from {} to {}; total {}",
        bars.len(),
        bars.first().map_or("", |b| b.0.as_str()),
        bars.last().map_or("", |b| b.0.as_str()),
        money(total)
    );
    let mut out = String::new();
    open(&mut out, id, title, &desc);
    let top = nice_top(bars.iter().map(|b| b.1).max().unwrap_or(0));
    let plot_h = HEIGHT - TOP - BOTTOM;
    let y = |v: i64| TOP + plot_h - (v.max(0) as f64 / top as f64) * plot_h;
    y_axis(&mut out, 0, top, &y);
    let slot = (WIDTH - LEFT - RIGHT) / bars.len().max(1) as f64;
    let label_every = bars.len().div_ceil(12).max(1);
    for (i, (label, value)) in bars.iter().enumerate() {
        let x = LEFT + slot * i as f64;
        let h = (TOP + plot_h - y(*value)).max(0.0);
        let _ = write!(
            out,
            r##"<rect class="bar" x="{:.1}" y="{:.1}" width="{:.1}" height="{h:.1}" fill="#0f5132"><title>{}: {}</title></rect>"##,
            x + slot * 0.1,
            y(*value),
            (slot * 0.8).max(0.5),
            escape(label),
            money(*value)
        );
        if i % label_every == 0 {
            let _ = write!(
                out,
                r##"<text x="{:.1}" y="{:.1}" text-anchor="middle" fill="#5b6470">{}</text>"##,
                x + slot / 2.0,
                HEIGHT - BOTTOM + 18.0,
                escape(label)
            );
        }
    }
    let _ = write!(
        out,
        r##"<line x1="{LEFT}" x2="{:.1}" y1="{:.1}" y2="{:.1}" stroke="#111"/></svg>"##,
        WIDTH - RIGHT,
        TOP + plot_h,
        TOP + plot_h
    );
    out
}

/// A series for `step_chart`: its name, the value at `start`, then (time,
/// value) after each change, and the events marked on its line.
pub struct Steps<'a> {
    pub name: &'a str,
    pub opening: i64,
    pub points: &'a [(NaiveDateTime, i64)],
    pub marks: &'a [PoolMark],
}

/// The least room (px) between two hits' labels; a hit closer to the last
/// one labelled keeps its marker and `<title>` only.
const LABEL_ROOM: f64 = 40.0;

/// A step line per series over [`start`, `end`] (UTC), its times written in
/// the zone `tz` (the casino's). Lines carry
/// `class="series"`; each mark a `<g class="mark hit">` (a red triangle) or
/// `<g class="mark seed">` (a green diamond) on the line at its time, with a
/// `<title>` naming it; hits with room for it a short label (`hit 3`) above.
/// A key in the corner says which marker is which.
pub fn step_chart(
    id: &str,
    title: &str,
    (start, end): (NaiveDateTime, NaiveDateTime),
    tz: chrono_tz::Tz,
    series: &[Steps],
) -> String {
    let local = |t: NaiveDateTime| t.and_utc().with_timezone(&tz).format("%Y-%m-%d %H:%M %Z").to_string();
    let desc = format!(
        "{} from {} to {}: {}",
        if series.len() == 1 { "one line" } else { "one line per pool" },
        local(start),
        local(end),
        series
            .iter()
            .map(|s| format!("{} ends at {}", s.name, money(s.points.last().map_or(s.opening, |p| p.1))))
            .collect::<Vec<_>>()
            .join("; ")
    );
    let mut out = String::new();
    open(&mut out, id, title, &desc);
    let values = series.iter().flat_map(|s| std::iter::once(s.opening).chain(s.points.iter().map(|p| p.1)));
    let (low, high) = values.fold((0i64, 0i64), |(lo, hi), v| (lo.min(v), hi.max(v)));
    let low = if low < 0 { -nice_top(-low) } else { 0 };
    let high = nice_top(high);
    let plot_h = HEIGHT - TOP - BOTTOM;
    let plot_w = WIDTH - LEFT - RIGHT;
    let y = |v: i64| TOP + plot_h - ((v - low) as f64 / (high - low) as f64) * plot_h;
    let span = (end - start).num_seconds().max(1) as f64;
    let x = |t: NaiveDateTime| LEFT + ((t - start).num_seconds() as f64 / span).clamp(0.0, 1.0) * plot_w;
    y_axis(&mut out, low, high, &y);
    let mut last_label: Option<f64> = None;
    if series.iter().any(|s| !s.marks.is_empty()) {
        let kx = WIDTH - RIGHT - 130.0;
        let _ = write!(
            out,
            r##"<g class="marks-key"><path d="M{:.1},{:.1} l-6,-10 h12 z" fill="#b3261e"/><text x="{:.1}" y="{:.1}" fill="#111">hit</text><path d="M{:.1},{:.1} l6,6 l-6,6 l-6,-6 z" fill="#0f5132"/><text x="{:.1}" y="{:.1}" fill="#111">seed</text></g>"##,
            kx,
            22.0,
            kx + 10.0,
            20.0,
            kx + 60.0,
            10.0,
            kx + 70.0,
            20.0
        );
    }
    for (t, anchor) in [(start, "start"), (end, "end")] {
        let _ = write!(
            out,
            r##"<text x="{:.1}" y="{:.1}" text-anchor="{anchor}" fill="#5b6470">{}</text>"##,
            x(t),
            HEIGHT - BOTTOM + 18.0,
            local(t)
        );
    }
    for (i, s) in series.iter().enumerate() {
        let colour = COLOURS[i % COLOURS.len()];
        let mut path = format!("M{:.1},{:.1}", x(start), y(s.opening));
        for (t, v) in s.points {
            let _ = write!(path, " H{:.1} V{:.1}", x(*t), y(*v));
        }
        let _ = write!(path, " H{:.1}", x(end));
        let last = s.points.last().map_or(s.opening, |p| p.1);
        let _ = write!(
            out,
            r##"<path class="series" d="{path}" fill="none" stroke="{colour}" stroke-width="2"><title>{}: {} to {}</title></path>"##,
            escape(s.name),
            money(s.opening),
            money(last)
        );
        let value_at = |t: NaiveDateTime| s.points.iter().take_while(|p| p.0 <= t).last().map_or(s.opening, |p| p.1);
        for m in s.marks {
            let (mx, my) = (x(m.at), y(value_at(m.at)));
            let (class, shape, short) = match m.kind {
                MarkKind::Hit => (
                    "hit",
                    format!(r##"<path d="M{:.1},{:.1} l-6,-10 h12 z" fill="#b3261e"/>"##, mx, my - 2.0),
                    m.label.split(':').next().unwrap_or("hit").to_string(),
                ),
                MarkKind::Seed => (
                    "seed",
                    format!(r##"<path d="M{mx:.1},{:.1} l6,6 l-6,6 l-6,-6 z" fill="#0f5132"/>"##, my - 6.0),
                    "seed".to_string(),
                ),
            };
            let _ = write!(
                out,
                r##"<g class="mark {class}" data-at="{}"><title>{}: {} at {}</title>{shape}"##,
                m.at.format("%Y-%m-%dT%H:%M:%S"),
                escape(s.name),
                escape(&m.label),
                local(m.at)
            );
            if m.kind == MarkKind::Hit && last_label.is_none_or(|at: f64| (mx - at).abs() >= LABEL_ROOM) {
                last_label = Some(mx);
                let ty = my - 15.0;
                let _ = write!(
                    out,
                    r##"<text x="{mx:.1}" y="{:.1}" text-anchor="middle" font-size="10" fill="#111">{}</text>"##,
                    ty.max(TOP),
                    escape(&short)
                );
            }
            out.push_str("</g>");
        }
        let ly = TOP + 14.0 + 16.0 * i as f64;
        let _ = write!(
            out,
            r##"<rect x="{:.1}" y="{:.1}" width="12" height="4" fill="{colour}"/><text x="{:.1}" y="{:.1}" fill="#111">{}</text>"##,
            LEFT + 10.0,
            ly - 4.0,
            LEFT + 28.0,
            ly,
            escape(s.name)
        );
    }
    out.push_str("</svg>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_text() {
        assert_eq!(escape(r#"<a & "b" 'c'>"#), "&lt;a &amp; &quot;b&quot; &#39;c&#39;&gt;");
    }

    #[test]
    fn one_bar_per_entry() {
        let bars: Vec<(String, i64)> = (1..=5).map(|d| (format!("2026-11-0{d}"), d * 150)).collect();
        let svg = bar_chart("rake", "Rake <per> day", &bars);
        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>"));
        assert_eq!(svg.matches(r#"class="bar""#).count(), 5);
        assert!(svg.contains("<title id=\"rake-title\">Rake &lt;per&gt; day</title>"));
        assert!(svg.contains("2026-11-05: 7.50"));
    }

    #[test]
    fn marks_each_hit_and_seed_on_the_line() {
        let t = |h: u32| chrono::NaiveDate::from_ymd_opt(2026, 11, 2).unwrap().and_hms_opt(h, 0, 0).unwrap();
        let points = [(t(12), 5_000)];
        let marks = [
            PoolMark { at: t(10), kind: MarkKind::Hit, label: "hit 7: 120.00, LA hand #4 (paid)".into() },
            PoolMark { at: t(10), kind: MarkKind::Seed, label: "seed 50.00".into() },
        ];
        let series = [Steps { name: "Main", opening: 12_000, points: &points, marks: &marks }];
        let svg = step_chart("j", "J", (t(0), t(23)), chrono_tz::UTC, &series);
        let macau = step_chart("j", "J", (t(0), t(23)), chrono_tz::Asia::Macau, &series);
        assert!(macau.contains("<title>Main: seed 50.00 at 2026-11-02 18:00 CST</title>"), "{macau}");
        assert_eq!(svg.matches(r#"<g class="mark hit""#).count(), 1);
        assert_eq!(svg.matches(r#"<g class="mark seed""#).count(), 1);
        assert!(svg.contains("<title>Main: hit 7: 120.00, LA hand #4 (paid) at 2026-11-02 10:00 UTC</title>"), "{svg}");
        assert!(svg.contains("<title>Main: seed 50.00 at 2026-11-02 10:00 UTC</title>"), "{svg}");
        assert!(svg.contains(">hit 7</text>"), "{svg}");
    }

    #[test]
    fn nice_tops() {
        assert_eq!(nice_top(0), 100);
        assert_eq!(nice_top(150), 200);
        assert_eq!(nice_top(4_999), 5_000);
        assert_eq!(nice_top(5_001), 10_000);
    }
}
