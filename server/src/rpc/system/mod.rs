//! `system.*`: public procedures about the service itself.

pub mod time;
