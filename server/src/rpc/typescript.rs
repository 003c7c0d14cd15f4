//! TypeScript for the front end, generated from the Rust types of every procedure:
//! `app/src/generated/rpc-types.ts`. A test fails when the committed file is stale.

use core_wasm::NotificationFrequency;

use crate::rpc::registry::{self, Kind};
use crate::rpc::superjson::JsDate;

/// Where the generated file lives, relative to the repository root.
pub const GENERATED_PATH: &str = "app/src/generated/rpc-types.ts";

/// A Rust type that crosses to the browser: its TypeScript type expression. Named types
/// declare their interface in `gen` on first use.
pub trait Ts {
    fn ts(gen: &mut TsGen) -> String;
}

/// Collects named interfaces in the order they are first met.
#[derive(Debug, Default)]
pub struct TsGen {
    declarations: Vec<(String, Option<String>)>,
}

impl TsGen {
    /// Declares interface `name` once: `fields` runs only the first time.
    pub fn interface(
        &mut self,
        name: &str,
        fields: impl FnOnce(&mut TsGen) -> Vec<(String, String)>,
    ) {
        if self.declarations.iter().any(|(n, _)| n == name) {
            return;
        }
        let index = self.declarations.len();
        self.declarations.push((name.to_owned(), None));
        let fields = fields(self);
        let body: String = fields
            .iter()
            .map(|(field, ty)| format!("  {field}: {ty};\n"))
            .collect();
        self.declarations[index].1 = Some(format!("export interface {name} {{\n{body}}}\n"));
    }
}

/// `forename` → `forename`, `year_group` → `yearGroup`: serde's `rename_all = "camelCase"`.
pub fn camel_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut upper = false;
    for c in name.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            out.extend(c.to_uppercase());
            upper = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// Declares a wire struct: camelCase serde, and its [`Ts`] description from the same fields.
macro_rules! rpc_type {
    ($(#[$meta:meta])* pub struct $name:ident { $($(#[$fmeta:meta])* pub $field:ident : $ty:ty),* $(,)? }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
        #[serde(rename_all = "camelCase")]
        pub struct $name {
            $($(#[$fmeta])* pub $field: $ty),*
        }

        impl $crate::rpc::typescript::Ts for $name {
            fn ts(gen: &mut $crate::rpc::typescript::TsGen) -> String {
                gen.interface(stringify!($name), |_gen| {
                    vec![$((
                        $crate::rpc::typescript::camel_case(stringify!($field)),
                        <$ty as $crate::rpc::typescript::Ts>::ts(_gen),
                    )),*]
                });
                stringify!($name).to_owned()
            }
        }
    };
}
pub(crate) use rpc_type;

macro_rules! ts_primitive {
    ($($ty:ty => $ts:literal),* $(,)?) => {
        $(impl Ts for $ty {
            fn ts(_: &mut TsGen) -> String {
                $ts.to_owned()
            }
        })*
    };
}

ts_primitive!(
    String => "string",
    bool => "boolean",
    i32 => "number",
    i64 => "number",
    u32 => "number",
    f64 => "number",
    JsDate => "Date",
);

impl<T: Ts> Ts for Option<T> {
    fn ts(gen: &mut TsGen) -> String {
        format!("{} | null", T::ts(gen))
    }
}

impl<T: Ts> Ts for Vec<T> {
    fn ts(gen: &mut TsGen) -> String {
        format!("Array<{}>", T::ts(gen))
    }
}

impl Ts for NotificationFrequency {
    fn ts(_: &mut TsGen) -> String {
        NotificationFrequency::ALL
            .iter()
            .map(|f| format!("'{}'", f.as_str()))
            .collect::<Vec<_>>()
            .join(" | ")
    }
}

/// The whole generated file.
pub fn generate() -> String {
    let mut gen = TsGen::default();
    let mut procedures = String::new();
    for procedure in registry::procedures() {
        let (input, output) = (procedure.types)(&mut gen);
        let kind = match procedure.kind {
            Kind::Query => "query",
            Kind::Mutation => "mutation",
        };
        procedures.push_str(&format!(
            "  '{}': {{ kind: '{kind}'; input: {input}; output: {output} }};\n",
            procedure.path
        ));
    }
    let mut out = String::from(
        "// Generated from server/src/rpc by `cargo test -p voicemark-server --test it -- --ignored write_rpc_types`.\n\
         // Do not edit: change the Rust types and regenerate.\n\n",
    );
    for (_, declaration) in gen.declarations {
        if let Some(declaration) = declaration {
            out.push_str(&declaration);
            out.push('\n');
        }
    }
    out.push_str("/** Every procedure at /api/trpc: its kind, input and output. */\nexport interface RpcProcedures {\n");
    out.push_str(&procedures);
    out.push_str("}\n\nexport type RpcPath = keyof RpcProcedures;\n");
    out.push_str("export type RpcInput<P extends RpcPath> = RpcProcedures[P]['input'];\n");
    out.push_str("export type RpcOutput<P extends RpcPath> = RpcProcedures[P]['output'];\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn camel_case_matches_serde() {
        assert_eq!(camel_case("year_group"), "yearGroup");
        assert_eq!(camel_case("email_preferences"), "emailPreferences");
        assert_eq!(camel_case("ok"), "ok");
    }

    #[test]
    fn the_file_lists_every_procedure() {
        let file = generate();
        for procedure in registry::procedures() {
            assert!(
                file.contains(&format!("'{}':", procedure.path)),
                "{}",
                procedure.path
            );
        }
    }
}
