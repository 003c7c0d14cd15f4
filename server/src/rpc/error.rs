//! tRPC errors: the codes of tRPC v11, the T3 `zodError` field list, and the error shape
//! `{message, code, data: {code, httpStatus, path?, zodError}}` the client reads.

use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

use crate::db::fault::{self, Fault};
use crate::db::DbError;

/// The tRPC error codes this server answers with (trpc.md §5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorCode {
    ParseError,
    BadRequest,
    Unauthorized,
    Forbidden,
    NotFound,
    MethodNotSupported,
    UnsupportedMediaType,
    TooManyRequests,
    InternalServerError,
    ServiceUnavailable,
    /// A feature this server is not set up for (e.g. no AI provider configured).
    PreconditionFailed,
    /// A request body above the transport's limit.
    PayloadTooLarge,
    /// The same request is still being worked on (an idempotency key in use): try later.
    Conflict,
}

impl ErrorCode {
    /// The key the client sees in `data.code`.
    pub fn key(self) -> &'static str {
        match self {
            ErrorCode::ParseError => "PARSE_ERROR",
            ErrorCode::BadRequest => "BAD_REQUEST",
            ErrorCode::Unauthorized => "UNAUTHORIZED",
            ErrorCode::Forbidden => "FORBIDDEN",
            ErrorCode::NotFound => "NOT_FOUND",
            ErrorCode::MethodNotSupported => "METHOD_NOT_SUPPORTED",
            ErrorCode::UnsupportedMediaType => "UNSUPPORTED_MEDIA_TYPE",
            ErrorCode::TooManyRequests => "TOO_MANY_REQUESTS",
            ErrorCode::InternalServerError => "INTERNAL_SERVER_ERROR",
            ErrorCode::ServiceUnavailable => "SERVICE_UNAVAILABLE",
            ErrorCode::PreconditionFailed => "PRECONDITION_FAILED",
            ErrorCode::PayloadTooLarge => "PAYLOAD_TOO_LARGE",
            ErrorCode::Conflict => "CONFLICT",
        }
    }

    /// The JSON-RPC number in the shape's `code`.
    pub fn json_rpc(self) -> i32 {
        match self {
            ErrorCode::ParseError => -32700,
            ErrorCode::BadRequest => -32600,
            ErrorCode::Unauthorized => -32001,
            ErrorCode::Forbidden => -32003,
            ErrorCode::NotFound => -32004,
            ErrorCode::MethodNotSupported => -32005,
            ErrorCode::UnsupportedMediaType => -32015,
            ErrorCode::TooManyRequests => -32029,
            ErrorCode::PreconditionFailed => -32012,
            ErrorCode::PayloadTooLarge => -32013,
            ErrorCode::Conflict => -32009,
            ErrorCode::InternalServerError | ErrorCode::ServiceUnavailable => -32603,
        }
    }

    /// The HTTP status of a call failing with this code.
    pub fn http_status(self) -> u16 {
        match self {
            ErrorCode::ParseError | ErrorCode::BadRequest => 400,
            ErrorCode::Unauthorized => 401,
            ErrorCode::Forbidden => 403,
            ErrorCode::NotFound => 404,
            ErrorCode::MethodNotSupported => 405,
            ErrorCode::UnsupportedMediaType => 415,
            ErrorCode::TooManyRequests => 429,
            ErrorCode::InternalServerError => 500,
            ErrorCode::ServiceUnavailable => 503,
            ErrorCode::PreconditionFailed => 412,
            ErrorCode::PayloadTooLarge => 413,
            ErrorCode::Conflict => 409,
        }
    }
}

/// Per-field messages, in the order they were found: T3's `zodError` (zod's `.flatten()`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FieldErrors {
    pub form_errors: Vec<String>,
    pub field_errors: Vec<(String, Vec<String>)>,
}

impl FieldErrors {
    /// Adds `message` to `field`.
    pub fn add(&mut self, field: &str, message: impl Into<String>) {
        let message = message.into();
        match self.field_errors.iter_mut().find(|(name, _)| name == field) {
            Some((_, messages)) => messages.push(message),
            None => self.field_errors.push((field.to_owned(), vec![message])),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.form_errors.is_empty() && self.field_errors.is_empty()
    }

    /// `Ok(())` when nothing was added; otherwise a BAD_REQUEST whose message is the first one.
    pub fn into_result(self) -> RpcResult<()> {
        if self.is_empty() {
            return Ok(());
        }
        let message = self
            .field_errors
            .first()
            .and_then(|(_, messages)| messages.first())
            .or(self.form_errors.first())
            .cloned()
            .unwrap_or_else(|| "BAD_REQUEST".into());
        Err(RpcError {
            code: ErrorCode::BadRequest,
            message,
            fields: Some(self),
            detail: None,
        })
    }
}

impl Serialize for FieldErrors {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        struct Fields<'a>(&'a [(String, Vec<String>)]);
        impl Serialize for Fields<'_> {
            fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                let mut map = serializer.serialize_map(Some(self.0.len()))?;
                for (field, messages) in self.0 {
                    map.serialize_entry(field, messages)?;
                }
                map.end()
            }
        }
        let mut map = serializer.serialize_map(Some(2))?;
        map.serialize_entry("formErrors", &self.form_errors)?;
        map.serialize_entry("fieldErrors", &Fields(&self.field_errors))?;
        map.end()
    }
}

