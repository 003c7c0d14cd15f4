//! Operating settings (docs/operations.md): where metrics are served and how long a
//! stopping process keeps answering after it stopped saying it is ready.

use std::net::SocketAddr;
use std::time::Duration;

use super::ConfigError;

#[derive(Debug, Clone)]
pub struct OpsConfig {
    /// `VOICEMARK_METRICS_ADDR` (e.g. `127.0.0.1:9464`): `GET /metrics` on this address
    /// only, never on the public one. Unset: no metrics.
    pub metrics_addr: Option<SocketAddr>,
    /// `VOICEMARK_DRAIN_SECONDS` (default 5): after SIGTERM, `/api/ready` answers 503 while
    /// requests are still served for this long, so the load balancer stops sending first.
    pub drain: Duration,
}

impl Default for OpsConfig {
    fn default() -> OpsConfig {
        OpsConfig {
            metrics_addr: None,
            drain: Duration::from_secs(5),
        }
    }
}

pub(super) fn ops_config(
    get: &impl Fn(&str) -> Option<String>,
    number: &impl Fn(&'static str, u64, u64, u64) -> Result<u64, ConfigError>,
) -> Result<OpsConfig, ConfigError> {
    let metrics_addr = match get("VOICEMARK_METRICS_ADDR") {
        None => None,
        Some(v) => Some(v.parse().map_err(|_| ConfigError::Invalid {
            name: "VOICEMARK_METRICS_ADDR",
            expected: "an address such as 127.0.0.1:9464",
            value: v,
        })?),
    };
    Ok(OpsConfig {
        metrics_addr,
        drain: Duration::from_secs(number("VOICEMARK_DRAIN_SECONDS", 5, 0, 300)?),
    })
}
