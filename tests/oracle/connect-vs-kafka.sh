#!/usr/bin/env bash
# Kafka as the judge of kepoch's connection layer (lib/kepoch/cluster), through the test
# program tests/cluster/kepoch_connect_probe: a KRaft cluster with PLAINTEXT, SASL_PLAINTEXT
# (PLAIN, SCRAM-SHA-256/512) and SSL listeners (KEPOCH_SASL=1 KEPOCH_SSL=1). Each way in
# that Kafka accepts must work, with the settings given as -X, as a Java client properties
# file and as a profile, and the broker list from Metadata v12 must be the brokers Kafka
# registered on that listener; each way Kafka refuses must be one line on stderr, exit 4,
# within the timeout: a wrong password (the broker's own message), a closed port, TLS and
# plaintext crossed, an unroutable address, a certificate for another name.
. "$(dirname "$0")/common.sh"
: "${KEPOCH_CONNECT_PROBE:?set by ctest}"
PROBE="$KEPOCH_CONNECT_PROBE"
export KEPOCH_SASL=1 KEPOCH_SSL=1
cluster_up
SSL_DIR="$KEPOCH_CLUSTER_DIR/ssl"
first() { echo "${1%%,*}"; }

# brokers_of BOOTSTRAP: "1 host:port" lines, the brokers Kafka registered on that listener.
brokers_of() {
  local i=1 b
  IFS=',' read -ra list <<< "$1"
  for b in "${list[@]}"; do echo "broker $i $b"; i=$((i + 1)); done
}

# ok NAME BOOTSTRAP_OF_LISTENER PROBE-ARGS...: connects, negotiates, lists the brokers.
ok() {
  local name=$1 listener=$2; shift 2
  expect_exit 0 "$PROBE" "$@"
  expect_in "$SCRATCH/out" "ApiVersions v"
  expect_in "$SCRATCH/out" "Metadata v12"
  grep '^broker ' "$SCRATCH/out" | sort > "$SCRATCH/brokers"
  brokers_of "$listener" | sort > "$SCRATCH/want"
  diff "$SCRATCH/want" "$SCRATCH/brokers" || fail "$name: the broker list differs from Kafka's listener"
  echo "ok: $name ($(head -n1 "$SCRATCH/out"))"
}

# refused NAME TEXT MAX_SECONDS PROBE-ARGS...: exit 4, one line naming TEXT, in time.
refused() {
  local name=$1 text=$2 max=$3
  shift 3
  expect_refused "$name" "$text" "$max" "$PROBE" "$@"
}

# --- PLAINTEXT
ok "PLAINTEXT" "$KEPOCH_BOOTSTRAP" -b "$KEPOCH_BOOTSTRAP"
expect_in "$SCRATCH/out" "PLAINTEXT"

# --- SASL PLAIN, as -X (kcat's librdkafka names)
ok "SASL PLAIN (-X)" "$KEPOCH_SASL_BOOTSTRAP" -b "$(first "$KEPOCH_SASL_BOOTSTRAP")" \
  -X security.protocol=sasl_plaintext -X sasl.mechanisms=PLAIN \
  -X sasl.username="$KEPOCH_SASL_USER" -X sasl.password="$KEPOCH_SASL_PASSWORD"
expect_in "$SCRATCH/out" "SASL_PLAINTEXT PLAIN"

# --- SCRAM-SHA-256, as the Java client's properties file
cat > "$SCRATCH/scram256.properties" <<EOT
bootstrap.servers=$KEPOCH_SASL_BOOTSTRAP
security.protocol=SASL_PLAINTEXT
sasl.mechanism=SCRAM-SHA-256
sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required \\
  username="$KEPOCH_SASL_USER" password="$KEPOCH_SASL_PASSWORD";
EOT
ok "SCRAM-SHA-256 (--command-config)" "$KEPOCH_SASL_BOOTSTRAP" --command-config "$SCRATCH/scram256.properties"
expect_in "$SCRATCH/out" "SCRAM-SHA-256"

