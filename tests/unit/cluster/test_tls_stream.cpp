#include <openssl/ssl.h>
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <atomic>

#include "kepoch/base/error.hpp"
#include "kepoch/cluster/cluster_error.hpp"
#include "kepoch/cluster/frame_io.hpp"
#include "kepoch/cluster/tls_stream.hpp"
#include "support/loopback_server.hpp"

// Fixtures made by tests/unit/data/tls/make-certs.sh.
using namespace kepoch::cluster;
using namespace std::chrono_literals;
using Catch::Matchers::Contains;

namespace {

std::string tls_file(const char* name) {
  return std::string(KEPOCH_SOURCE_DIR) + "/tests/unit/data/tls/" + name;
}

struct ServerOptions {
  std::string cert = "server";  // server.pem + server.key
  bool require_client_cert = false;
};

// What the TLS server thread saw, read by the test after it joined.
struct ServerLog {
  bool handshake_ok = false;
  bool client_cert = false;
};

// A TLS server for one connection: handshake, then echo one frame back.
std::function<void(int)> tls_server(ServerOptions options, ServerLog& log) {
  return [options, &log](int fd) {
    SSL_CTX* ctx = SSL_CTX_new(TLS_server_method());
    SSL_CTX_use_certificate_chain_file(ctx, tls_file((options.cert + ".pem").c_str()).c_str());
    SSL_CTX_use_PrivateKey_file(ctx, tls_file((options.cert + ".key").c_str()).c_str(),
                                SSL_FILETYPE_PEM);
    if (options.require_client_cert) {
      SSL_CTX_load_verify_locations(ctx, tls_file("ca.pem").c_str(), nullptr);
      SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, nullptr);
    }
    SSL* ssl = SSL_new(ctx);
    SSL_set_fd(ssl, fd);
    if (SSL_accept(ssl) == 1) {
      log.handshake_ok = true;
      X509* peer = SSL_get1_peer_certificate(ssl);
      log.client_cert = peer != nullptr;
      X509_free(peer);
      unsigned char frame[64];
      const int n = SSL_read(ssl, frame, sizeof(frame));
      if (n > 0) SSL_write(ssl, frame, n);
      SSL_shutdown(ssl);
    }
    SSL_free(ssl);
    SSL_CTX_free(ctx);
  };
}

TlsSettings trusting(const char* ca) {
  TlsSettings s;
  s.ca_location = tls_file(ca);
  return s;
}

// Connects, sends a frame and expects it echoed; returns the error text on failure.
std::string round_trip(const TlsSettings& settings, const std::string& host, std::uint16_t port) {
  try {
    TlsContext context(settings);
    auto tcp = std::make_unique<TcpStream>(BrokerAddress{host, port}, deadline_after(3s), 3s);
    TlsStream tls(std::move(tcp), context, host, deadline_after(3s));
    const std::vector<std::uint8_t> hello = {'h', 'i'};
    write_frame(tls, hello, deadline_after(3s));
    const auto echo = read_frame(tls, deadline_after(3s));
    return echo == hello ? "ok" : "wrong echo";
  } catch (const std::exception& e) {
    return e.what();
  }
}

std::string with_server(const TlsSettings& settings, const std::string& host,
                        ServerOptions options = {}, ServerLog* seen = nullptr) {
  ServerLog log;
  std::string result;
  {
    test::LoopbackServer server(tls_server(options, log));
    result = round_trip(settings, host, server.port());
  }
  if (seen != nullptr) *seen = log;
  return result;
}

