//! Exactly-once mutations (issue 27): an outbox mutation may carry an `idempotencyKey`; the
//! first call with it stores its answer in the same transaction as its change, and every
//! replay of it gets that answer and changes nothing (docs/offline.md, "Exactly once on
//! the server"). A handler uses [`Once`] in a few lines:
//!
//! ```ignore
//! let once = Once::new(ctx, &input.idempotency_key)?;
//! if let Some(first) = once.replay(&mut conn).await? { return Ok(first); }
//! // ... checks ...
//! transaction!(&mut conn, |c| {
//!     if let Some(first) = once.claim(c).await? { return Ok(first); }
//!     // ... the change, and its answer `out` ...
//!     once.store(c, &out).await?;
//!     Ok(out)
//! })
//! ```
//!
//! Work that cannot run in one transaction (a provider call) uses [`Once::reserve`] first,
//! then [`Once::store`] in the transaction that records the result, or [`Once::release`].
//! Without a key every method does nothing and the handler behaves as before.

use std::io::Write;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

use crate::db::DbConn;
use crate::jobs::idempotency_sweep;
use crate::models::idempotency::{self, NewKey, StoredKey};
use crate::models::now;
use crate::rpc::typescript::{Ts, TsGen};
use crate::rpc::{Ctx, ErrorCode, RpcError, RpcResult};
use crate::transaction;

/// The answer to a key that is not of the browser's form.
pub const BAD_KEY: &str = "This request could not be repeated safely. Try again.";
/// The answer to a key already used for another procedure or another request.
pub const KEY_REUSED: &str = "This request was already used for something else.";
/// The answer to a replay that arrives while the first call is still running.
pub const IN_PROGRESS: &str = "This request is already being processed.";

/// The shortest and longest key: a UUID is 36 characters.
pub const KEY_CHARS: std::ops::RangeInclusive<usize> = 16..=100;

/// A reservation without an answer this old belongs to a call that died (the longest
/// provider call is well under it): the next replay takes it over and runs the request.
pub const STALE_AFTER: chrono::Duration = chrono::Duration::minutes(10);

/// The optional `idempotencyKey` field of an outbox mutation's input: 16 to 100 characters
/// of `[A-Za-z0-9_-]`, or absent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct IdempotencyKey(Option<String>);

impl IdempotencyKey {
    /// A key, for tests and callers inside the server.
    pub fn new(key: impl Into<String>) -> IdempotencyKey {
        IdempotencyKey(Some(key.into()))
    }

    /// The key, if one was sent.
    pub fn as_deref(&self) -> Option<&str> {
        self.0.as_deref()
    }
}

/// Whether `key` is of the form the browser makes.
pub fn key_allowed(key: &str) -> bool {
    KEY_CHARS.contains(&key.len())
        && key
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

impl<'de> Deserialize<'de> for IdempotencyKey {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        // Anything but a string or null (a number, an object) is refused the same way.
        let value = Option::<serde_json::Value>::deserialize(deserializer)?;
        match value {
            None => Ok(IdempotencyKey(None)),
            Some(serde_json::Value::String(key)) if key_allowed(&key) => {
                Ok(IdempotencyKey(Some(key)))
            }
            Some(_) => Err(serde::de::Error::custom(BAD_KEY)),
        }
    }
}

impl Serialize for IdempotencyKey {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl Ts for IdempotencyKey {
    /// `string | null`: null (or no field) is "no key".
    fn ts(_: &mut TsGen) -> String {
        "string | null".into()
    }

    const OPTIONAL: bool = true;
}

/// The field of an input that carries the key.
pub const KEY_FIELD: &str = "idempotencyKey";

/// The call a key belongs to: its procedure's path and the hash of its input.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub path: &'static str,
    pub hash: String,
}

tokio::task_local! {
    /// The call being run, set by the registry for calls that carry a key.
    pub static REQUEST: Request;
}

impl Request {
    /// The call at `path` with `input` (superjson already decoded), when it carries a key.
    pub fn of(path: &'static str, input: &serde_json::Value) -> Option<Request> {
        let object = input.as_object()?;
        object.get(KEY_FIELD)?.as_str()?;
        Some(Request { path, hash: request_hash(object) })
    }
}