# --- SCRAM-SHA-512, as a named profile (KEPOCH_CLUSTER picks it)
mkdir -p "$SCRATCH/xdg/kepoch"
cat > "$SCRATCH/xdg/kepoch/config.yaml" <<EOT
clusters:
  test512:
    bootstrap: "$(first "$KEPOCH_SASL_BOOTSTRAP")"
    properties:
      security.protocol: SASL_PLAINTEXT
      sasl.mechanism: SCRAM-SHA-512
      sasl.username: $KEPOCH_SASL_USER
      sasl.password: $KEPOCH_SASL_PASSWORD
EOT
XDG_CONFIG_HOME="$SCRATCH/xdg" KEPOCH_CLUSTER=test512 ok "SCRAM-SHA-512 (profile)" "$KEPOCH_SASL_BOOTSTRAP"
expect_in "$SCRATCH/out" "SCRAM-SHA-512"
# -v shows where each setting came from, never the password.
XDG_CONFIG_HOME="$SCRATCH/xdg" expect_exit 0 "$PROBE" --cluster test512 -v
expect_in "$SCRATCH/err" "sasl.password"
expect_in "$SCRATCH/err" "profile test512"
expect_not_in "$SCRATCH/err" "$KEPOCH_SASL_PASSWORD"
expect_not_in "$SCRATCH/out" "$KEPOCH_SASL_PASSWORD"

# --- wrong passwords: the broker's message, within the timeout, never the password
for mech in SCRAM-SHA-256 SCRAM-SHA-512; do
  refused "$mech wrong password" \
    "Authentication failed during authentication due to invalid credentials with SASL mechanism $mech" 5 \
    -b "$(first "$KEPOCH_SASL_BOOTSTRAP")" -X security.protocol=SASL_PLAINTEXT -X sasl.mechanism=$mech \
    -X sasl.username="$KEPOCH_SASL_USER" -X sasl.password=not-the-password --timeout-ms 4000
  expect_not_in "$SCRATCH/err" "not-the-password"
done
refused "PLAIN wrong password" "Invalid username or password" 5 \
  -b "$(first "$KEPOCH_SASL_BOOTSTRAP")" -X security.protocol=SASL_PLAINTEXT -X sasl.mechanism=PLAIN \
  -X sasl.username="$KEPOCH_SASL_USER" -X sasl.password=not-the-password --timeout-ms 4000

# --- a closed port
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
refused "closed port" "cannot connect to 127.0.0.1:$port: connection refused" 2 -b "127.0.0.1:$port"

# --- TLS and plaintext crossed
refused "plaintext client, SSL port" "answered with TLS: it is an SSL listener" 5 \
  -b "$(first "$KEPOCH_SSL_BOOTSTRAP")" --timeout-ms 4000
refused "SSL client, plaintext port" "TLS handshake with $(first "$KEPOCH_BOOTSTRAP") failed" 5 \
  -b "$(first "$KEPOCH_BOOTSTRAP")" -X security.protocol=SSL -X ssl.ca.location="$KEPOCH_SSL_CA" --timeout-ms 4000
expect_in "$SCRATCH/err" "speak TLS?"
refused "SASL client, plaintext port" "$(first "$KEPOCH_BOOTSTRAP")" 5 \
  -b "$(first "$KEPOCH_BOOTSTRAP")" -X security.protocol=SASL_PLAINTEXT -X sasl.mechanism=PLAIN \
  -X sasl.username=u -X sasl.password=p --timeout-ms 4000

# --- an unroutable address: where the network drops the packets, a timeout after 2 s;
# behind a sandbox's proxy that accepts every connection and answers in HTTP, that answer.
refused "unroutable address" "10.255.255.1:9092" 3 -b 10.255.255.1:9092 --timeout-ms 2000
if ! grep -qF "answered in HTTP" "$SCRATCH/err"; then
  expect_in "$SCRATCH/err" "timed out after 2000 ms"
  (( LAST_MS >= 1900 )) || fail "unroutable address: gave up after $LAST_MS ms, before the timeout"
