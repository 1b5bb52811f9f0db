#!/usr/bin/env bash
# Remakes the TLS fixtures of tests/unit/cluster/test_tls_stream.cpp with the openssl CLI:
# a test CA, an unrelated CA, a server certificate for localhost/127.0.0.1, one for another
# name, and a client identity as PEM (key encrypted with "client-key-pass") and as PKCS#12
# (store password "p12-pass"), plus the CA as a PKCS#12 trust store ("trust-pass").
# Valid for 100 years; the CA keys are thrown away.
set -euo pipefail
cd "$(dirname "$0")"
t="$(mktemp -d)"; trap 'rm -rf "$t"' EXIT
days=36500
ca() { # ca NAME CN
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$t/$1.key" \
    -out "$1.pem" -days $days -subj "/CN=$2" -addext basicConstraints=critical,CA:TRUE \
    -addext keyUsage=critical,keyCertSign,cRLSign 2>/dev/null
}
leaf() { # leaf NAME CN SAN KEYOUT
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$4" \
    -out "$t/$1.csr" -subj "/CN=$2" 2>/dev/null
  printf 'subjectAltName=%s\nbasicConstraints=CA:FALSE\n' "$3" > "$t/$1.ext"
  openssl x509 -req -in "$t/$1.csr" -CA ca.pem -CAkey "$t/ca.key" -CAcreateserial \
    -out "$1.pem" -days $days -extfile "$t/$1.ext" 2>/dev/null
}
ca ca "kepoch test CA"
ca other-ca "kepoch unrelated CA"
leaf server localhost "DNS:localhost,IP:127.0.0.1" server.key
leaf other-name other.kepoch.test "DNS:other.kepoch.test" other-name.key
leaf client kepoch-client "DNS:kepoch-client" "$t/client.key"
openssl pkcs8 -topk8 -in "$t/client.key" -out client-encrypted.key -v2 aes-256-cbc \
  -passout pass:client-key-pass
openssl pkcs12 -export -inkey "$t/client.key" -in client.pem -certfile ca.pem \
  -out client.p12 -passout pass:p12-pass
openssl pkcs12 -export -nokeys -in ca.pem -out truststore.p12 -passout pass:trust-pass
rm -f ca.srl
