//! A TCP stream whose every read and write must make progress within a bound: lettre's async
//! SMTP connection has no per-command timeout of its own (its `timeout` covers connecting
//! only), so a server that accepts and then goes silent would hold a sender for ever. Each
//! SMTP command waits on a read (the server's reply), so bounding each stalled read or write
//! bounds each command.

use std::io;
use std::net::SocketAddr;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use lettre::transport::smtp::client::AsyncTokioStream;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::{sleep, Sleep};

/// A [`TcpStream`] that fails a read or write stalled for longer than `limit` with
/// [`io::ErrorKind::TimedOut`].
#[derive(Debug)]
pub struct TimeoutStream {
    inner: TcpStream,
    limit: Duration,
    read_deadline: Option<Pin<Box<Sleep>>>,
    write_deadline: Option<Pin<Box<Sleep>>>,
}

impl TimeoutStream {
    pub fn new(inner: TcpStream, limit: Duration) -> TimeoutStream {
        TimeoutStream {
            inner,
            limit,
            read_deadline: None,
            write_deadline: None,
        }
    }
}

/// `Ready(result)` clears the deadline; `Pending` arms it (once) and fails when it passes.
fn bounded<T>(
    deadline: &mut Option<Pin<Box<Sleep>>>,
    limit: Duration,
    cx: &mut Context<'_>,
    polled: Poll<io::Result<T>>,
) -> Poll<io::Result<T>> {
    match polled {
        Poll::Ready(result) => {
            *deadline = None;
            Poll::Ready(result)
        }
        Poll::Pending => {
            let timer = deadline.get_or_insert_with(|| Box::pin(sleep(limit)));
            match timer.as_mut().poll(cx) {
                Poll::Ready(()) => {
                    *deadline = None;
                    Poll::Ready(Err(io::Error::new(
                        io::ErrorKind::TimedOut,
                        format!("the mail server sent nothing for {} s", limit.as_secs_f32()),
                    )))
                }
                Poll::Pending => Poll::Pending,
            }
        }
    }
}

use std::future::Future as _;

impl AsyncRead for TimeoutStream {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_read(cx, buf);
        bounded(&mut this.read_deadline, this.limit, cx, polled)
    }
}

impl AsyncWrite for TimeoutStream {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_write(cx, buf);
        bounded(&mut this.write_deadline, this.limit, cx, polled)
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_flush(cx);
        bounded(&mut this.write_deadline, this.limit, cx, polled)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        let polled = Pin::new(&mut this.inner).poll_shutdown(cx);
        bounded(&mut this.write_deadline, this.limit, cx, polled)
    }
}

impl AsyncTokioStream for TimeoutStream {
    fn peer_addr(&self) -> io::Result<SocketAddr> {
        self.inner.peer_addr()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::AsyncReadExt;

    #[tokio::test]
    async fn a_silent_peer_times_out_a_read() {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind");
        let address = listener.local_addr().expect("address");
        let accepted = tokio::spawn(async move { listener.accept().await });
        let tcp = TcpStream::connect(address).await.expect("connect");
        let _peer = accepted.await.expect("join").expect("accept");
        let mut stream = TimeoutStream::new(tcp, Duration::from_millis(100));
        let mut buf = [0u8; 8];
        let err = stream
            .read(&mut buf)
            .await
            .expect_err("silence is an error");
        assert_eq!(err.kind(), io::ErrorKind::TimedOut);
    }
}