fi

# --- SSL with the test CA (the certificate names IP 127.0.0.1: verified)
ok "SSL (-X ssl.ca.location)" "$KEPOCH_SSL_BOOTSTRAP" -b "$KEPOCH_SSL_BOOTSTRAP" \
  -X security.protocol=SSL -X ssl.ca.location="$KEPOCH_SSL_CA"
# The same broker by another name: hostname verification refuses it, unless turned off.
sslport=$(first "$KEPOCH_SSL_BOOTSTRAP"); sslport=${sslport##*:}
refused "SSL, certificate for another name" "certificate verify failed (hostname mismatch)" 5 \
  -b "localhost:$sslport" -X security.protocol=SSL -X ssl.ca.location="$KEPOCH_SSL_CA"
ok "SSL, hostname verification off" "$KEPOCH_SSL_BOOTSTRAP" -b "localhost:$sslport" \
  -X security.protocol=SSL -X ssl.ca.location="$KEPOCH_SSL_CA" -X ssl.endpoint.identification.algorithm=none
# Without the test CA (system trust only): the chain is refused.
refused "SSL, unknown CA" "certificate verify failed (unable to get local issuer certificate)" 5 \
  -b "127.0.0.1:$sslport" -X security.protocol=SSL
# A client certificate (the broker requests one) with an encrypted PEM key.
ok "SSL with a client certificate" "$KEPOCH_SSL_BOOTSTRAP" -b "127.0.0.1:$sslport" \
  -X security.protocol=SSL -X ssl.ca.location="$KEPOCH_SSL_CA" \
  -X ssl.certificate.location="$SSL_DIR/client.pem" -X ssl.key.location="$SSL_DIR/client.key" \
  -X ssl.key.password=kepoch-key-pass

# Java's own trust stores, made by keytool: PKCS12 is read; JKS gets the conversion hint.
keytool -importcert -noprompt -alias ca -file "$KEPOCH_SSL_CA" -keystore "$SCRATCH/trust.p12" \
  -storetype PKCS12 -storepass trust-pass >/dev/null 2>&1
keytool -importcert -noprompt -alias ca -file "$KEPOCH_SSL_CA" -keystore "$SCRATCH/trust.jks" \
  -storetype JKS -storepass trust-pass >/dev/null 2>&1
cat > "$SCRATCH/ssl.properties" <<EOT
bootstrap.servers=127.0.0.1:$sslport
security.protocol=SSL
ssl.truststore.location=$SCRATCH/trust.p12
ssl.truststore.type=PKCS12
ssl.truststore.password=trust-pass
EOT
ok "SSL with keytool's PKCS12 trust store (--command-config)" "$KEPOCH_SSL_BOOTSTRAP" \
  --command-config "$SCRATCH/ssl.properties"
sed -e "s#trust.p12#trust.jks#" -e "/truststore.type/d" "$SCRATCH/ssl.properties" > "$SCRATCH/jks.properties"
expect_exit 3 "$PROBE" --command-config "$SCRATCH/jks.properties"
expect_in "$SCRATCH/err" "jks.properties:3: ssl.truststore.location: ssl.truststore.location is a JKS store"
expect_in "$SCRATCH/err" "keytool -exportcert -rfc"
expect_not_in "$SCRATCH/err" "trust-pass"
echo "ok: JKS refused with a hint"

# --- last, as it may get broker 3 fenced for a moment:
# A broker that accepts and never answers (SIGSTOPped: the kernel still accepts): the
# ApiVersions answer never comes, a timeout after 2 s.
"$KC" stop 3 >/dev/null
refused "silent broker" "timed out after 2000 ms" 3 -b "$(cut -d, -f3 <<< "$KEPOCH_BOOTSTRAP")" --timeout-ms 2000
(( LAST_MS >= 1900 )) || fail "silent broker: gave up after $LAST_MS ms, before the timeout"
"$KC" cont 3 >/dev/null
