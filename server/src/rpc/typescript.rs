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

    /// Whether a field of this type may be left out (`name?:` in an interface).
    const OPTIONAL: bool = false;
}

/// A field's name in an interface: `name`, or `name?` when its type may be left out.
pub fn field_name<T: Ts>(name: &str) -> String {
    if T::OPTIONAL {
        format!("{}?", camel_case(name))
    } else {
        camel_case(name)
    }
}

/// Collects named interfaces in the order they are first met.
#[derive(Debug, Default)]
pub struct TsGen {
    /// Each interface's name and fields (field name, TypeScript type), in first-met order;
    /// `None` while its fields are being described.
    declarations: Vec<(String, Option<Fields>)>,
}

/// An interface's fields: (field name, TypeScript type).
type Fields = Vec<(String, String)>;

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
        self.declarations[index].1 = Some(fields);
    }

    /// The fields of interface `name`, once declared: what [`crate::rpc::shape`] reads.
    pub fn fields_of(&self, name: &str) -> Option<&[(String, String)]> {
        self.declarations
            .iter()
            .find(|(n, _)| n == name)
            .and_then(|(_, fields)| fields.as_deref())
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
                        $crate::rpc::typescript::field_name::<$ty>(stringify!($field)),
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
    std::sync::Arc<str> => "string",
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
    for (name, fields) in gen.declarations {
        if let Some(fields) = fields {
            let body: String = fields
                .iter()
                .map(|(field, ty)| format!("  {field}: {ty};\n"))
                .collect();
            out.push_str(&format!("export interface {name} {{\n{body}}}\n"));
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

/// Where the generated input limits live, relative to the repository root.
pub const LIMITS_PATH: &str = "app/src/generated/limits.ts";

/// The input limits of `core_wasm::limits` as TypeScript constants, for the forms' zod
/// schemas (which must be synchronous, so they cannot ask the core's worker). A test fails
/// when the committed file is stale.
pub fn generate_limits() -> String {
    use core_wasm::limits as l;
    let constants: [(&str, usize, &str); 22] = [
        (
            "MAX_TEXT_CHARS",
            l::MAX_TEXT_CHARS,
            "Longest text of any input field.",
        ),
        (
            "MAX_LIST_ITEMS",
            l::MAX_LIST_ITEMS,
            "Most items in any input list.",
        ),
        (
            "MAX_BATCH_CALLS",
            l::MAX_BATCH_CALLS,
            "Most calls in one tRPC batch (`maxItems`).",
        ),
        (
            "MAX_PERSON_NAME_CHARS",
            l::MAX_PERSON_NAME_CHARS,
            "Longest forename or surname.",
        ),
        (
            "MAX_UPN_CHARS",
            l::MAX_UPN_CHARS,
            "Longest UPN (an English UPN has 13).",
        ),
        (
            "MAX_EMAIL_CHARS",
            l::MAX_EMAIL_CHARS,
            "Longest e-mail address.",
        ),
        (
            "MAX_GROUP_NAME_CHARS",
            l::MAX_GROUP_NAME_CHARS,
            "Longest class, form or year group name.",
        ),
        (
            "MAX_TITLE_CHARS",
            l::MAX_TITLE_CHARS,
            "Longest notification title.",
        ),
        (
            "MAX_ORGANISATION_NAME_CHARS",
            l::MAX_ORGANISATION_NAME_CHARS,
            "Longest organisation name.",
        ),
        (
            "MAX_QUESTION_CHARS",
            l::MAX_QUESTION_CHARS,
            "Longest template question.",
        ),
        (
            "MAX_TEMPLATE_TAG_CHARS",
            l::MAX_TEMPLATE_TAG_CHARS,
            "Longest template tag (a task's tags take MAX_GROUP_NAME_CHARS).",
        ),
        (
            "MAX_ANSWER_CHARS",
            l::MAX_ANSWER_CHARS,
            "Longest answer to one question of a task.",
        ),
        (
            "MAX_INSTRUCTIONS_CHARS",
            l::MAX_INSTRUCTIONS_CHARS,
            "Longest report-generator instructions.",
        ),
        (
            "MAX_PROMPT_CHARS",
            l::MAX_PROMPT_CHARS,
            "Longest prompt of a photo analysis.",
        ),
        (
            "MAX_FEEDBACK_CHARS",
            l::MAX_FEEDBACK_CHARS,
            "Longest feedback on a submission.",
        ),
        (
            "MAX_COMMENT_CHARS",
            l::MAX_COMMENT_CHARS,
            "Longest comment on a pupil's profile.",
        ),
        (
            "MAX_SUBMISSION_CHARS",
            l::MAX_SUBMISSION_CHARS,
            "Longest written answer on the public submission page.",
        ),
        (
            "MAX_SUPPORT_SUBJECT_CHARS",
            l::MAX_SUPPORT_SUBJECT_CHARS,
            "Longest subject of a message to support.",
        ),
        (
            "MAX_SUPPORT_MESSAGE_CHARS",
            l::MAX_SUPPORT_MESSAGE_CHARS,
            "Longest message to support.",
        ),
        (
            "MAX_MIS_ID_CHARS",
            l::MAX_MIS_ID_CHARS,
            "Longest MIS school id (Wonde or Groupcall).",
        ),
        (
            "MAX_MIS_SECRET_CHARS",
            l::MAX_MIS_SECRET_CHARS,
            "Longest MIS token or secret.",
        ),
        (
            "MAX_INPUT_DEPTH",
            l::MAX_INPUT_DEPTH,
            "Deepest nesting of an input.",
        ),
    ];
    let mut out = String::from(
        "// Generated from core-wasm/src/limits.rs by `cargo test -p voicemark-server --test it -- --ignored write_limits`.\n\
         // Do not edit: change the core and regenerate.\n\n",
    );
    for (name, value, doc) in constants {
        out.push_str(&format!("/** {doc} */\nexport const {name} = {value}\n"));
    }
    out.push_str(&format!(
        "\n/** 'Use at most N characters.': the server's message for every length limit. */\n\
         export function tooLongMessage(max: number): string {{\n  return `Use at most ${{max}} characters.`\n}}\n\n\
         /** Whether `value`, trimmed as the server trims it, has at most `max` characters (code points, as Rust counts). */\n\
         export function fitsChars(value: string, max: number): boolean {{\n  return [...value.trim()].length <= max\n}}\n\n\
         /** 'Use at most N characters for each tag.': the message of a per-tag limit. */\n\
         export function tagTooLongMessage(max: number): string {{\n  return `Use at most ${{max}} characters for each tag.`\n}}\n\n\
         /** The server's message for a NUL character. */\nexport const NUL_MESSAGE = {:?}\n",
        l::NUL_MESSAGE
    ));
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
