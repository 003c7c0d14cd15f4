//! Voicemark's server: the HTTP API, data access, background work and the embedded web app.
//! `main.rs` is only the command line; everything else lives here so tests can drive it.

pub mod addresses;
pub mod app;
pub mod assistant;
pub mod auth;
pub mod cache;
pub mod config;
pub mod crypto;
pub mod db;
pub mod error;
pub mod http;
pub mod ids;
pub mod jobs;
pub mod mail;
pub mod microsoft_graph;
pub mod metrics;
pub mod mis;
pub mod translation;
pub mod models;
pub mod password;
pub mod plans;
pub mod providers;
pub mod roster;
pub mod reach;
pub mod rpc;
pub mod seed;
pub mod serve;
pub mod shared_text;
pub mod state;
pub mod storage;
pub mod telemetry;
pub mod staffing;
pub mod user_admin;