std::string context_error(const TlsSettings& settings) {
  try {
    TlsContext context(settings);
  } catch (const kepoch::InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("TLS: the test CA, hostname verified by IP and by name", "[cluster][tls]") {
  CHECK(with_server(trusting("ca.pem"), "127.0.0.1") == "ok");
  CHECK(with_server(trusting("ca.pem"), "localhost") == "ok");
}

TEST_CASE("TLS: a certificate for another name fails verification, unless it is off",
          "[cluster][tls]") {
  const auto result = with_server(trusting("ca.pem"), "localhost", {.cert = "other-name"});
  CHECK_THAT(result, Contains("TLS handshake with localhost:"));
  CHECK_THAT(result, Contains("failed: certificate verify failed (hostname mismatch)"));
  auto off = trusting("ca.pem");
  off.verify_hostname = false;
  CHECK(with_server(off, "localhost", {.cert = "other-name"}) == "ok");
  CHECK_THAT(with_server(trusting("ca.pem"), "127.0.0.1", {.cert = "other-name"}),
             Contains("certificate verify failed (IP address mismatch)"));
}

TEST_CASE("TLS: an untrusted issuer fails verification", "[cluster][tls]") {
  CHECK_THAT(with_server(trusting("other-ca.pem"), "127.0.0.1"),
             Contains("certificate verify failed (unable to get local issuer certificate)"));
  // The system's CA bundle does not know the test CA either.
  CHECK_THAT(with_server(TlsSettings{}, "127.0.0.1"), Contains("certificate verify failed"));
}

TEST_CASE("TLS: a port that does not speak TLS is one clear line", "[cluster][tls]") {
  SECTION("it reads the ClientHello and hangs up, as Kafka's plaintext listener does") {
    std::string result;
    {
      test::LoopbackServer server([](int fd) { test::read_n(fd, 4); });
      result = round_trip(trusting("ca.pem"), "127.0.0.1", server.port());
    }
    CHECK_THAT(result, Contains("TLS handshake with 127.0.0.1:"));
    CHECK_THAT(result, Contains("does 127.0.0.1:"));
    CHECK_THAT(result, Contains("speak TLS?"));
  }
  SECTION("it answers in plain text") {
    std::string result;
    {
      test::LoopbackServer server([](int fd) {
        test::read_n(fd, 4);
        const char reply[] = "HTTP/1.1 400 Bad Request\r\n\r\n";
        send(fd, reply, sizeof(reply) - 1, MSG_NOSIGNAL);
      });
      result = round_trip(trusting("ca.pem"), "127.0.0.1", server.port());
    }
    CHECK_THAT(result, Contains("failed: wrong version number; does 127.0.0.1:"));
  }
  SECTION("it says nothing: the handshake times out") {
    std::string result;
    const auto start = Clock::now();
    {
      test::LoopbackServer server([](int fd) { test::read_n(fd, 100000); });
      TlsContext context(trusting("ca.pem"));
      auto tcp = std::make_unique<TcpStream>(BrokerAddress{"127.0.0.1", server.port()},
                                             deadline_after(3s), 400ms);
      try {
        TlsStream tls(std::move(tcp), context, "127.0.0.1", deadline_after(400ms));
      } catch (const ClusterError& e) {
        result = e.what();
      }  // the client's socket closes here, which ends the server's read
    }
    CHECK_THAT(result, Contains("the TLS handshake with 127.0.0.1:"));
    CHECK_THAT(result, Contains("timed out after 400 ms"));
    CHECK(Clock::now() - start < 3s);
  }
}

TEST_CASE("TLS: a broker gone mid-stream is an error, never SIGPIPE", "[cluster][tls]") {
  std::string result;
  {
    test::LoopbackServer server([](int fd) {
      SSL_CTX* ctx = SSL_CTX_new(TLS_server_method());
      SSL_CTX_use_certificate_chain_file(ctx, tls_file("server.pem").c_str());
      SSL_CTX_use_PrivateKey_file(ctx, tls_file("server.key").c_str(), SSL_FILETYPE_PEM);
      SSL* ssl = SSL_new(ctx);
      SSL_set_fd(ssl, fd);
      SSL_accept(ssl);
      linger hard{1, 0};  // close with RST, at once
      setsockopt(fd, SOL_SOCKET, SO_LINGER, &hard, sizeof(hard));
      SSL_free(ssl);
      SSL_CTX_free(ctx);
    });
    TlsContext context(trusting("ca.pem"));
    auto tcp = std::make_unique<TcpStream>(BrokerAddress{"127.0.0.1", server.port()},
                                           deadline_after(3s), 3s);
    TlsStream tls(std::move(tcp), context, "127.0.0.1", deadline_after(3s));
    std::this_thread::sleep_for(100ms);
    const std::vector<std::uint8_t> big(1 << 20, 'x');
    try {
      for (int i = 0; i < 16; ++i)
        tls.write_all(big, deadline_after(3s));
      std::uint8_t byte[1];
      tls.read_exact(byte, deadline_after(3s));
    } catch (const ClusterError& e) {
      result = e.what();
    }
  }
  CHECK_THAT(result, Contains("127.0.0.1:"));
  CHECK_THAT(result, Contains("closed the connection") || Contains("connection reset"));
}

TEST_CASE("TLS: client certificates from PEM (encrypted key) and PKCS#12", "[cluster][tls]") {
  auto pem = trusting("ca.pem");
  pem.certificate_location = tls_file("client.pem");
  pem.key_location = tls_file("client-encrypted.key");
  pem.key_password = Secret("client-key-pass");
  ServerLog log;
  CHECK(with_server(pem, "127.0.0.1", {.require_client_cert = true}, &log) == "ok");
  CHECK(log.client_cert);

  auto p12 = trusting("truststore.p12");
  p12.ca_format = StoreFormat::kPkcs12;
  p12.ca_password = Secret("trust-pass");
  p12.certificate_location = tls_file("client.p12");
  p12.keystore_format = StoreFormat::kPkcs12;
  p12.keystore_password = Secret("p12-pass");
  CHECK(with_server(p12, "127.0.0.1", {.require_client_cert = true}, &log) == "ok");
  CHECK(log.client_cert);

  // Without our certificate the server refuses us; TLS 1.3 tells us after the handshake.
  CHECK_THAT(with_server(trusting("ca.pem"), "127.0.0.1", {.require_client_cert = true}),
             Contains("127.0.0.1:"));
}

TEST_CASE("TLS: unusable key material is an InputError naming the file", "[cluster][tls]") {
  auto s = trusting("ca.pem");
  s.certificate_location = tls_file("client.pem");
  s.key_location = tls_file("client-encrypted.key");
  CHECK_THAT(context_error(s), Contains("client-encrypted.key: cannot read the private key (no "
                                        "ssl.key.password given)"));
  s.key_password = Secret("wrong-key-pass");
  const auto wrong = context_error(s);
  CHECK_THAT(wrong, Contains("client-encrypted.key: cannot read the private key: "));
  CHECK_THAT(wrong, !Contains("wrong-key-pass"));
  s.key_location = tls_file("server.key");
  CHECK_THAT(
      context_error(s),
      Contains("server.key: cannot use the private key with the certificate: key values mismatch"));

  auto p12 = trusting("truststore.p12");
  p12.ca_format = StoreFormat::kPkcs12;
  p12.ca_password = Secret("not-it");
  CHECK_THAT(context_error(p12),
             Contains("truststore.p12: cannot open the PKCS#12 store (wrong password?)"));
  CHECK_THAT(context_error(trusting("client-encrypted.key")), Contains("no PEM certificate"));
  CHECK_THAT(context_error(trusting("missing.pem")), Contains("missing.pem"));
  auto not_p12 = trusting("ca.pem");
  not_p12.ca_format = StoreFormat::kPkcs12;
  CHECK_THAT(context_error(not_p12), Contains("ca.pem: not a PKCS#12 store"));
}
