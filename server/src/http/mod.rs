//! Plain HTTP endpoints (the RPC and auth transports live in their own modules).

pub mod address;
pub mod assistant;
pub mod autofill;
pub mod health;
pub mod reports;
pub mod security_headers;
pub mod sse;
pub mod sendgrid_webhook;
pub mod stripe_webhook;
pub mod submission_files;
pub mod upload_parts;
pub mod uploads;
pub mod web;
pub mod jobs_view;
pub mod privacy_export;
pub mod reach;
pub mod ready;
