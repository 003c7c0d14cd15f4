//! `system.*`: public procedures about the service itself.

pub mod features;
pub mod support;
pub mod time;
