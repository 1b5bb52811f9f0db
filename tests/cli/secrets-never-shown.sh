#!/usr/bin/env bash
# No secret is ever printed (issue 33): every property Kafka's ConfigDefs type PASSWORD
# (SslConfigs, SaslConfigs, BrokerSecurityConfigs, PasswordEncoderConfigs,
# DelegationTokenManagerConfigs, ZkConfigs), librdkafka's own secrets, a listener-prefixed
# one, a sasl.jaas.config with a password and a broker-side user_NAME option, an OAuth
# client secret inside JAAS, and user:password@ in a bootstrap address, fed through
# `profile show` and `profile list` in every output format, -v's settings, and the error
# paths (-X, --command-config, -b, a profile a live command loads), in every output format.
# Each secret value carries the marker Zq9; no output may hold it.
. "$(dirname "$0")/common.sh"

export XDG_CONFIG_HOME="$SCRATCH/xdg"
unset KEPOCH_CLUSTER
mkdir -p "$XDG_CONFIG_HOME/kepoch"
FORMATS=(table wide json yaml jsonl)

# Kafka's PASSWORD-typed properties (and librdkafka's), one secret value each.
KEYS=(ssl.key.password ssl.keystore.password ssl.truststore.password ssl.keystore.key
  ssl.keystore.certificate.chain ssl.truststore.certificates
  sasl.oauthbearer.client.credentials.client.secret
  sasl.oauthbearer.assertion.private.key.passphrase password.encoder.secret
  password.encoder.old.secret delegation.token.secret.key zookeeper.ssl.keystore.password
  zookeeper.ssl.truststore.password sasl.password ssl.key.pem sasl.oauthbearer.client.secret
  listener.name.internal.ssl.keystore.password basic.auth.user.info)
JAAS='org.apache.kafka.common.security.plain.PlainLoginModule required username="alice" password="Zq9-jaas-pw" user_bob="Zq9-jaas-bob";'
OAUTH='org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required clientId="c1" clientSecret="Zq9-oauth";'
{
  echo "clusters:"
  echo "  all:"
  echo '    bootstrap: "alice:Zq9-boot@127.0.0.1:1"'
  echo "    properties:"
  i=0
  for k in "${KEYS[@]}"; do
    i=$((i + 1))
    echo "      $k: \"Zq9-$i\""
  done
  printf '      sasl.jaas.config: %s\n' "'$JAAS'"
  printf '      listener.name.x.oauthbearer.sasl.jaas.config: %s\n' "'$OAUTH'"
  echo "  live:"
  echo '    bootstrap: "127.0.0.1:1"'
  echo "    properties:"
  echo "      security.protocol: SASL_PLAINTEXT"
  echo "      sasl.mechanism: PLAIN"
  echo "      sasl.username: ops"
  echo '      sasl.password: "Zq9-live"'
  echo "current_profile: all"
} >"$XDG_CONFIG_HOME/kepoch/config.yaml"

checked=0
# shown WHAT: no output of the last run holds a secret; and what it showed was more than
# nothing (the redaction did not swallow the report).
clean() {
  if grep -q "Zq9" "$SCRATCH/out" "$SCRATCH/err"; then
    grep -h "Zq9" "$SCRATCH/out" "$SCRATCH/err" | head -5
    fail "a secret was printed: $1"
  fi
  checked=$((checked + 1))
}

for fmt in "${FORMATS[@]}"; do
  expect_exit 0 "$KEPOCH" -o "$fmt" profile show all
  clean "profile show -o $fmt"
  expect_in "$SCRATCH/out" "ssl.truststore.password"
  expect_in "$SCRATCH/out" "***"
  expect_in "$SCRATCH/out" "PlainLoginModule required"
  expect_in "$SCRATCH/out" "127.0.0.1:1"
  expect_exit 0 "$KEPOCH" -o "$fmt" profile show
  clean "profile show (current) -o $fmt"
  expect_exit 0 "$KEPOCH" -o "$fmt" profile list
  clean "profile list -o $fmt"

  # -v: the settings a live command resolves (port 1 on loopback refuses at once: exit 4).
  expect_exit 4 "$KEPOCH" -o "$fmt" cluster describe --cluster live -v --timeout 2
  clean "-v -o $fmt"
  expect_in "$SCRATCH/err" "setting sasl.password=***"

  # Error paths: a profile whose properties the live command cannot take, each -X secret, a
  # bootstrap with credentials, a command config with each secret.
  got=0
  "$KEPOCH" -o "$fmt" cluster describe --cluster all -v --timeout 2 >"$SCRATCH/out" 2>"$SCRATCH/err" || got=$?
  ((got >= 2)) || fail "the profile with every secret connected?"
  clean "profile loaded by a live command -o $fmt"
  i=0
  for k in "${KEYS[@]}" sasl.jaas.config; do
    i=$((i + 1))
    got=0
    "$KEPOCH" -o "$fmt" cluster describe -b 127.0.0.1:1 --timeout 2 -v -X "$k=Zq9-x$i" >"$SCRATCH/out" 2>"$SCRATCH/err" || got=$?
    ((got >= 2)) || fail "-X $k: exit $got"
    clean "-X $k -o $fmt"
  done
  expect_exit 2 "$KEPOCH" -o "$fmt" cluster describe -b "alice:Zq9-b@127.0.0.1:1" --timeout 2
  clean "-b user:password@ -o $fmt"
  expect_in "$SCRATCH/err" "alice:***@"
  {
    echo "bootstrap.servers=bob:Zq9-cc-boot@127.0.0.1:1"
    echo "security.protocol=SASL_SSL"
    echo "sasl.mechanism=PLAIN"
    echo "sasl.jaas.config=$JAAS"
    i=0
    for k in "${KEYS[@]}"; do
      i=$((i + 1))
      echo "$k=Zq9-cc$i"
    done
  } >"$SCRATCH/client.properties"
  got=0
  "$KEPOCH" -o "$fmt" cluster describe --command-config "$SCRATCH/client.properties" -v --timeout 2 >"$SCRATCH/out" 2>"$SCRATCH/err" || got=$?
  ((got >= 2)) || fail "the command config with every secret connected?"
  clean "--command-config -o $fmt"
  # One secret at a time, so each line's own error path runs (the first error stops a run).
  i=0
  for k in "${KEYS[@]}" sasl.jaas.config; do
    i=$((i + 1))
    printf 'bootstrap.servers=127.0.0.1:1\nsecurity.protocol=SASL_SSL\nsasl.mechanism=PLAIN\n%s=Zq9-one%s\n' "$k" "$i" >"$SCRATCH/one.properties"
    got=0
    "$KEPOCH" -o "$fmt" cluster describe --command-config "$SCRATCH/one.properties" -v --timeout 2 >"$SCRATCH/out" 2>"$SCRATCH/err" || got=$?
    clean "--command-config $k -o $fmt"
  done
done
echo "secrets: $checked runs over ${#KEYS[@]} secret properties, 2 JAAS configs and 2 addresses, none printed"
