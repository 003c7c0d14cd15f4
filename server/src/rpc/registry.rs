//! The registry: every procedure's path, kind, handler and wire types, in path order.
//! Adding a procedure is one file under `rpc/<router>/` and one line here.

use futures_util::future::BoxFuture;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

use crate::rpc::context::Ctx;
use crate::rpc::error::{FieldErrors, RpcError, RpcResult};
use crate::rpc::idempotent;
use crate::rpc::typescript::{Ts, TsGen};
use crate::rpc::{
    account, admin, dashboard, feedback, notification, preferences, school, student, submission,
    system, user,
};

/// Queries answer GET; mutations answer POST.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Query,
    Mutation,
}

impl Kind {
    /// tRPC's name for the kind, as error messages spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Query => "query",
            Kind::Mutation => "mutation",
        }
    }

    /// The one HTTP method that may call this kind.
    pub fn method(self) -> &'static str {
        match self {
            Kind::Query => "GET",
            Kind::Mutation => "POST",
        }
    }
}

/// A call with its input already decoded from superjson; answers superjson text.
pub type Call = for<'a> fn(&'a Ctx, Value) -> BoxFuture<'a, RpcResult<crate::rpc::encoded::Encoded>>;

/// One entry of the registry.
pub struct Procedure {
    pub path: &'static str,
    pub kind: Kind,
    pub call: Call,
    /// The TypeScript of (input, output).
    pub types: fn(&mut TsGen) -> (String, String),
}

/// Registers `$module::handler` under `$path`.
macro_rules! procedure {
    ($kind:ident $path:literal => $($module:ident)::+) => {{
        fn call(
            ctx: &$crate::rpc::Ctx,
            input: ::serde_json::Value,
        ) -> ::futures_util::future::BoxFuture<'_, $crate::rpc::RpcResult<$crate::rpc::encoded::Encoded>> {
            Box::pin($crate::rpc::registry::run(ctx, input, $path, $($module)::+::handler))
        }
        fn types(gen: &mut $crate::rpc::typescript::TsGen) -> (String, String) {
            $crate::rpc::registry::ts_of(gen, $($module)::+::handler)
        }
        $crate::rpc::registry::Procedure {
            path: $path,
            kind: $crate::rpc::registry::Kind::$kind,
            call,
            types,
        }
    }};
}
pub(crate) use procedure;

/// Every procedure, sorted by path.
pub fn procedures() -> &'static [Procedure] {
    static PROCEDURES: std::sync::OnceLock<Vec<Procedure>> = std::sync::OnceLock::new();
    PROCEDURES.get_or_init(|| {
        let mut all = vec![
            procedure!(Query "dashboard.summary" => dashboard::summary),
            procedure!(Query "feedback.list" => feedback::list),
            procedure!(Query "feedback.listMore" => feedback::list_more),
            procedure!(Mutation "feedback.mark" => feedback::mark),
            procedure!(Mutation "feedback.release" => feedback::release),
            procedure!(Mutation "feedback.withdraw" => feedback::withdraw),
            procedure!(Query "school.admins" => school::admins),
            procedure!(Query "school.listStudents" => school::list_students),
            procedure!(Mutation "student.addComment" => student::add_comment),
            procedure!(Query "student.comments" => student::comments),
            procedure!(Mutation "student.deleteComment" => student::delete_comment),
            procedure!(Query "student.get" => student::get),
            procedure!(Query "student.timeline" => student::timeline),
            procedure!(Query "submission.public" => submission::public),
            procedure!(Mutation "submission.getDeepgramKey" => submission::get_deepgram_key),
            procedure!(Mutation "submission.submit" => submission::submit),
            procedure!(Query "system.features" => system::features),
            procedure!(Query "system.setup" => system::setup),
            procedure!(Query "system.support" => system::support),
            procedure!(Query "system.time" => system::time),
            procedure!(Mutation "user.createBillingPortalSession" => user::create_billing_portal_session),
            procedure!(Query "user.feedbackHubCount" => user::feedback_hub_count),
            procedure!(Query "user.listFiles" => user::list_files),
            procedure!(Mutation "user.markTutorialComplete" => user::mark_tutorial_complete),
            procedure!(Query "user.settings" => user::settings),
            procedure!(Mutation "user.updateEmailPreferences" => user::update_email_preferences),
            procedure!(Mutation "user.updateProfile" => user::update_profile),
            procedure!(Mutation "user.uploadFile" => user::upload_file),
        ];
        all.extend(account::procedures());
        all.extend(crate::rpc::ai::procedures());
        all.extend(crate::rpc::assistant::procedures());
        all.extend(crate::rpc::comment_bank::procedures());
        all.extend(crate::rpc::insights::procedures());
        all.extend(admin::procedures());
        all.extend(crate::rpc::leader::procedures());
        all.extend(notification::procedures());
        all.extend(preferences::procedures());
        all.extend(crate::rpc::microsoft::procedures());
        all.extend(crate::rpc::support::procedures());
        all.extend(crate::rpc::template::procedures());
        all.extend(crate::rpc::task::procedures());
        all.extend(crate::rpc::report::procedures());
        all.extend(crate::rpc::voice_note::procedures());
        all.extend(crate::rpc::task_content::procedures());
        all.extend(crate::rpc::organisation::procedures());
        all.extend(crate::rpc::upload::procedures());
        all.extend(user::procedures());
        all.sort_by_key(|p| p.path);
        all
    })
}

