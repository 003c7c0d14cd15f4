//! The security headers every answer carries, built once from the configuration:
//! a Content-Security-Policy that allows only this origin plus the outside origins the
//! browser really talks to (the speech socket, the S3 bucket), and HSTS when the public
//! URL is https. See docs/security.md.

use axum::http::HeaderValue;

use crate::config::Config;
use crate::storage::StorageConfig;

/// The policy for every page and answer.
///
/// - scripts: our own files, plus `'wasm-unsafe-eval'` to compile the core's WebAssembly,
///   plus the app's own inline scripts by their hashes (`inline_scripts`: the first frame's,
///   `web::inline_script_hashes`); no other inline script, no `eval`;
/// - styles: our own files and inline styles (Radix's scroll lock injects a `<style>`);
/// - images and media: ours, `data:`/`blob:` (photos and recordings held in the browser)
///   and the bucket's origin when files are served from S3;
/// - connections: ours, the page's own `blob:` objects, the speech provider's socket and
///   the bucket (signed uploads);
/// - workers: ours and `blob:`; no plugins, no framing, forms post only to us;
/// - billing on (docs/billing.md): the pricing-table script's origin may run scripts, be
///   framed and be called, and Stripe's frames (`js.stripe.com`, `*.js.stripe.com`) and API
///   (`api.stripe.com`) are allowed; billing off adds nothing;
/// - Sign in with Microsoft on (docs/microsoft-signin.md): the sign-in form's POST is
///   answered with a redirect to the identity platform, so its origin joins `form-action`.
pub fn content_security_policy(config: &Config, inline_scripts: &[String]) -> String {
    let mut outside: Vec<String> = Vec::new();
    if let Some(speech) = &config.speech {
        if let Some(origin) = socket_origin(&speech.url) {
            outside.push(origin);
        }
    }
    let storage = storage_origin(&config.storage);
    // `blob:`: reading back a recording the page itself holds (a local object, never a
    // remote origin).
    let mut connect = vec!["'self'".to_owned(), "blob:".to_owned()];
    connect.extend(outside.iter().cloned());
    let mut scripts = vec!["'self'".to_owned(), "'wasm-unsafe-eval'".to_owned()];
    let mut frames: Vec<String> = Vec::new();
    if let Some(stripe) = &config.stripe {
        let script = http_origin(&stripe.pricing_table_script_url);
        scripts.extend(script.iter().cloned());
        frames.extend(script.iter().cloned());
        for origin in STRIPE_FRAMES {
            if !frames.iter().any(|f| f == origin) {
                frames.push((*origin).to_owned());
            }
        }
        connect.extend(script.iter().cloned());
        connect.push(STRIPE_API.to_owned());
    }
    connect.extend(storage.iter().cloned());
    scripts.extend(inline_scripts.iter().cloned());
    let mut media = vec!["'self'".to_owned(), "data:".into(), "blob:".into()];
    media.extend(storage.iter().cloned());
    let media = media.join(" ");
    let mut form_action = vec!["'self'".to_owned()];
    if let Some(microsoft) = &config.microsoft {
        form_action.extend(http_origin(&microsoft.login_url));
    }
    [
        "default-src 'self'".to_owned(),
        format!("script-src {}", scripts.join(" ")),
        "style-src 'self' 'unsafe-inline'".to_owned(),
        format!("img-src {media}"),
        format!("media-src {media}"),
        "font-src 'self' data:".to_owned(),
        format!("connect-src {}", connect.join(" ")),
        "worker-src 'self' blob:".to_owned(),
        "object-src 'none'".to_owned(),
        "base-uri 'self'".to_owned(),
        format!("form-action {}", form_action.join(" ")),
        "frame-ancestors 'none'".to_owned(),
    ]
    .into_iter()
    .chain((!frames.is_empty()).then(|| format!("frame-src {}", frames.join(" "))))
    .collect::<Vec<_>>()
    .join("; ")
}

/// The frames Stripe's pricing table opens.
const STRIPE_FRAMES: &[&str] = &["https://js.stripe.com", "https://*.js.stripe.com"];
/// The API Stripe's embedded pieces call from the browser.
const STRIPE_API: &str = "https://api.stripe.com";

