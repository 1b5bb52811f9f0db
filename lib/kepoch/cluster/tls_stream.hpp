#pragma once
// TLS over a TcpStream with OpenSSL 3. OpenSSL works on memory BIOs and every byte goes
// through the TcpStream, so TLS gets the same deadlines and MSG_NOSIGNAL (OpenSSL's own
// socket BIO write()s, and a fatal alert to a closed socket would raise SIGPIPE).
// The context (TlsContext) loads the trust anchors
// (a PEM file or directory, a PKCS#12 trust store, or the system's default paths) and our
// optional client certificate once; each TlsStream then does SNI, hostname verification
// when asked, and a handshake bounded by the deadline. A failed handshake is one line with
// OpenSSL's reason ("certificate verify failed (Hostname mismatch)", "wrong version
// number"), plus a hint when the port seems not to speak TLS.

#include <memory>
#include <string>

#include "kepoch/cluster/byte_stream.hpp"
#include "kepoch/cluster/connection_settings.hpp"
#include "kepoch/cluster/tcp_stream.hpp"

struct bio_st;
struct ssl_ctx_st;
struct ssl_st;

namespace kepoch::cluster {

class TlsContext {
 public:
  // Loads the files TlsSettings name. Throws InputError naming the file (missing, no
  // certificate in it, a key that does not decrypt or does not fit the certificate).
  explicit TlsContext(const TlsSettings& settings);
  ~TlsContext();
  TlsContext(const TlsContext&) = delete;
  TlsContext& operator=(const TlsContext&) = delete;

  ssl_ctx_st* native() const { return ctx_; }
  bool verify_hostname() const { return verify_hostname_; }

 private:
  ssl_ctx_st* ctx_ = nullptr;
  bool verify_hostname_ = true;
};

class TlsStream : public ByteStream {
 public:
  // Runs the handshake over `tcp` for `host` by `deadline`. Throws ClusterError.
  TlsStream(std::unique_ptr<TcpStream> tcp, const TlsContext& context, const std::string& host,
            Deadline deadline);
  ~TlsStream() override;
  TlsStream(const TlsStream&) = delete;
  TlsStream& operator=(const TlsStream&) = delete;

  void write_all(std::span<const std::uint8_t> bytes, Deadline deadline) override;
  void read_exact(std::span<std::uint8_t> out, Deadline deadline) override;
  const std::string& peer() const override { return tcp_->peer(); }

 private:
  // Drives one OpenSSL call until it succeeds: sends what it wrote, reads what it wants.
  template <typename Op>
  void drive(Op op, Deadline deadline, std::string_view doing);
  void flush(Deadline deadline);
  void fill(Deadline deadline, std::string_view doing);
  [[noreturn]] void fail(int ssl_error, std::string_view doing);

  std::unique_ptr<TcpStream> tcp_;
  ssl_st* ssl_ = nullptr;
  bio_st* network_in_ = nullptr;   // bytes from the broker, for OpenSSL to read
  bio_st* network_out_ = nullptr;  // bytes OpenSSL wrote, for the broker
  bool peer_closed_ = false;
  bool handshake_done_ = false;
};

}  // namespace kepoch::cluster
