//! Output helpers shared by `epd` and `ablate`: a small JSON value writer, CSV quoting,
//! Markdown tables and number formatting. Hand-written: the formats are simple, and it
//! keeps serde out of the build.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Duration;

use anyhow::{Context, Result};

/// A JSON value, written with [`Json::render`].
#[derive(Clone, Debug)]
pub enum Json {
    Null,
    Bool(bool),
    Int(i64),
    UInt(u64),
    Float(f64),
    Str(String),
    Array(Vec<Json>),
    Object(Vec<(&'static str, Json)>),
}

impl Json {
    pub fn str(s: impl Into<String>) -> Json {
        Json::Str(s.into())
    }

    /// `None` becomes `null`.
    pub fn opt<T>(value: Option<T>, f: impl FnOnce(T) -> Json) -> Json {
        value.map_or(Json::Null, f)
    }

    /// Pretty-printed with two-space indentation, objects one field per line.
    pub fn render(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, 0);
        out.push('\n');
        out
    }

    fn write(&self, out: &mut String, indent: usize) {
        match self {
            Json::Null => out.push_str("null"),
            Json::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
            Json::Int(n) => {
                let _ = write!(out, "{n}");
            }
            Json::UInt(n) => {
                let _ = write!(out, "{n}");
            }
            // JSON has no NaN or infinity.
            Json::Float(x) if !x.is_finite() => out.push_str("null"),
            Json::Float(x) => {
                let _ = write!(out, "{}", (x * 1000.0).round() / 1000.0);
            }
            Json::Str(s) => out.push_str(&json_string(s)),
            Json::Array(items) if items.is_empty() => out.push_str("[]"),
            Json::Array(items) => {
                // Arrays of scalars stay on one line; arrays of objects get a line each.
                let nested = items
                    .iter()
                    .any(|i| matches!(i, Json::Object(_) | Json::Array(_)));
                out.push('[');
                for (n, item) in items.iter().enumerate() {
                    if n > 0 {
                        out.push(',');
                        if !nested {
                            out.push(' ');
                        }
                    }
                    if nested {
                        newline(out, indent + 1);
                    }
                    item.write(out, indent + 1);
                }
                if nested {
                    newline(out, indent);
                }
                out.push(']');
            }
            Json::Object(fields) if fields.is_empty() => out.push_str("{}"),
            Json::Object(fields) => {
                out.push('{');
                for (n, (key, value)) in fields.iter().enumerate() {
                    if n > 0 {
                        out.push(',');
                    }
                    newline(out, indent + 1);
                    out.push_str(&json_string(key));
                    out.push_str(": ");
                    value.write(out, indent + 1);
                }
                newline(out, indent);
                out.push('}');
            }
        }
    }
}

fn newline(out: &mut String, indent: usize) {
    out.push('\n');
    for _ in 0..indent {
        out.push_str("  ");
    }
}

/// A JSON string literal.
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if u32::from(c) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// One CSV record (RFC 4180): fields with commas, quotes or line breaks are quoted.
pub fn csv_line<S: AsRef<str>>(fields: &[S]) -> String {
    let mut line = fields
        .iter()
        .map(|f| {
            let f = f.as_ref();
            if f.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", f.replace('"', "\"\""))
            } else {
                f.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(",");
    line.push('\n');
    line
}

/// A Markdown (GitHub) table; numeric columns are right-aligned.
pub struct MarkdownTable {
    header: Vec<String>,
    right: Vec<bool>,
    rows: Vec<Vec<String>>,
}

impl MarkdownTable {
    /// Columns as (title, right-aligned).
    pub fn new(columns: &[(&str, bool)]) -> MarkdownTable {
        MarkdownTable {
            header: columns.iter().map(|(t, _)| (*t).to_owned()).collect(),
            right: columns.iter().map(|(_, r)| *r).collect(),
            rows: Vec::new(),
        }
    }

    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// The table with columns padded, so it also reads well as plain text.
    pub fn render(&self) -> String {
        let width = |i: usize| {
            self.rows
                .iter()
                .filter_map(|r| r.get(i))
                .chain(std::iter::once(&self.header[i]))
                .map(|c| c.chars().count())
                .max()
                .unwrap_or(0)
                .max(3)
        };
        let widths: Vec<usize> = (0..self.header.len()).map(width).collect();
        let line = |cells: &[String]| {
            let mut out = String::from("|");
            for (i, w) in widths.iter().enumerate() {
                let cell = cells.get(i).map_or("", String::as_str);
                let pad = w.saturating_sub(cell.chars().count());
                if self.right[i] {
                    let _ = write!(out, " {}{cell} |", " ".repeat(pad));
                } else {
                    let _ = write!(out, " {cell}{} |", " ".repeat(pad));
                }
            }
            out.push('\n');
            out
        };
        let mut out = line(&self.header);
        out.push('|');
        for (i, w) in widths.iter().enumerate() {
            if self.right[i] {
                let _ = write!(out, " {}: |", "-".repeat(w - 1));
            } else {
                let _ = write!(out, " {} |", "-".repeat(*w));
            }
        }
        out.push('\n');
        for row in &self.rows {
            out.push_str(&line(row));
        }
        out
    }
}

/// `1234567` → `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Milliseconds as a float.
pub fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// A duration for people: `850 ms`, `12.3 s`, `4 min 05 s`.
pub fn human(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s < 0.01 {
        format!("{:.2} ms", s * 1000.0)
    } else if s < 1.0 {
        format!("{:.0} ms", s * 1000.0)
    } else if s < 100.0 {
        format!("{s:.1} s")
    } else {
        let total = s.round() as u64;
        format!("{} min {:02} s", total / 60, total % 60)
    }
}

/// Writes `contents` to `path`, naming the file in the error.
pub fn write_file(path: &Path, contents: &str) -> Result<()> {
    std::fs::write(path, contents).with_context(|| format!("cannot write {}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_escapes_and_nests() {
        let value = Json::Object(vec![
            ("a", Json::str("x\"y\\z\n\u{1}")),
            ("b", Json::Array(vec![Json::UInt(1), Json::Null])),
            ("c", Json::Float(f64::NAN)),
        ]);
        assert_eq!(
            value.render(),
            "{\n  \"a\": \"x\\\"y\\\\z\\n\\u0001\",\n  \"b\": [1, null],\n  \"c\": null\n}\n"
        );
    }

    #[test]
    fn csv_quotes_only_when_needed() {
        assert_eq!(csv_line(&["a", "b,c", "d\"e"]), "a,\"b,c\",\"d\"\"e\"\n");
    }

    #[test]
    fn thousands_groups() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }
}
