#include "kepoch/cluster/host_resolver.hpp"

#include <arpa/inet.h>
#include <arpa/nameser.h>
#include <netdb.h>
#include <netinet/in.h>
#include <resolv.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <sstream>
#include <type_traits>

#include "kepoch/base/error.hpp"
#include "kepoch/base/read_only_file.hpp"

namespace kepoch::cluster {
namespace {

bool ascii_equal_ignore_case(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const auto lower = [](char c) { return c >= 'A' && c <= 'Z' ? char(c - 'A' + 'a') : c; };
    if (lower(a[i]) != lower(b[i])) return false;
  }
  return true;
}

// An IPv4 or IPv6 address as getaddrinfo(AI_NUMERICHOST) takes it; an IPv6 address may
// carry a zone ("fe80::1%eth0").
bool is_numeric_address(const std::string& text) {
  unsigned char buffer[sizeof(in6_addr)];
  if (inet_pton(AF_INET, text.c_str(), buffer) == 1) return true;
  const auto zone = text.find('%');
  return inet_pton(AF_INET6, text.substr(0, zone).c_str(), buffer) == 1;
}

void add_once(std::vector<std::string>& out, std::string address) {
  if (std::find(out.begin(), out.end(), address) == out.end()) out.push_back(std::move(address));
}

// DNS message layout (RFC 1035 4.1): a 12-byte header (id, flags, QDCOUNT, ANCOUNT, NSCOUNT,
// ARCOUNT, each big-endian 16 bits), QDCOUNT questions (name, type 16, class 16), then
// ANCOUNT resource records (name, type 16, class 16, TTL 32, RDLENGTH 16, RDATA). A name is
// labels (a length byte 1..63, then the bytes) ending in a zero byte, or in a two-byte
// pointer whose top bits are 11 (RFC 1035 4.1.4 compression).
class DnsReader {
 public:
  explicit DnsReader(std::span<const std::uint8_t> message) : m_(message) {}
  bool u16(std::uint16_t& out) {
    if (at_ + 2 > m_.size()) return false;
    out = static_cast<std::uint16_t>((m_[at_] << 8) | m_[at_ + 1]);
    at_ += 2;
    return true;
  }
  bool skip(std::size_t n) {
    if (at_ + n > m_.size()) return false;
    at_ += n;
    return true;
  }
  bool skip_name() {
    while (at_ < m_.size()) {
      const std::uint8_t length = m_[at_];
      if ((length & 0xC0) == 0xC0) return skip(2);  // a pointer ends the name
      if ((length & 0xC0) != 0) return false;       // 01 and 10 are reserved
      ++at_;
      if (length == 0) return true;
      if (!skip(length)) return false;
    }
    return false;
  }
  bool take(std::size_t n, std::span<const std::uint8_t>& out) {
    if (at_ + n > m_.size()) return false;
    out = m_.subspan(at_, n);
    at_ += n;
    return true;
  }

 private:
  std::span<const std::uint8_t> m_;
  std::size_t at_ = 0;
};

constexpr std::uint16_t kTypeA = 1;
constexpr std::uint16_t kTypeAaaa = 28;
constexpr std::uint16_t kClassIn = 1;

// /etc/hosts, read-only and bounded; a hosts file that is absent or unreadable (a root that
// holds none) is no name at all, as glibc's files module treats it.
std::string read_hosts(const std::string& path, bool& found) {
  try {
    auto text = read_small_file(path, 16 << 20);
    found = true;
    return text;
  } catch (const InputError&) {
    found = false;
    return {};
  }
}

// res_nsearch with a resolver state of this thread's own (the detached lookup thread may
// outlive the caller's wait); -1 and `h_error` when there is no answer.
std::vector<std::string> dns_addresses(const std::string& name, int type, int& h_error) {
  using ResolverState = std::remove_pointer_t<res_state>;  // struct __res_state
  auto state = std::make_unique<ResolverState>();
  std::memset(state.get(), 0, sizeof(ResolverState));
  if (res_ninit(state.get()) != 0) {
    h_error = NO_RECOVERY;
    return {};
  }
  std::vector<std::uint8_t> answer(65536);
  const int length = res_nsearch(state.get(), name.c_str(), C_IN, type, answer.data(),
                                 static_cast<int>(answer.size()));
  h_error = state->res_h_errno;
  res_nclose(state.get());
  if (length < 0) return {};
  answer.resize(std::min(answer.size(), static_cast<std::size_t>(length)));
  return dns_answer_addresses(answer);
}

std::string h_error_text(int h_error) {
  switch (h_error) {
    case HOST_NOT_FOUND:
      return "DNS: no such name";
    case NO_DATA:
      return "DNS: the name has no address";
    case TRY_AGAIN:
      return "DNS: no answer from the name servers of /etc/resolv.conf";
    default:
      return "DNS: the lookup failed";
  }
}

}  // namespace

