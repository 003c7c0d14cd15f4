//! A procedure's answer as it goes on the wire: superjson text written for this call, or an
//! answer encoded once and shared by every caller until it changes ([`Cached`]: the roster,
//! issue 15). A shared answer carries its own ETag and is gzip-compressed once, in the
//! background (`crate::shared_text`); `rpc::wire` puts answers into the response.

use std::sync::Arc;

use serde::Serialize;

use crate::shared_text::SharedText;
use crate::rpc::typescript::{Ts, TsGen};

/// One call's encoded output.
pub enum Encoded {
    /// superjson text of this call alone.
    Text(String),
    /// An answer shared by many calls.
    Shared(Arc<SharedText>),
}

impl Encoded {
    /// The superjson text (`{"json":…}`).
    pub fn text(&self) -> &[u8] {
        match self {
            Encoded::Text(text) => text.as_bytes(),
            Encoded::Shared(shared) => &shared.text,
        }
    }
}

/// How a handler's output becomes [`Encoded`]: any serialisable value is encoded for the
/// call; a [`Cached`] answer is sent as it was encoded.
pub trait RpcOutput {
    fn into_encoded(self) -> Result<Encoded, serde_json::Error>;
}

impl<T: Serialize> RpcOutput for T {
    fn into_encoded(self) -> Result<Encoded, serde_json::Error> {
        crate::rpc::superjson::encode(&self).map(Encoded::Text)
    }
}

/// A procedure's output encoded once and kept (typed as `T` in the generated TypeScript).
/// Deliberately not `Serialize`: it is only ever sent as the bytes it holds.
pub struct Cached<T> {
    shared: Arc<SharedText>,
    _type: std::marker::PhantomData<fn() -> T>,
}

impl<T> Clone for Cached<T> {
    fn clone(&self) -> Self {
        Cached { shared: self.shared.clone(), _type: std::marker::PhantomData }
    }
}

impl<T: Serialize> Cached<T> {
    /// `value` encoded as superjson, once; `kept` as for [`Cached::from_superjson`].
    pub fn encode(value: &T, kept: bool) -> Result<Cached<T>, serde_json::Error> {
        Ok(Cached::from_superjson(crate::rpc::superjson::encode(value)?, kept))
    }
}

impl<T> Cached<T> {
    /// `text`, which the caller wrote as `T`'s superjson encoding (a procedure with its own
    /// writer, tested against [`Cached::encode`]'s: the roster); `kept` says whether it is
    /// kept to be sent again (else it is sent once and never compressed in the background).
    pub fn from_superjson(text: String, kept: bool) -> Cached<T> {
        let shared = if kept { SharedText::new(text) } else { SharedText::sent_once(text) };
        Cached { shared: Arc::new(shared), _type: std::marker::PhantomData }
    }

    /// An answer encoded earlier (from a cache).
    pub fn from_shared(shared: Arc<SharedText>) -> Cached<T> {
        Cached { shared, _type: std::marker::PhantomData }
    }

    /// The encoded answer, to keep.
    pub fn shared(&self) -> Arc<SharedText> {
        self.shared.clone()
    }

    /// The superjson text.
    pub fn text(&self) -> &[u8] {
        &self.shared.text
    }
}

impl<T> RpcOutput for Cached<T> {
    fn into_encoded(self) -> Result<Encoded, serde_json::Error> {
        Ok(Encoded::Shared(self.shared))
    }
}

impl<T: Ts> Ts for Cached<T> {
    fn ts(gen: &mut TsGen) -> String {
        T::ts(gen)
    }
}
