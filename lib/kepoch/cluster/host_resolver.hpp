#pragma once
// Host names without NSS, for the static build (preset static). glibc's getaddrinfo looks a
// name up through NSS modules (libnss_files.so.2, libnss_dns.so.2) that a statically linked
// program can load only from a host whose glibc is the very version it was built with: on a
// broker host of another distribution, in a distroless or Alpine pod, a static kepoch would
// resolve no name at all. This resolver asks what NSS's usual "hosts: files dns" asks, in that
// order: /etc/hosts, then the name servers of /etc/resolv.conf through glibc's own stub
// resolver (res_nsearch: part of libc, no module; it honours `search`, `domain`, `ndots`,
// `options timeout:` and `attempts:`, and retries a truncated answer over TCP). It gives
// numeric addresses; the caller makes socket addresses of them with
// getaddrinfo(AI_NUMERICHOST), which needs no NSS either. Other NSS sources (LDAP, mDNS,
// systemd-resolved's own socket) are not consulted: the error says so.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace kepoch::cluster {

// The addresses `hosts_text` (the text of /etc/hosts) gives `name`: every line whose
// canonical name or an alias equals it (ASCII case-insensitive, as glibc's files module
// compares), in file order, each address once. '#' starts a comment; a line whose first
// field is not an IPv4 or IPv6 address is skipped, as glibc skips it.
std::vector<std::string> hosts_file_addresses(std::string_view hosts_text, std::string_view name);

// The addresses in the answer section of a DNS response (RFC 1035 4.1): A records (type 1)
// and AAAA records (type 28) of class IN, as numeric text, in the order they come; CNAMEs
// and other records are passed over (a recursive server answers a name's CNAME chain and
// the addresses it ends in). A message cut short or malformed gives what was read before
// the damage (possibly nothing): the caller then reports the name as unresolved.
std::vector<std::string> dns_answer_addresses(std::span<const std::uint8_t> message);

struct HostLookup {
  std::vector<std::string> addresses;  // numeric, /etc/hosts' first, else DNS's (A, then AAAA)
  std::string error;                   // why there are none, when there are none
};

// /etc/hosts (`hosts_path`), then DNS (A, then AAAA). Blocking for as long as the resolver's
// own timeouts: the caller runs it on a thread it can stop waiting for.
HostLookup resolve_host_without_nss(const std::string& name,
                                    const std::string& hosts_path = "/etc/hosts");

}  // namespace kepoch::cluster
