//! The server's one integration-test binary. Each test gets its own fresh database and
//! runs on SQLite, and on PostgreSQL too when `TEST_DATABASE_URL` is set
//! (`name::sqlite` and `name::postgres`).

mod support;

mod admin;
mod assistant;
mod auth;
mod autofill;
mod cli;
mod data;
mod double_submits;
mod faults;
mod feedback;
mod fuzz;
mod hardening_auth;
mod health;
mod hub_count;
mod http_headers;
mod input;
mod jobs;
mod jobs_view;
mod microsoft_import;
mod msgraph;
mod layering;
mod microsoft_signin;
mod multipart;
mod notifications;
mod organisations;
mod preferences;
mod privacy;
mod reports;
mod providers;
mod roster_cache;
mod roster_wire;
mod rpc;
mod schema;
mod seed;
mod session_cache;
mod sending;
mod setup_page;
mod storage_s3;
mod stripe;
mod students;
mod tasks;
mod submissions;
mod support_contact;
mod sweep;
mod templates;
mod translation;
mod task_content;
mod uploads;
mod users_admin;
mod web;
mod wonde;
mod groupcall;
mod year_groups;