/// SHA-256, in hex, of the input's canonical JSON without its key: object keys sorted
/// (serde_json's map is ordered), no spaces. Streamed into the hash, so ten photos are not
/// copied to be hashed.
pub fn request_hash(input: &serde_json::Map<String, serde_json::Value>) -> String {
    struct WithoutKey<'a>(&'a serde_json::Map<String, serde_json::Value>);
    impl Serialize for WithoutKey<'_> {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            use serde::ser::SerializeMap;
            let fields = self.0.iter().filter(|(name, _)| *name != KEY_FIELD);
            let mut map = serializer.serialize_map(None)?;
            for (name, value) in fields {
                map.serialize_entry(name, value)?;
            }
            map.end()
        }
    }
    struct HashWriter(Sha256);
    impl Write for HashWriter {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.update(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut writer = HashWriter(Sha256::new());
    // Writing JSON values into a hash cannot fail: nothing here does I/O or has non-string keys.
    if let Err(err) = serde_json::to_writer(&mut writer, &WithoutKey(input)) {
        tracing::error!(%err, "hashing a request");
    }
    hex::encode(writer.0.finalize())
}

/// One call's key: who sent it, for what, and the request's hash.
#[derive(Debug, Clone)]
struct Claim {
    user_id: String,
    key: String,
    request: Request,
}

impl Claim {
    fn new_key(&self) -> NewKey<'_> {
        NewKey {
            user_id: &self.user_id,
            key: &self.key,
            procedure: self.request.path,
            request_hash: &self.request.hash,
        }
    }
}

/// What a stored row means for this call.
enum Found<T> {
    /// The first call's answer.
    Answer(T),
    /// The first call is still running (reserved at this time).
    Running(chrono::NaiveDateTime),
}

/// A mutation made at most once per key; see the module's documentation.
#[derive(Debug, Clone)]
pub struct Once {
    claim: Option<Claim>,
}

impl Once {
    /// The call's `key` (its input's `idempotencyKey`); without a key, a `Once` that does
    /// nothing. The procedure and the request hash are the registry's [`REQUEST`].
    pub fn new(ctx: &Ctx, key: &IdempotencyKey) -> RpcResult<Once> {
        let Some(key) = key.as_deref() else {
            return Ok(Once { claim: None });
        };
        let request = REQUEST
            .try_with(Request::clone)
            .map_err(|_| RpcError::internal("an idempotency key outside a registry call"))?;
        Ok(Once {
            claim: Some(Claim {
                user_id: ctx.require_user()?.id.clone(),
                key: key.to_owned(),
                request,
            }),
        })
    }

    /// Before any check: the first answer when this key was already answered (a replay
    /// answers as the first call did, even if the checks would refuse it now, e.g. a send
    /// date now past). CONFLICT while the first call is still running.
    pub async fn replay<T: DeserializeOwned>(&self, conn: &mut DbConn<'_>) -> RpcResult<Option<T>> {
        let Some(claim) = &self.claim else {
            return Ok(None);
        };
        let row = idempotency::find(conn, &claim.user_id, &claim.key).await?;
        match row.map(|row| read(claim, row)).transpose()? {
            None => Ok(None),
            Some(Found::Answer(answer)) => Ok(Some(answer)),
            Some(Found::Running(at)) if now() - at < STALE_AFTER => Err(in_progress()),
            // A dead reservation: `reserve` takes it over.
            Some(Found::Running(_)) => Ok(None),
        }
    }

    /// First thing inside the change's transaction: takes the key, or answers the first
    /// call's answer when another call took it first (under PostgreSQL a concurrent call
    /// with the same key waits here until the first one commits).
    pub async fn claim<T: DeserializeOwned>(&self, c: &mut DbConn<'_>) -> RpcResult<Option<T>> {
        let Some(claim) = &self.claim else {
            return Ok(None);
        };
        if idempotency::reserve(c, &claim.new_key(), now()).await? {
            return Ok(None);
        }
        let row = idempotency::find(c, &claim.user_id, &claim.key).await?;
        match row.map(|row| read(claim, row)).transpose()? {
            Some(Found::Answer(answer)) => Ok(Some(answer)),
            // Only a call outside one transaction leaves a row without an answer.
            Some(Found::Running(_)) => Err(in_progress()),
            // Deleted between the two statements (released, or swept): try again later.
            None => Err(in_progress()),
        }
    }

    /// Last thing inside the change's transaction: keeps `answer` as the key's answer, and
    /// queues the sweep that deletes it after the keeping time.
    pub async fn store<T: Serialize>(&self, c: &mut DbConn<'_>, answer: &T) -> RpcResult<()> {
        let Some(claim) = &self.claim else {
            return Ok(());
        };
        let text = crate::rpc::superjson::encode(answer)
            .map_err(|e| RpcError::internal(format!("encoding the answer to keep: {e}")))?;
        idempotency::store_response(c, &claim.user_id, &claim.key, &text).await?;
        idempotency_sweep::schedule(c, now()).await?;
        Ok(())
    }

