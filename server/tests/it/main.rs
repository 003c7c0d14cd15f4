//! The server's one integration-test binary. Each test gets its own fresh database and
//! runs on SQLite, and on PostgreSQL too when `TEST_DATABASE_URL` is set
//! (`name::sqlite` and `name::postgres`).

mod support;

mod auth;
mod cli;
mod data;
mod health;
mod rpc;
mod schema;
mod seed;
mod web;
