//! The ceiling for HTTP load figures: a bare axum handler answering a small constant JSON
//! body, with no database, middleware or RPC decoding. `bench/rpc-load.sh` runs it beside
//! the real server so both are measured on the same machine in the same run.
//!
//! Usage: cargo run --release -p voicemark-server --example bare_axum -- 127.0.0.1:3901

use axum::routing::get;
use axum::Router;

#[tokio::main]
async fn main() -> std::io::Result<()> {
    let address = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "127.0.0.1:3901".into());
    let app = Router::new().route(
        "/api/trpc/{*path}",
        get(|| async {
            (
                [("content-type", "application/json")],
                r#"[{"result":{"data":{"json":3}}},{"result":{"data":{"json":[]}}},{"result":{"data":{"json":{}}}}]"#,
            )
        }),
    );
    let listener = tokio::net::TcpListener::bind(&address).await?;
    axum::serve(listener, app).await
}