/// The procedure at `path`, if any.
pub fn find(path: &str) -> Option<&'static Procedure> {
    procedures().iter().find(|p| p.path == path)
}

/// Reads the typed input, runs the handler, encodes its output. A call with an
/// `idempotencyKey` runs with its path and request hash at hand ([`idempotent::Request`]).
pub(crate) async fn run<'a, In, Out, Fut>(
    ctx: &'a Ctx,
    input: Value,
    path: &'static str,
    handler: impl FnOnce(&'a Ctx, In) -> Fut,
) -> RpcResult<crate::rpc::encoded::Encoded>
where
    In: DeserializeOwned,
    Out: crate::rpc::encoded::RpcOutput,
    Fut: std::future::Future<Output = RpcResult<Out>>,
{
    let request = idempotent::Request::of(path, &input);
    let input = parse_input(input)?;
    let output = match request {
        Some(request) => idempotent::REQUEST.scope(request, handler(ctx, input)).await?,
        None => handler(ctx, input).await?,
    };
    output
        .into_encoded()
        .map_err(|e| RpcError::internal(format!("encoding the output: {e}")))
}

/// An input that does not fit its type: BAD_REQUEST naming the field that failed.
pub fn parse_input<In: DeserializeOwned>(input: Value) -> RpcResult<In> {
    serde_path_to_error::deserialize(input).map_err(|err| {
        let path = err.path().to_string();
        let message = err.into_inner().to_string();
        let mut fields = FieldErrors::default();
        if path == "." || path.is_empty() {
            fields.form_errors.push(message);
        } else {
            fields.add(&path, message);
        }
        match fields.into_result() {
            Err(err) => err,
            Ok(()) => RpcError::bad_request("Invalid input"),
        }
    })
}

pub(crate) fn ts_of<'a, In: Ts, Out: Ts, Fut>(
    gen: &mut TsGen,
    _handler: impl FnOnce(&'a Ctx, In) -> Fut,
) -> (String, String)
where
    Fut: std::future::Future<Output = RpcResult<Out>>,
{
    (In::ts(gen), Out::ts(gen))
}

/// The input of a procedure that takes none: accepts anything (`undefined`, `{}`), typed `void`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct NoInput;

impl<'de> Deserialize<'de> for NoInput {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        serde::de::IgnoredAny::deserialize(deserializer)?;
        Ok(NoInput)
    }
}

impl Ts for NoInput {
    fn ts(_: &mut TsGen) -> String {
        "void".into()
    }
}

/// The literal `true`: typed `true`, and no other value is accepted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct True;

impl Serialize for True {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_bool(true)
    }
}

impl<'de> Deserialize<'de> for True {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        if bool::deserialize(deserializer)? {
            Ok(True)
        } else {
            Err(serde::de::Error::custom("expected true"))
        }
    }
}

impl Ts for True {
    fn ts(_: &mut TsGen) -> String {
        "true".into()
    }
}

crate::rpc::typescript::rpc_type! {
    /// `{ ok: true }`: the answer of a mutation with nothing else to say.
    pub struct Done {
        pub ok: True,
    }
}

impl Done {
    pub const OK: Done = Done { ok: True };
}
