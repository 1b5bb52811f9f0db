#pragma once
// What a command holds to talk to a cluster: the resolved settings and the TLS context
// loaded once from them, opening a BrokerChannel to any broker on demand.
//
//   auto settings = resolve_connection_settings(flags, SettingsEnvironment::from_process());
//   ClusterConnector connector(std::move(settings));
//   BrokerChannel bootstrap = connector.open_bootstrap();
//   auto metadata = bootstrap.send(ApiKey::kMetadata, body);
//   BrokerChannel broker2 = connector.open({host, port});   // from Metadata's brokers
//
// Brokers that may stand in for each other (the bootstrap list; any broker for Metadata)
// are raced, staggered as happy eyeballs (RFC 8305) staggers addresses: the first attempt
// starts at once, each next one when the previous failed or after attempt_delay() without
// an answer, while the earlier ones keep waiting; the first broker to answer wins and the
// others are given up. A broker that accepts connections and never answers (SIGSTOPped,
// GC-stalled, half dead) so costs one delay, not the whole timeout.

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/cluster/broker_channel.hpp"
#include "kepoch/cluster/connection_settings.hpp"
#include "kepoch/cluster/tls_stream.hpp"

namespace kepoch::cluster {

// A channel that answered, with the answer to the request the attempt sent, if any.
struct ReadyBroker {
  BrokerChannel channel;
  std::optional<protocol::Struct> answer;
};

// One way to an answering broker, run on its own thread by race(): `run` must stop waiting
// at the deadline, or as soon as `cancel` fires (the channel's cancel signal).
struct BrokerAttempt {
  std::string peer;  // host:port
  std::shared_ptr<CancelSignal> cancel;
  std::function<ReadyBroker(Deadline)> run;
};

struct RaceOutcome {
  ReadyBroker ready;
  std::string peer;  // the broker that answered
  // The attempts started before it that did not win, in order, one sentence each naming
  // the broker: its error, or "host:port: no answer within N ms, host2:port2 answered".
  std::vector<std::string> passed_over;
};

class ClusterConnector {
 public:
  // Loads the TLS files when the protocol uses TLS (InputError naming a bad file).
  explicit ClusterConnector(ConnectionSettings settings);

  BrokerChannel open(const BrokerAddress& address) const;
  // An attempt that opens a channel to `address` (for race()).
  BrokerAttempt attempt_open(const BrokerAddress& address) const;

  // The bootstrap brokers raced (see the header), all within one timeout. When none is
  // ready, a ClusterError naming each broker's error and how many were tried (a single
  // broker's error unchanged); a broker that refused our credentials ends the search at once
  // (AuthenticationError). `passed_over` receives RaceOutcome::passed_over.
  BrokerChannel open_bootstrap(std::vector<std::string>* passed_over = nullptr) const;

  // The attempts raced by `deadline`. `what` names them in the error when none answered
  // ("bootstrap brokers"). Every thread has ended when this returns or throws.
  RaceOutcome race(std::vector<BrokerAttempt> attempts, Deadline deadline,
                   std::string_view what) const;

  // How long an attempt has alone before the next one starts: 500 ms, less when the
  // timeout shared by `attempts` would not leave each that much (timeout / attempts).
  static std::chrono::milliseconds attempt_delay(std::chrono::milliseconds timeout,
                                                 std::size_t attempts);

  const ConnectionSettings& settings() const { return settings_; }

 private:
  ConnectionSettings settings_;
  std::shared_ptr<const TlsContext> tls_;
};

}  // namespace kepoch::cluster
