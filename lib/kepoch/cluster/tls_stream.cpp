#include "kepoch/cluster/tls_stream.hpp"

#include <arpa/inet.h>
#include <fmt/format.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/pkcs12.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>

#include <array>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "kepoch/base/error.hpp"
#include "kepoch/base/read_only_file.hpp"
#include "kepoch/cluster/cluster_error.hpp"

namespace kepoch::cluster {
namespace {

constexpr std::uint64_t kMaxStoreBytes = 16 << 20;

// OpenSSL's reason for the oldest error in the thread's queue (the cause; later entries
// wrap it), or `fallback`. Empties the queue.
std::string openssl_reason(std::string_view fallback) {
  const unsigned long first = ERR_get_error();
  ERR_clear_error();
  if (first == 0) return std::string(fallback);
  const char* reason = ERR_reason_error_string(first);
  return reason != nullptr ? reason : fmt::format("OpenSSL error {:#x}", first);
}

struct BioDeleter {
  void operator()(BIO* bio) const { BIO_free(bio); }
};
using BioPtr = std::unique_ptr<BIO, BioDeleter>;

// The file's bytes in a memory BIO: our own reading gives the usual one-line InputError
// for a missing or unreadable file.
struct FileBio {
  std::string bytes;
  BioPtr bio;
};

FileBio read_bio(const std::string& path) {
  FileBio f{read_small_file(path, kMaxStoreBytes), nullptr};
  f.bio.reset(BIO_new_mem_buf(f.bytes.data(), static_cast<int>(f.bytes.size())));
  return f;
}

// Never let OpenSSL prompt on the terminal for a passphrase: no password means failure.
int password_callback(char* buf, int size, int /*rwflag*/, void* user) {
  const auto* secret = static_cast<const Secret*>(user);
  if (secret == nullptr || secret->empty()) return 0;
  const auto text = secret->reveal();
  if (text.size() > static_cast<std::size_t>(size)) return 0;
  std::memcpy(buf, text.data(), text.size());
  return static_cast<int>(text.size());
}

struct Pkcs12Content {
  EVP_PKEY* key = nullptr;
  X509* cert = nullptr;
  STACK_OF(X509) * ca = nullptr;
  ~Pkcs12Content() {
    EVP_PKEY_free(key);
    X509_free(cert);
    sk_X509_pop_free(ca, X509_free);
  }
};

void read_pkcs12(const std::string& path, const Secret& password, Pkcs12Content& out) {
  const auto file = read_bio(path);
  PKCS12* p12 = d2i_PKCS12_bio(file.bio.get(), nullptr);
  if (p12 == nullptr)
    throw InputError(path, "not a PKCS#12 store: " + openssl_reason("unreadable"));
  const std::string pass(password.reveal());
  const int ok = PKCS12_parse(p12, pass.c_str(), &out.key, &out.cert, &out.ca);
  PKCS12_free(p12);
  if (ok != 1)
    throw InputError(path, "cannot open the PKCS#12 store (wrong password?): " +
                               openssl_reason("PKCS12_parse failed"));
}

void add_trusted(X509_STORE* store, X509* cert) {
  // A certificate listed twice is not an error.
  if (X509_STORE_add_cert(store, cert) != 1) ERR_clear_error();
}

void load_pem_trust(SSL_CTX* ctx, const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    if (SSL_CTX_load_verify_locations(ctx, nullptr, path.c_str()) != 1)
      throw InputError(path, "cannot use as a CA directory: " + openssl_reason("failed"));
    return;
  }
  const auto file = read_bio(path);
  STACK_OF(X509_INFO)* infos = PEM_X509_INFO_read_bio(file.bio.get(), nullptr, nullptr, nullptr);
  if (infos == nullptr) throw InputError(path, "not a PEM file: " + openssl_reason("unreadable"));
  int count = 0;
  X509_STORE* store = SSL_CTX_get_cert_store(ctx);
  for (int i = 0; i < sk_X509_INFO_num(infos); ++i) {
    if (X509* cert = sk_X509_INFO_value(infos, i)->x509) {
      add_trusted(store, cert);
      ++count;
    }
  }
  sk_X509_INFO_pop_free(infos, X509_INFO_free);
  if (count == 0) throw InputError(path, "no PEM certificate (-----BEGIN CERTIFICATE-----) in it");
}

#ifdef KEPOCH_STATIC_BUILD
// The static build's OpenSSL was configured on Debian: its default CA paths are Debian's
// (/usr/lib/ssl/cert.pem, /usr/lib/ssl/certs), which other distributions do not have. When
// neither exists and SSL_CERT_FILE / SSL_CERT_DIR do not name others, the first CA bundle of
// the places distributions keep one is trusted, as librdkafka's ssl.ca.location=probe does
// (rdkafka_ssl.c, rd_kafka_ssl_probe_and_set_default_ca_location).
void trust_distribution_bundle(SSL_CTX* ctx) {
  std::error_code ec;
  if (std::getenv(X509_get_default_cert_file_env()) != nullptr ||
      std::getenv(X509_get_default_cert_dir_env()) != nullptr ||
      std::filesystem::exists(X509_get_default_cert_file(), ec) ||
      std::filesystem::exists(X509_get_default_cert_dir(), ec))
    return;
  static constexpr const char* kBundles[] = {
      "/etc/pki/tls/certs/ca-bundle.crt",                   // RHEL, Fedora, CentOS
      "/etc/ssl/certs/ca-certificates.crt",                 // Debian, Ubuntu, Alpine, Gentoo
      "/etc/pki/ca-trust/extracted/pem/tls-ca-bundle.pem",  // RHEL 7 and later, UBI
      "/etc/ssl/ca-bundle.pem",                             // openSUSE
      "/etc/pki/tls/cacert.pem",                            // OpenELEC
      "/etc/ssl/cert.pem",                                  // Alpine, the BSDs
  };
  for (const char* bundle : kBundles) {
    if (std::filesystem::is_regular_file(bundle, ec) &&
        SSL_CTX_load_verify_locations(ctx, bundle, nullptr) == 1)
      return;
    ERR_clear_error();
  }
}
#endif

void load_trust(SSL_CTX* ctx, const TlsSettings& s) {
  if (s.ca_location.empty()) {
    if (SSL_CTX_set_default_verify_paths(ctx) != 1)
      throw InputError("(system CA paths)", openssl_reason("cannot load"));
#ifdef KEPOCH_STATIC_BUILD
    trust_distribution_bundle(ctx);
#endif
    return;
  }
  if (s.ca_format == StoreFormat::kPem) return load_pem_trust(ctx, s.ca_location);
  Pkcs12Content content;
  read_pkcs12(s.ca_location, s.ca_password, content);
  X509_STORE* store = SSL_CTX_get_cert_store(ctx);
  int count = 0;
  if (content.cert != nullptr) {
    add_trusted(store, content.cert);
    ++count;
  }
  for (int i = 0; i < sk_X509_num(content.ca); ++i) {
    add_trusted(store, sk_X509_value(content.ca, i));
    ++count;
  }
  if (count == 0) throw InputError(s.ca_location, "no certificate in the PKCS#12 trust store");
}

void use_key_and_chain(SSL_CTX* ctx, const std::string& path, EVP_PKEY* key, X509* cert,
                       STACK_OF(X509) * chain) {
  if (SSL_CTX_use_certificate(ctx, cert) != 1)
    throw InputError(path, "cannot use the certificate: " + openssl_reason("failed"));
  if (SSL_CTX_use_PrivateKey(ctx, key) != 1)
    throw InputError(
        path, "cannot use the private key with the certificate: " + openssl_reason("failed"));
  for (int i = 0; i < sk_X509_num(chain); ++i)
    if (SSL_CTX_add1_chain_cert(ctx, sk_X509_value(chain, i)) != 1)
      throw InputError(path, "cannot use a chain certificate: " + openssl_reason("failed"));
  if (SSL_CTX_check_private_key(ctx) != 1)
    throw InputError(path, "the private key does not match the certificate");
}

void load_pem_identity(SSL_CTX* ctx, const TlsSettings& s) {
  const auto certs = read_bio(s.certificate_location);
  X509* cert = PEM_read_bio_X509_AUX(certs.bio.get(), nullptr, nullptr, nullptr);
  if (cert == nullptr)
    throw InputError(s.certificate_location,
                     "no PEM certificate (-----BEGIN CERTIFICATE-----) in it");
  STACK_OF(X509)* chain = sk_X509_new_null();
  while (X509* extra = PEM_read_bio_X509(certs.bio.get(), nullptr, nullptr, nullptr))
    sk_X509_push(chain, extra);
  ERR_clear_error();  // the loop ends on "no start line"
  const auto keys = read_bio(s.key_location);
  EVP_PKEY* key = PEM_read_bio_PrivateKey(keys.bio.get(), nullptr, password_callback,
                                          const_cast<Secret*>(&s.key_password));
  if (key == nullptr) {
    X509_free(cert);
    sk_X509_pop_free(chain, X509_free);
    throw InputError(s.key_location,
                     fmt::format("cannot read the private key{}: {}",
                                 s.key_password.empty() ? " (no ssl.key.password given)" : "",
                                 openssl_reason("no PEM private key in it")));
  }
  Pkcs12Content owned;  // frees them however this ends
  owned.key = key;
  owned.cert = cert;
  owned.ca = chain;
  use_key_and_chain(ctx, s.key_location, key, cert, chain);
}

void load_identity(SSL_CTX* ctx, const TlsSettings& s) {
  if (s.certificate_location.empty()) return;
  if (s.keystore_format == StoreFormat::kPem) return load_pem_identity(ctx, s);
  Pkcs12Content content;
  // Java's key stores usually share one password; the key password is the fallback.
  read_pkcs12(s.certificate_location,
              s.keystore_password.empty() ? s.key_password : s.keystore_password, content);
  if (content.key == nullptr || content.cert == nullptr)
    throw InputError(s.certificate_location,
                     "no private key with its certificate in the PKCS#12 key store");
  use_key_and_chain(ctx, s.certificate_location, content.key, content.cert, content.ca);
}

bool is_ip_literal(const std::string& host) {
  unsigned char buffer[sizeof(in6_addr)];
  return inet_pton(AF_INET, host.c_str(), buffer) == 1 ||
         inet_pton(AF_INET6, host.c_str(), buffer) == 1;
}

bool looks_like_plaintext_port(std::string_view reason) {
  return reason == "wrong version number" || reason == "unexpected eof while reading" ||
         reason == "packet length too long" || reason == "record layer failure" ||
         reason == "the broker closed the connection" || reason == "connection reset by the broker";
}

}  // namespace