/// A failed call: what the client may see, plus (for internal errors) what only the log sees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RpcError {
    pub code: ErrorCode,
    pub message: String,
    pub fields: Option<FieldErrors>,
    /// Logged, never sent.
    pub detail: Option<String>,
}

/// What every procedure returns.
pub type RpcResult<T> = Result<T, RpcError>;

impl RpcError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> RpcError {
        RpcError {
            code,
            message: message.into(),
            fields: None,
            detail: None,
        }
    }

    /// An error whose message is its code's key, as tRPC gives when none is set.
    pub fn bare(code: ErrorCode) -> RpcError {
        RpcError::new(code, code.key())
    }

    pub fn bad_request(message: impl Into<String>) -> RpcError {
        RpcError::new(ErrorCode::BadRequest, message)
    }

    /// One field's error, with `message` as the error's message too.
    pub fn field(field: &str, message: impl Into<String>) -> RpcError {
        let mut fields = FieldErrors::default();
        fields.add(field, message);
        match fields.into_result() {
            Err(err) => err,
            Ok(()) => RpcError::bare(ErrorCode::BadRequest),
        }
    }

    pub fn unauthorized() -> RpcError {
        RpcError::bare(ErrorCode::Unauthorized)
    }

    pub fn forbidden(message: impl Into<String>) -> RpcError {
        RpcError::new(ErrorCode::Forbidden, message)
    }

    /// A failure inside: the client reads "Internal server error", the log reads `detail`.
    pub fn internal(detail: impl Into<String>) -> RpcError {
        RpcError {
            code: ErrorCode::InternalServerError,
            message: "Internal server error".into(),
            fields: None,
            detail: Some(detail.into()),
        }
    }

    /// The error shape, before superjson wraps it as `{"json": ...}`.
    pub fn shape<'a>(&'a self, path: Option<&'a str>) -> ErrorShape<'a> {
        ErrorShape {
            message: &self.message,
            code: self.code.json_rpc(),
            data: ErrorData {
                code: self.code.key(),
                http_status: self.code.http_status(),
                path,
                zod_error: self.fields.as_ref(),
            },
        }
    }
}

impl From<DbError> for RpcError {
    fn from(err: DbError) -> Self {
        match err {
            DbError::Query(err) => RpcError::from(err),
            DbError::Pool(detail) => RpcError {
                code: ErrorCode::ServiceUnavailable,
                message: fault::UNAVAILABLE.into(),
                fields: None,
                detail: Some(detail),
            },
            other => RpcError::internal(other.to_string()),
        }
    }
}

/// A fault of the database (dropped connection, timeout, full or read-only disk) is
/// SERVICE_UNAVAILABLE with its reason; a unique index that no procedure handled is the
/// user's duplicate, BAD_REQUEST "This already exists."; the rest is internal. The cause
/// is kept in `detail`, which the transport logs.
impl From<diesel::result::Error> for RpcError {
    fn from(err: diesel::result::Error) -> Self {
        let fault = Fault::of(&err);
        let (code, message) = match (fault, fault.unavailable_message()) {
            (_, Some(message)) => (ErrorCode::ServiceUnavailable, message),
            (Fault::Duplicate, None) => (ErrorCode::BadRequest, fault::DUPLICATE),
            _ => return RpcError::internal(err.to_string()),
        };
        RpcError {
            code,
            message: message.into(),
            fields: None,
            detail: Some(err.to_string()),
        }
    }
}

/// tRPC's default error shape with T3's `zodError`, field order as tRPC writes it.
#[derive(Debug, Serialize)]
pub struct ErrorShape<'a> {
    pub message: &'a str,
    pub code: i32,
    pub data: ErrorData<'a>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ErrorData<'a> {
    pub code: &'static str,
    pub http_status: u16,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub path: Option<&'a str>,
    pub zod_error: Option<&'a FieldErrors>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_errors_keep_their_order_and_lead_with_the_first_message() {
        let mut fields = FieldErrors::default();
        fields.add("surname", "Surname is required");
        fields.add("forename", "Forename is required");
        let err = fields.into_result().expect_err("errors");
        assert_eq!(err.message, "Surname is required");
        let json = serde_json::to_string(&err.shape(Some("user.updateProfile"))).expect("json");
        assert_eq!(
            json,
            r#"{"message":"Surname is required","code":-32600,"data":{"code":"BAD_REQUEST","httpStatus":400,"path":"user.updateProfile","zodError":{"formErrors":[],"fieldErrors":{"surname":["Surname is required"],"forename":["Forename is required"]}}}}"#
        );
    }

    #[test]
    fn unauthorized_matches_the_captured_shape() {
        let err = RpcError::unauthorized();
        let json = serde_json::to_string(&err.shape(Some("user.me"))).expect("json");
        assert_eq!(
            json,
            r#"{"message":"UNAUTHORIZED","code":-32001,"data":{"code":"UNAUTHORIZED","httpStatus":401,"path":"user.me","zodError":null}}"#
        );
    }
}
