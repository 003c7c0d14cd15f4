//! Rebuild when the embedded web app or static files change: rust-embed includes the files
//! it saw, but a fresh Vite build adds new hashed file names that cargo would not notice.

fn main() {
    println!("cargo:rerun-if-changed=../app/dist");
    println!("cargo:rerun-if-changed=../public");
    println!("cargo:rerun-if-changed=../migrations");
}
