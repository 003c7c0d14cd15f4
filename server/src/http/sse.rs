//! The Server-Sent Events answer shared by the streaming routes (autofill, report writing,
//! the assistant): events come from a channel that the route's task writes into, with a
//! comment line every 15 s to keep proxies from closing an idle stream, and
//! `X-Accel-Buffering: no` so that nginx passes each event on at once. Closing the
//! connection drops the receiver, which the writing task sees as its channel closing.

use std::convert::Infallible;

use axum::http::HeaderValue;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use tokio::sync::mpsc;

/// The stream of `rx`'s events as a `text/event-stream` response.
pub fn response(rx: mpsc::Receiver<Event>) -> Response {
    let events = futures_util::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|event| (Ok::<_, Infallible>(event), rx))
    });
    let mut response = Sse::new(events).keep_alive(KeepAlive::default()).into_response();
    response
        .headers_mut()
        .insert("x-accel-buffering", HeaderValue::from_static("no"));
    response
}