/// `scheme://host[:port]` of an http(s) URL.
fn http_origin(url: &str) -> Option<String> {
    let url = url::Url::parse(url).ok()?;
    if !matches!(url.scheme(), "https" | "http") {
        return None;
    }
    let host = url.host_str()?;
    Some(match url.port() {
        Some(port) => format!("{}://{host}:{port}", url.scheme()),
        None => format!("{}://{host}", url.scheme()),
    })
}

/// `Strict-Transport-Security` for an https deployment (one year, subdomains included);
/// `None` over plain http, where browsers ignore it anyway.
pub fn strict_transport_security(config: &Config) -> Option<HeaderValue> {
    config
        .public_url
        .starts_with("https://")
        .then(|| HeaderValue::from_static("max-age=31536000; includeSubDomains"))
}

/// The websocket origin the browser opens for live dictation (`https` → `wss`).
fn socket_origin(base_url: &str) -> Option<String> {
    let url = url::Url::parse(base_url).ok()?;
    let scheme = match url.scheme() {
        "https" => "wss",
        "http" => "ws",
        _ => return None,
    };
    let host = url.host_str()?;
    Some(match url.port() {
        Some(port) => format!("{scheme}://{host}:{port}"),
        None => format!("{scheme}://{host}"),
    })
}

/// The origin signed S3 URLs point at: the endpoint, or `bucket.endpoint` in the
/// virtual-hosted style.
fn storage_origin(storage: &StorageConfig) -> Option<String> {
    let StorageConfig::S3(s3) = storage else {
        return None;
    };
    let endpoint = &s3.endpoint;
    let host = endpoint.host_str()?;
    let host = if s3.path_style {
        host.to_owned()
    } else {
        format!("{}.{host}", s3.bucket)
    };
    Some(match endpoint.port() {
        Some(port) => format!("{}://{host}:{port}", endpoint.scheme()),
        None => format!("{}://{host}", endpoint.scheme()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_names_only_the_origins_in_use() {
        let mut config = crate::config::from_lookup(|_| None, None).expect("defaults");
        let policy = content_security_policy(&config, &[]);
        assert!(policy.contains("script-src 'self' 'wasm-unsafe-eval';"), "{policy}");
        let hash = "'sha256-HrZ4sdXQxKgTSihkjA6NUB3h4nSMva8/usEwdfSN7b8='".to_owned();
        let with_frame = content_security_policy(&config, std::slice::from_ref(&hash));
        assert!(with_frame.contains(&format!("script-src 'self' 'wasm-unsafe-eval' {hash};")), "{with_frame}");
        assert!(!policy.contains(" 'unsafe-eval'"), "{policy}");
        assert!(policy.contains("connect-src 'self' blob:;"), "{policy}");
        assert!(policy.contains("frame-ancestors 'none'"));
        assert!(strict_transport_security(&config).is_none());

        config.public_url = "https://voicemark.example".into();
        assert!(strict_transport_security(&config).is_some());
        config.speech = Some(crate::config::SpeechConfig {
            api_key: "k".into(),
            url: "http://127.0.0.1:4010".into(),
        });
        let policy = content_security_policy(&config, &[]);
        assert!(
            policy.contains("connect-src 'self' blob: ws://127.0.0.1:4010;"),
            "{policy}"
        );
        assert_eq!(
            socket_origin("http://127.0.0.1:4010/").as_deref(),
            Some("ws://127.0.0.1:4010")
        );
        assert_eq!(
            socket_origin("https://api.deepgram.com").as_deref(),
            Some("wss://api.deepgram.com")
        );
        assert!(policy.contains("form-action 'self';"), "{policy}");
        config.microsoft = Some(crate::config::MicrosoftConfig {
            client_id: "id".into(),
            client_secret: "secret".into(),
            tenant: "organizations".into(),
            login_url: "https://login.microsoftonline.com".into(),
            graph_url: "https://graph.microsoft.com/v1.0".into(),
        });
        let policy = content_security_policy(&config, &[]);
        assert!(
            policy.contains("form-action 'self' https://login.microsoftonline.com;"),
            "{policy}"
        );
    }
}
