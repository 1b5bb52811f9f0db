#include "kepoch/cluster/record_producer.hpp"

#include <algorithm>

#include <librdkafka/rdkafka.h>

#include <fmt/format.h>

#include "kepoch/cluster/cluster_error.hpp"

namespace kepoch::cluster {

struct RecordProducer::State {
  rd_kafka_t* rk = nullptr;
  std::function<void(const Delivery&)> on_delivery;
  std::string bootstrap;  // for errors
};

namespace {

void delivered(rd_kafka_t*, const rd_kafka_message_t* m, void* opaque) {
  auto* state = static_cast<RecordProducer::State*>(opaque);
  Delivery d;
  d.tag = reinterpret_cast<std::uintptr_t>(m->_private);
  d.delivered = m->err == RD_KAFKA_RESP_ERR_NO_ERROR;
  d.offset = m->offset;
  if (!d.delivered) d.error = rd_kafka_err2str(m->err);
  if (state->on_delivery) state->on_delivery(d);
}

// librdkafka's own log lines (a coordinator still loading, a broker reconnecting) would go to
// stderr; lib/ prints nothing: what matters reaches the caller as delivery reports and the
// producer's fatal error.
void no_log(const rd_kafka_t*, int, const char*, const char*) {}

std::string_view protocol_name(SecurityProtocol p) {
  switch (p) {
    case SecurityProtocol::kPlaintext:
      return "plaintext";
    case SecurityProtocol::kSsl:
      return "ssl";
    case SecurityProtocol::kSaslPlaintext:
      return "sasl_plaintext";
    case SecurityProtocol::kSaslSsl:
      return "sasl_ssl";
  }
  return "plaintext";
}

}  // namespace

std::uint64_t message_max_bytes_for(std::uint64_t record_bytes) {
  // The framing librdkafka counts with a record (its v2 record header, the batch's 61 bytes,
  // varints) is under a hundred bytes; 64 KiB leaves room for any of it.
  constexpr std::uint64_t kFraming = 64 * 1024;
  return std::clamp(record_bytes + kFraming, kDefaultMessageMaxBytes, kMostMessageMaxBytes);
}

std::vector<std::pair<std::string, std::string>> producer_properties(const ConnectionSettings& s,
                                                                     std::uint64_t largest) {
  std::vector<std::pair<std::string, std::string>> p;
  std::string bootstrap;
  for (const auto& b : s.bootstrap)
    bootstrap += (bootstrap.empty() ? "" : ",") + b.to_string();
  p.emplace_back("bootstrap.servers", bootstrap);
  p.emplace_back("client.id", s.client_id);
  p.emplace_back("security.protocol", std::string(protocol_name(s.security_protocol)));
  if (s.sasl_mechanism) {
    p.emplace_back("sasl.mechanism", *s.sasl_mechanism == SaslMechanism::kPlain ? "PLAIN"
                                     : *s.sasl_mechanism == SaslMechanism::kScramSha256
                                         ? "SCRAM-SHA-256"
                                         : "SCRAM-SHA-512");
    p.emplace_back("sasl.username", s.sasl_username);
    p.emplace_back("sasl.password", std::string(s.sasl_password.reveal()));
  }
  if (s.uses_tls()) {
    const TlsSettings& t = s.tls;
    if (!t.ca_location.empty()) {
      if (t.ca_format == StoreFormat::kPkcs12)
        throw ClusterError(bootstrap,
                           "replay: a PKCS#12 trust store is not supported by librdkafka; give "
                           "the CA certificates as PEM (ssl.ca.location)");
      p.emplace_back("ssl.ca.location", t.ca_location);
    }
    if (t.keystore_format == StoreFormat::kPkcs12 && !t.certificate_location.empty()) {
      p.emplace_back("ssl.keystore.location", t.certificate_location);
      p.emplace_back("ssl.keystore.password", std::string(t.keystore_password.reveal()));
    } else {
      if (!t.certificate_location.empty())
        p.emplace_back("ssl.certificate.location", t.certificate_location);
      if (!t.key_location.empty()) p.emplace_back("ssl.key.location", t.key_location);
      if (!t.key_password.empty())
        p.emplace_back("ssl.key.password", std::string(t.key_password.reveal()));
    }
    p.emplace_back("ssl.endpoint.identification.algorithm", t.verify_hostname ? "https" : "none");
  }
  // The idempotent producer: acks=all, in order, each record once (retries included).
  p.emplace_back("enable.idempotence", "true");
  p.emplace_back("acks", "all");
  p.emplace_back("linger.ms", "5");
  if (const std::uint64_t max = message_max_bytes_for(largest); max > kDefaultMessageMaxBytes)
    p.emplace_back("message.max.bytes", std::to_string(max));
  p.emplace_back("message.timeout.ms",
                 std::to_string(std::max<long long>(30000, s.timeout.count() * 3)));
  return p;
}

RecordProducer::RecordProducer(const ConnectionSettings& settings,
                               std::uint64_t largest_record_bytes,
                               std::function<void(const Delivery&)> on_delivery)
    : state_(std::make_unique<State>()) {
  state_->on_delivery = std::move(on_delivery);
  for (const auto& b : settings.bootstrap)
    state_->bootstrap += (state_->bootstrap.empty() ? "" : ",") + b.to_string();
  rd_kafka_conf_t* conf = rd_kafka_conf_new();
  char err[512];
  for (const auto& [key, value] : producer_properties(settings, largest_record_bytes)) {
    if (rd_kafka_conf_set(conf, key.c_str(), value.c_str(), err, sizeof err) != RD_KAFKA_CONF_OK) {
      rd_kafka_conf_destroy(conf);
      // The message names the property, never its value (it may be a secret).
      throw ClusterError(state_->bootstrap,
                         fmt::format("replay: the producer refused {}: {}", key, err));
    }
  }
  rd_kafka_conf_set_dr_msg_cb(conf, delivered);
  rd_kafka_conf_set_log_cb(conf, no_log);
  rd_kafka_conf_set_opaque(conf, state_.get());
  state_->rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
  if (!state_->rk) {
    rd_kafka_conf_destroy(conf);
    throw ClusterError(state_->bootstrap,
                       fmt::format("replay: the producer could not start: {}", err));
  }
}

RecordProducer::~RecordProducer() {
  if (state_ && state_->rk) {
    rd_kafka_flush(state_->rk, 0);
    rd_kafka_destroy(state_->rk);
  }
}

void RecordProducer::produce(const ProducedRecord& r, std::uint64_t tag) {
  // The macros below cast their arguments without parentheses: plain values only.
  void* key = r.key ? const_cast<std::uint8_t*>(r.key->data()) : nullptr;
  const std::size_t key_size = r.key ? r.key->size() : 0;
  void* value = r.value ? const_cast<std::uint8_t*>(r.value->data()) : nullptr;
  const std::size_t value_size = r.value ? r.value->size() : 0;
  const std::int64_t timestamp = r.timestamp >= 0 ? r.timestamp : 0;  // 0: now
  void* opaque = reinterpret_cast<void*>(static_cast<std::uintptr_t>(tag));
  for (;;) {
    rd_kafka_headers_t* headers = rd_kafka_headers_new(r.headers.size());
    for (const auto& [name, bytes] : r.headers)
      rd_kafka_header_add(headers, name.data(), static_cast<ssize_t>(name.size()),
                          bytes ? bytes->data() : nullptr,
                          bytes ? static_cast<ssize_t>(bytes->size()) : 0);
    const rd_kafka_resp_err_t e = rd_kafka_producev(
        state_->rk, RD_KAFKA_V_TOPIC(r.topic.c_str()), RD_KAFKA_V_PARTITION(r.partition),
        RD_KAFKA_V_MSGFLAGS(RD_KAFKA_MSG_F_COPY), RD_KAFKA_V_KEY(key, key_size),
        RD_KAFKA_V_VALUE(value, value_size), RD_KAFKA_V_TIMESTAMP(timestamp),
        RD_KAFKA_V_HEADERS(headers), RD_KAFKA_V_OPAQUE(opaque), RD_KAFKA_V_END);
    if (e == RD_KAFKA_RESP_ERR_NO_ERROR) return;  // the headers are the message's now
    rd_kafka_headers_destroy(headers);
    if (e == RD_KAFKA_RESP_ERR__QUEUE_FULL) {
      rd_kafka_poll(state_->rk, 100);
      continue;
    }
    throw ClusterError(state_->bootstrap, fmt::format("replay: cannot produce to {}-{}: {}",
                                                      r.topic, r.partition, rd_kafka_err2str(e)));
  }
}

void RecordProducer::poll(int ms) {
  rd_kafka_poll(state_->rk, ms);
}

bool RecordProducer::flush(int ms) {
  return rd_kafka_flush(state_->rk, ms) == RD_KAFKA_RESP_ERR_NO_ERROR;
}

int RecordProducer::outstanding() const {
  return rd_kafka_outq_len(state_->rk);
}

std::string RecordProducer::fatal_error() const {
  char err[512];
  if (rd_kafka_fatal_error(state_->rk, err, sizeof err) != RD_KAFKA_RESP_ERR_NO_ERROR) return err;
  return "";
}

}  // namespace kepoch::cluster
