#pragma once
// What a command holds to talk to a cluster: the resolved settings and the TLS context
// loaded once from them, opening a BrokerChannel to any broker on demand.
//
//   auto settings = resolve_connection_settings(flags, SettingsEnvironment::from_process());
//   ClusterConnector connector(std::move(settings));
//   BrokerChannel bootstrap = connector.open_bootstrap();
//   auto metadata = bootstrap.send(ApiKey::kMetadata, body);
//   BrokerChannel broker2 = connector.open({host, port});   // from Metadata's brokers

#include <memory>

#include "kepoch/cluster/broker_channel.hpp"
#include "kepoch/cluster/connection_settings.hpp"
#include "kepoch/cluster/tls_stream.hpp"

namespace kepoch::cluster {

class ClusterConnector {
 public:
  // Loads the TLS files when the protocol uses TLS (InputError naming a bad file).
  explicit ClusterConnector(ConnectionSettings settings);

  BrokerChannel open(const BrokerAddress& address) const;
  // The bootstrap brokers in order until one is ready, all within one timeout (a broker
  // that refuses at once leaves time for the next; a silent one may use it all). When none
  // is ready, the first broker's error is thrown, saying how many were tried; a broker that
  // refused our credentials ends the search at once (AuthenticationError).
  BrokerChannel open_bootstrap() const;

  const ConnectionSettings& settings() const { return settings_; }

 private:
  ConnectionSettings settings_;
  std::shared_ptr<const TlsContext> tls_;
};

}  // namespace kepoch::cluster
