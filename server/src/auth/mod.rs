//! Authentication: Auth.js-compatible endpoints, server-side sessions, CSRF, roles.

pub mod session;