TlsContext::TlsContext(const TlsSettings& settings) : verify_hostname_(settings.verify_hostname) {
  ERR_clear_error();
  ctx_ = SSL_CTX_new(TLS_client_method());
  if (ctx_ == nullptr) throw std::runtime_error("SSL_CTX_new: " + openssl_reason("failed"));
  try {
    SSL_CTX_set_min_proto_version(ctx_, TLS1_2_VERSION);
    SSL_CTX_set_verify(ctx_, SSL_VERIFY_PEER, nullptr);
    load_trust(ctx_, settings);
    load_identity(ctx_, settings);
  } catch (...) {
    SSL_CTX_free(ctx_);
    throw;
  }
}

TlsContext::~TlsContext() {
  SSL_CTX_free(ctx_);
}

TlsStream::TlsStream(std::unique_ptr<TcpStream> tcp, const TlsContext& context,
                     const std::string& host, Deadline deadline)
    : tcp_(std::move(tcp)) {
  ERR_clear_error();
  ssl_ = SSL_new(context.native());
  if (ssl_ == nullptr) throw std::runtime_error("SSL_new: " + openssl_reason("failed"));
  network_in_ = BIO_new(BIO_s_mem());
  network_out_ = BIO_new(BIO_s_mem());
  // An empty input BIO means "not yet" (retry), until the socket reports EOF.
  BIO_set_mem_eof_return(network_in_, -1);
  SSL_set_bio(ssl_, network_in_, network_out_);  // the SSL owns both from here
  // An IP literal is matched against the certificate's IP SANs and gets no SNI (RFC 6066).
  const bool is_ip = is_ip_literal(host);
  if (!is_ip) SSL_set_tlsext_host_name(ssl_, host.c_str());
  if (context.verify_hostname()) {
    X509_VERIFY_PARAM* param = SSL_get0_param(ssl_);
    if (is_ip) {
      X509_VERIFY_PARAM_set1_ip_asc(param, host.c_str());
    } else {
      X509_VERIFY_PARAM_set1_host(param, host.c_str(), 0);
    }
  }
  try {
    drive([this] { return SSL_connect(ssl_); }, deadline, "the TLS handshake with");
  } catch (...) {
    SSL_free(ssl_);
    throw;
  }
  handshake_done_ = true;
}

