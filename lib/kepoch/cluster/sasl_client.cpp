#include "kepoch/cluster/sasl_client.hpp"

#include "kepoch/cluster/sasl_plain.hpp"
#include "kepoch/cluster/scram_client.hpp"

namespace kepoch::cluster {

std::unique_ptr<SaslClient> make_sasl_client(const ConnectionSettings& settings) {
  if (!settings.sasl_mechanism) throw std::logic_error("make_sasl_client without a mechanism");
  switch (*settings.sasl_mechanism) {
    case SaslMechanism::kPlain:
      break;
    case SaslMechanism::kScramSha256:
      return std::make_unique<ScramSaslClient>(ScramSaslClient::Hash::kSha256,
                                               settings.sasl_username, settings.sasl_password);
    case SaslMechanism::kScramSha512:
      return std::make_unique<ScramSaslClient>(ScramSaslClient::Hash::kSha512,
                                               settings.sasl_username, settings.sasl_password);
  }
  return std::make_unique<PlainSaslClient>(settings.sasl_username, settings.sasl_password);
}

}  // namespace kepoch::cluster