std::vector<std::string> hosts_file_addresses(std::string_view hosts_text, std::string_view name) {
  std::vector<std::string> out;
  std::size_t line_start = 0;
  while (line_start < hosts_text.size()) {
    auto line_end = hosts_text.find('\n', line_start);
    if (line_end == std::string_view::npos) line_end = hosts_text.size();
    auto line = hosts_text.substr(line_start, line_end - line_start);
    line_start = line_end + 1;
    if (const auto hash = line.find('#'); hash != std::string_view::npos)
      line = line.substr(0, hash);
    std::istringstream fields{std::string(line)};
    std::string address;
    if (!(fields >> address) || !is_numeric_address(address)) continue;
    for (std::string host; fields >> host;) {
      if (ascii_equal_ignore_case(host, name)) {
        add_once(out, address);
        break;
      }
    }
  }
  return out;
}

std::vector<std::string> dns_answer_addresses(std::span<const std::uint8_t> message) {
  std::vector<std::string> out;
  DnsReader r(message);
  std::uint16_t id = 0, flags = 0, questions = 0, answers = 0, authority = 0, additional = 0;
  if (!r.u16(id) || !r.u16(flags) || !r.u16(questions) || !r.u16(answers) || !r.u16(authority) ||
      !r.u16(additional))
    return out;
  for (std::uint16_t q = 0; q < questions; ++q)
    if (!r.skip_name() || !r.skip(4)) return out;
  for (std::uint16_t a = 0; a < answers; ++a) {
    std::uint16_t type = 0, rclass = 0, rdlength = 0;
    if (!r.skip_name() || !r.u16(type) || !r.u16(rclass) || !r.skip(4) || !r.u16(rdlength))
      return out;
    std::span<const std::uint8_t> rdata;
    if (!r.take(rdlength, rdata)) return out;
    char text[INET6_ADDRSTRLEN] = {};
    if (rclass == kClassIn && type == kTypeA && rdlength == 4 &&
        inet_ntop(AF_INET, rdata.data(), text, sizeof(text)) != nullptr)
      add_once(out, text);
    else if (rclass == kClassIn && type == kTypeAaaa && rdlength == 16 &&
             inet_ntop(AF_INET6, rdata.data(), text, sizeof(text)) != nullptr)
      add_once(out, text);
  }
  return out;
}

HostLookup resolve_host_without_nss(const std::string& name, const std::string& hosts_path) {
  HostLookup lookup;
  bool hosts_found = false;
  lookup.addresses = hosts_file_addresses(read_hosts(hosts_path, hosts_found), name);
  if (!lookup.addresses.empty()) return lookup;
  int h_error_a = 0, h_error_aaaa = 0;
  for (auto& address : dns_addresses(name, kTypeA, h_error_a))
    add_once(lookup.addresses, std::move(address));
  for (auto& address : dns_addresses(name, kTypeAaaa, h_error_aaaa))
    add_once(lookup.addresses, std::move(address));
  if (!lookup.addresses.empty()) return lookup;
  // A name that exists without addresses says NO_DATA for both; the first error that is not
  // "no data" says more.
  const int h_error = h_error_a != NO_DATA ? h_error_a : h_error_aaaa;
  lookup.error = (hosts_found ? "not in " + hosts_path : "no readable " + hosts_path) + "; " +
                 h_error_text(h_error) +
                 " (kepoch's static build resolves names through /etc/hosts and the DNS "
                 "servers of /etc/resolv.conf only, not NSS)";
  return lookup;
}

}  // namespace kepoch::cluster