    /// For work outside a transaction (a provider call), before it starts: takes the key in
    /// a transaction of its own. `Some` is the first call's answer; CONFLICT while the
    /// first call is still running. After the work: [`Once::store`] with the result, or
    /// [`Once::release`] when it failed.
    pub async fn reserve<T: DeserializeOwned + Send>(&self, ctx: &Ctx) -> RpcResult<Option<T>> {
        let Some(claim) = &self.claim else {
            return Ok(None);
        };
        let mut pooled = ctx.conn().await?;
        transaction!(&mut pooled.db(), |c| {
            let at = now();
            if idempotency::reserve(c, &claim.new_key(), at).await? {
                return Ok(None);
            }
            let row = idempotency::find(c, &claim.user_id, &claim.key).await?;
            match row.map(|row| read(claim, row)).transpose()? {
                Some(Found::Answer(answer)) => Ok(Some(answer)),
                Some(Found::Running(reserved_at)) if at - reserved_at >= STALE_AFTER => {
                    if idempotency::take_over(c, &claim.user_id, &claim.key, reserved_at, at)
                        .await?
                    {
                        Ok(None)
                    } else {
                        Err(in_progress())
                    }
                }
                Some(Found::Running(_)) | None => Err(in_progress()),
            }
        })
    }

    /// After work reserved with [`Once::reserve`] failed: frees the key, so that the
    /// client's retry runs the request again (errors are never kept as answers). A failure
    /// here is logged: the reservation goes stale and is taken over after [`STALE_AFTER`].
    pub async fn release(&self, ctx: &Ctx) {
        let Some(claim) = &self.claim else {
            return;
        };
        let result = async {
            let mut pooled = ctx.conn().await?;
            idempotency::release(&mut pooled.db(), &claim.user_id, &claim.key).await?;
            Ok::<(), RpcError>(())
        }
        .await;
        if let Err(err) = result {
            tracing::error!(detail = ?err.detail, "could not release an idempotency key");
        }
    }
}

impl Once {
    /// Forgets an answered key whose answer no longer holds (the upload it named was swept
    /// as abandoned), so that this call runs anew under it and keeps its own answer.
    pub async fn forget(&self, conn: &mut DbConn<'_>) -> RpcResult<()> {
        if let Some(claim) = &self.claim {
            idempotency::forget(conn, &claim.user_id, &claim.key).await?;
        }
        Ok(())
    }
}

/// The stored row as this call's answer, or the refusal when the key was used for another
/// procedure or another request.
fn read<T: DeserializeOwned>(claim: &Claim, row: StoredKey) -> RpcResult<Found<T>> {
    if row.procedure != claim.request.path || row.request_hash != claim.request.hash {
        return Err(RpcError::bad_request(KEY_REUSED));
    }
    let Some(text) = row.response else {
        return Ok(Found::Running(row.created_at));
    };
    decode_answer(&text).map(Found::Answer)
}

/// A kept answer (superjson text) as the handler's output type.
fn decode_answer<T: DeserializeOwned>(text: &str) -> RpcResult<T> {
    let unreadable = |e: String| RpcError::internal(format!("reading a kept answer: {e}"));
    let payload: serde_json::Value = serde_json::from_str(text).map_err(|e| unreadable(e.to_string()))?;
    let json = crate::rpc::superjson::decode(payload).map_err(|e| unreadable(e.to_string()))?;
    serde_json::from_value(json).map_err(|e| unreadable(e.to_string()))
}

fn in_progress() -> RpcError {
    RpcError::new(ErrorCode::Conflict, IN_PROGRESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_of_the_browsers_form_are_allowed() {
        assert!(key_allowed("0b6f3c9e-2a1d-4c8e-9f00-123456789abc"));
        assert!(key_allowed("abcdefghijklmnop"));
        assert!(!key_allowed("short"));
        assert!(!key_allowed(&"a".repeat(101)));
        assert!(!key_allowed("abcdefghijklmnop qrs"));
        assert!(!key_allowed("abcdefghijklmnop/qrs"));
    }

    #[test]
    fn the_key_and_the_field_order_are_not_part_of_the_request_hash() {
        let of = |v: serde_json::Value| Request::of("a.b", &v).map(|r| r.hash);
        let a = of(serde_json::json!({"text": "a", "n": 1, "idempotencyKey": "k1"}));
        let b = of(serde_json::json!({"idempotencyKey": "k2", "n": 1, "text": "a"}));
        let c = of(serde_json::json!({"text": "b", "n": 1, "idempotencyKey": "k1"}));
        assert!(a.is_some());
        assert_eq!(a, b);
        assert_ne!(a, c);
        assert_eq!(of(serde_json::json!({"text": "a"})), None);
    }

    #[test]
    fn keys_not_of_the_form_are_refused_in_words() {
        let bad: Result<IdempotencyKey, _> = serde_json::from_value(serde_json::json!("x"));
        assert_eq!(bad.map_err(|e| e.to_string()).err().as_deref(), Some(BAD_KEY));
        let number: Result<IdempotencyKey, _> = serde_json::from_value(serde_json::json!(12));
        assert!(number.is_err());
        let none: IdempotencyKey = serde_json::from_value(serde_json::Value::Null).unwrap_or_default();
        assert_eq!(none.as_deref(), None);
    }
}
