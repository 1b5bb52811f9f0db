#include "kepoch/cluster/cluster_connector.hpp"

#include <fmt/format.h>

#include "kepoch/cluster/cluster_error.hpp"

namespace kepoch::cluster {

ClusterConnector::ClusterConnector(ConnectionSettings settings) : settings_(std::move(settings)) {
  if (settings_.uses_tls()) tls_ = std::make_shared<const TlsContext>(settings_.tls);
}

BrokerChannel ClusterConnector::open(const BrokerAddress& address) const {
  return BrokerChannel(settings_, address, tls_);
}

BrokerChannel ClusterConnector::open_bootstrap() const {
  const auto deadline = deadline_after(settings_.timeout);
  std::optional<ClusterError> first_error;
  std::size_t tried = 0;
  for (const auto& address : settings_.bootstrap) {
    if (tried > 0 && Clock::now() >= deadline) break;
    ++tried;
    try {
      return BrokerChannel(settings_, address, tls_, deadline);
    } catch (const AuthenticationError&) {
      throw;  // the same credentials would fail on every broker
    } catch (const ClusterError& e) {
      if (!first_error) first_error = e;
    }
  }
  if (!first_error) throw std::logic_error("open_bootstrap: no bootstrap brokers");
  if (settings_.bootstrap.size() == 1) throw *first_error;
  throw ClusterError(first_error->broker(),
                     fmt::format("{} ({} of {} bootstrap brokers tried within {} ms, none ready)",
                                 first_error->what(), tried, settings_.bootstrap.size(),
                                 settings_.timeout.count()));
}

}  // namespace kepoch::cluster
