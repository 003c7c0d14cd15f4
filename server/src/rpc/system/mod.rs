//! `system.*`: public procedures about the service itself.

pub mod features;
pub mod time;
