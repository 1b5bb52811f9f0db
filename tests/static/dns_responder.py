#!/usr/bin/env python3
"""A DNS server for the static build's empty-root test (tests/static/empty-root.sh), on UDP.

It answers A queries for the names given (NAME=IPV4 ...) and NOERROR with no records (NODATA)
for their AAAA queries, NXDOMAIN for every other name: what a recursive server answers. It
stands in for the name servers of a broker host's /etc/resolv.conf, which the test cannot
reach, so that the static kepoch's own resolver (lib/kepoch/cluster/host_resolver.cpp, glibc's
res_nsearch) is shown to resolve through DNS with no NSS module. Usage:
    dns_responder.py ADDRESS PORT READY_FILE NAME=IPV4 ...
It writes READY_FILE once it listens and serves until killed. Layout: RFC 1035 4.1.
"""
import ipaddress
import socket
import struct
import sys


def parse_question(msg):
    """The question's name (lower case), type and the offset after it."""
    at, labels = 12, []
    while True:
        length = msg[at]
        at += 1
        if length == 0:
            break
        labels.append(msg[at:at + length].decode("ascii").lower())
        at += length
    qtype, _qclass = struct.unpack("!HH", msg[at:at + 4])
    return ".".join(labels), qtype, at + 4


def answer(msg, names):
    ident, _flags, qdcount = struct.unpack("!HHH", msg[:6])
    name, qtype, end = parse_question(msg)
    question = msg[12:end]
    records = b""
    rcode = 0
    if name not in names:
        rcode = 3  # NXDOMAIN
    elif qtype == 1:
        # The name as a pointer to the question's (offset 12), A, IN, TTL 60, 4 bytes.
        records = struct.pack("!HHHIH", 0xC00C, 1, 1, 60, 4) + names[name]
    ancount = 1 if records else 0
    flags = 0x8180 | rcode  # a response, recursion desired and available
    return struct.pack("!HHHHHH", ident, flags, qdcount, ancount, 0, 0) + question + records


def main():
    address, port, ready = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    names = {}
    for pair in sys.argv[4:]:
        name, ip = pair.split("=", 1)
        names[name.lower()] = ipaddress.IPv4Address(ip).packed
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind((address, port))
    with open(ready, "w") as f:
        f.write("listening\n")
    while True:
        msg, peer = sock.recvfrom(4096)
        try:
            sock.sendto(answer(msg, names), peer)
        except (IndexError, struct.error, UnicodeDecodeError):
            pass  # not a question this server understands: no answer, as a real one drops it


if __name__ == "__main__":
    main()