TlsStream::~TlsStream() {
  // Best effort close_notify; never wait for the broker's answer.
  if (handshake_done_ && !peer_closed_ && SSL_shutdown(ssl_) >= 0) {
    std::array<std::uint8_t, 256> alert{};
    const int n = BIO_read(network_out_, alert.data(), static_cast<int>(alert.size()));
    if (n > 0) tcp_->send_nowait(std::span(alert.data(), static_cast<std::size_t>(n)));
  }
  SSL_free(ssl_);
  ERR_clear_error();
}

void TlsStream::flush(Deadline deadline) {
  std::array<std::uint8_t, 16384> chunk{};
  while (BIO_ctrl_pending(network_out_) > 0) {
    const int n = BIO_read(network_out_, chunk.data(), static_cast<int>(chunk.size()));
    if (n <= 0) break;
    tcp_->write_all(std::span(chunk.data(), static_cast<std::size_t>(n)), deadline);
  }
}

void TlsStream::fill(Deadline deadline, std::string_view doing) {
  std::array<std::uint8_t, 16384> chunk{};
  const auto n = tcp_->read_some(chunk, deadline, doing);
  if (n == 0) {
    peer_closed_ = true;
    BIO_set_mem_eof_return(network_in_, 0);  // OpenSSL now sees the end of the stream
    return;
  }
  BIO_write(network_in_, chunk.data(), static_cast<int>(n));
}

