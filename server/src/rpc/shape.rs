//! The shape of a procedure's input, for tests that generate inputs (the fuzz test and the
//! cross-tenant sweep): objects with named fields, strings, numbers, booleans, dates, lists,
//! optional values and literal unions.
//!
//! It is read from the same [`Ts`](crate::rpc::typescript::Ts) description that generates
//! `rpc-types.ts`, so it cannot drift from the wire types, and a hand-written `Ts` impl
//! needs no second description. What the TypeScript says is what the browser may send.

use crate::rpc::registry::Procedure;
use crate::rpc::typescript::TsGen;

/// One input type, as the browser may send it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shape {
    /// No input (`void`): anything is accepted and ignored.
    Void,
    String,
    Number,
    Bool,
    /// A JavaScript `Date` (superjson's `Date` meta).
    Date,
    /// A literal: `'ADMIN'` (a quoted string) or `true` / `false` (JSON).
    Literal(serde_json::Value),
    /// `T | null`: optional on the wire.
    Nullable(Box<Shape>),
    Array(Box<Shape>),
    /// `Record<string, T>`.
    Map(Box<Shape>),
    /// An interface: its name and fields.
    Object {
        name: String,
        fields: Vec<Field>,
    },
    /// A union of other shapes (literal enums, `true | {complete: true}`).
    OneOf(Vec<Shape>),
    /// A TypeScript type this reader does not know; generators send `null`.
    Unknown(String),
}

/// One field of an object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// The wire (camelCase) name.
    pub name: String,
    /// Declared `name?`: may be left out.
    pub optional: bool,
    pub shape: Shape,
}

impl Procedure {
    /// The shape of this procedure's input.
    pub fn input_shape(&self) -> Shape {
        let mut gen = TsGen::default();
        let (input, _) = (self.types)(&mut gen);
        parse(&gen, &input, 0)
    }
}

impl Shape {
    /// Whether the value may be absent or `null`.
    pub fn is_nullable(&self) -> bool {
        matches!(self, Shape::Nullable(_) | Shape::Void)
    }
}

/// Interfaces referring to themselves stop here.
const MAX_DEPTH: usize = 8;

fn parse(gen: &TsGen, ts: &str, depth: usize) -> Shape {
    let ts = ts.trim();
    let parts = split_top(ts, '|');
    if parts.len() > 1 {
        let nullable = parts.contains(&"null");
        let rest: Vec<Shape> = parts
            .iter()
            .filter(|p| **p != "null")
            .map(|p| parse(gen, p, depth))
            .collect();
        let inner = if rest.len() == 1 {
            rest.into_iter().next().unwrap_or(Shape::Void)
        } else {
            Shape::OneOf(rest)
        };
        return if nullable {
            Shape::Nullable(Box::new(inner))
        } else {
            inner
        };
    }
    match ts {
        "void" | "undefined" => return Shape::Void,
        "string" => return Shape::String,
        "number" => return Shape::Number,
        "boolean" => return Shape::Bool,
        "Date" => return Shape::Date,
        "true" => return Shape::Literal(serde_json::Value::Bool(true)),
        "false" => return Shape::Literal(serde_json::Value::Bool(false)),
        _ => {}
    }
    if let Some(text) = ts.strip_prefix('\'').and_then(|t| t.strip_suffix('\'')) {
        return Shape::Literal(serde_json::Value::String(text.to_owned()));
    }
    if let Some(inner) = ts.strip_prefix("Array<").and_then(|t| t.strip_suffix('>')) {
        return Shape::Array(Box::new(parse(gen, inner, depth)));
    }
    if let Some(inner) = ts.strip_prefix("Record<").and_then(|t| t.strip_suffix('>')) {
        let value = split_top(inner, ',').get(1).copied().unwrap_or("string");
        return Shape::Map(Box::new(parse(gen, value, depth)));
    }
    match gen.fields_of(ts) {
        Some(fields) if depth < MAX_DEPTH => Shape::Object {
            name: ts.to_owned(),
            fields: fields
                .iter()
                .map(|(name, ty)| {
                    let (name, optional) = match name.strip_suffix('?') {
                        Some(name) => (name.to_owned(), true),
                        None => (name.clone(), false),
                    };
                    Field {
                        name,
                        optional,
                        shape: parse(gen, ty, depth + 1),
                    }
                })
                .collect(),
        },
        _ => Shape::Unknown(ts.to_owned()),
    }
}

/// Splits `ts` at `sep` outside `<>`, `{}` and quotes.
fn split_top(ts: &str, sep: char) -> Vec<&str> {
    let mut parts = Vec::new();
    let (mut depth, mut quoted, mut start) = (0i32, false, 0);
    for (i, c) in ts.char_indices() {
        match c {
            '\'' => quoted = !quoted,
            '<' | '{' | '(' if !quoted => depth += 1,
            '>' | '}' | ')' if !quoted => depth -= 1,
            c if c == sep && depth == 0 && !quoted => {
                parts.push(ts[start..i].trim());
                start = i + c.len_utf8();
            }
            _ => {}
        }
    }
    parts.push(ts[start..].trim());
    parts
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rpc::registry::{find, procedures};

    #[test]
    fn save_pupil_reads_as_an_object_with_typed_fields() {
        let shape = find("admin.savePupil").expect("registered").input_shape();
        let Shape::Object { fields, .. } = shape else {
            panic!("an object: {shape:?}");
        };
        let field = |n: &str| fields.iter().find(|f| f.name == n).expect(n).shape.clone();
        assert_eq!(field("forename"), Shape::String);
        assert_eq!(field("id"), Shape::Nullable(Box::new(Shape::String)));
        assert_eq!(field("classIds"), Shape::Array(Box::new(Shape::String)));
    }

    #[test]
    fn literal_unions_and_void_are_read() {
        let mut gen = TsGen::default();
        assert_eq!(
            parse(&gen, "'A' | 'B' | null", 0),
            Shape::Nullable(Box::new(Shape::OneOf(vec![
                Shape::Literal("A".into()),
                Shape::Literal("B".into())
            ])))
        );
        assert_eq!(parse(&gen, "void", 0), Shape::Void);
        gen.interface("T", |_| vec![("x?".into(), "number | null".into())]);
        let Shape::Object { fields, .. } = parse(&gen, "T", 0) else {
            panic!("object");
        };
        assert!(fields[0].optional);
    }

    #[test]
    fn every_procedure_has_a_known_input_shape() {
        fn unknown(shape: &Shape, out: &mut Vec<String>) {
            match shape {
                Shape::Unknown(ts) => out.push(ts.clone()),
                Shape::Nullable(s) | Shape::Array(s) | Shape::Map(s) => unknown(s, out),
                Shape::OneOf(all) => all.iter().for_each(|s| unknown(s, out)),
                Shape::Object { fields, .. } => fields.iter().for_each(|f| unknown(&f.shape, out)),
                _ => {}
            }
        }
        for procedure in procedures() {
            let mut found = Vec::new();
            unknown(&procedure.input_shape(), &mut found);
            assert!(found.is_empty(), "{}: {found:?}", procedure.path);
        }
    }
}
