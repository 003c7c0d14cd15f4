//! `system.*`: procedures about the service itself.

pub mod features;
pub mod setup;
pub mod support;
pub mod time;