template <typename Op>
void TlsStream::drive(Op op, Deadline deadline, std::string_view doing) {
  while (true) {
    ERR_clear_error();
    const int result = op();
    const int error = result > 0 ? SSL_ERROR_NONE : SSL_get_error(ssl_, result);
    // A fatal error leaves an alert in network_out_: not sent, the reason matters more.
    if (error != SSL_ERROR_NONE && error != SSL_ERROR_WANT_READ) fail(error, doing);
    flush(deadline);
    if (error == SSL_ERROR_NONE) return;
    if (peer_closed_) fail(error, doing);
    fill(deadline, doing);
  }
}

void TlsStream::fail(int ssl_error, std::string_view doing) {
  const auto& peer = tcp_->peer();
  std::string reason;
  if (peer_closed_ || ssl_error == SSL_ERROR_ZERO_RETURN) {
    reason = "the broker closed the connection";
  } else {
    reason = openssl_reason("TLS failure");
  }
  if (!handshake_done_) {
    const long verify = SSL_get_verify_result(ssl_);
    if (verify != X509_V_OK) reason += fmt::format(" ({})", X509_verify_cert_error_string(verify));
    if (looks_like_plaintext_port(reason)) reason += fmt::format("; does {} speak TLS?", peer);
    throw ClusterError(peer, fmt::format("TLS handshake with {} failed: {}", peer, reason));
  }
  throw ClusterError(peer, fmt::format("{} {}: {}", doing, peer, reason));
}

void TlsStream::write_all(std::span<const std::uint8_t> bytes, Deadline deadline) {
  while (!bytes.empty()) {
    std::size_t written = 0;
    drive([&] { return SSL_write_ex(ssl_, bytes.data(), bytes.size(), &written); }, deadline,
          "writing to");
    bytes = bytes.subspan(written);
  }
}

void TlsStream::read_exact(std::span<std::uint8_t> out, Deadline deadline) {
  while (!out.empty()) {
    std::size_t got = 0;
    drive([&] { return SSL_read_ex(ssl_, out.data(), out.size(), &got); }, deadline,
          "reading from");
    out = out.subspan(got);
  }
}

}  // namespace kepoch::cluster
