#!/usr/bin/env bash
# The current profile (issue 20): `kepoch profile list|show|use` over a temporary
# XDG_CONFIG_HOME. use writes current_profile into the file, keeping every other line (its
# comments too) and its permission bits, through a rename; show never prints a secret; a
# live command with no -b, --cluster or KEPOCH_CLUSTER takes the current profile, and the
# precedence is -b > --cluster > KEPOCH_CLUSTER > current profile (read from -v, which prints
# the settings and their sources before connecting: port 1 on loopback refuses at once).
# And -q (only the exit code) and --version (commit, tested Kafka).
. "$(dirname "$0")/common.sh"

export XDG_CONFIG_HOME="$SCRATCH/xdg"
unset KEPOCH_CLUSTER
CONFIG="$XDG_CONFIG_HOME/kepoch/config.yaml"
mkdir -p "$XDG_CONFIG_HOME/kepoch"

# No config file: no profiles, no current one.
expect_exit 0 "$KEPOCH" profile list -o json
[[ $(json "$SCRATCH/out" "(d['profiles'], d['current_profile'])") == "([], None)" ]] || fail "empty list"
expect_exit 2 "$KEPOCH" profile use prod
expect_in "$SCRATCH/err" "does not exist"

cat >"$CONFIG" <<'YAML'
# kepoch's clusters (a comment that must survive)
clusters:
  prod:
    bootstrap: "127.0.0.1:1"
    properties:
      security.protocol: SASL_PLAINTEXT
      sasl.mechanism: PLAIN
      sasl.username: ops
      sasl.password: hunter2-secret
  local:
    bootstrap: "127.0.0.2:1"
YAML
chmod 600 "$CONFIG"
cp "$CONFIG" "$SCRATCH/before.yaml"

expect_exit 0 "$KEPOCH" profile list
expect_in "$SCRATCH/out" "prod"
expect_in "$SCRATCH/out" "local"
expect_not_in "$SCRATCH/out" "hunter2"
expect_exit 2 "$KEPOCH" profile show
expect_in "$SCRATCH/err" "no current profile"
expect_exit 2 "$KEPOCH" profile use nope
expect_in "$SCRATCH/err" "no cluster profile 'nope'"
cmp -s "$CONFIG" "$SCRATCH/before.yaml" || fail "a refused use changed the file"

# use: the one line added, the rest byte for byte, mode kept, no temporary file left.
expect_exit 0 "$KEPOCH" profile use local
[[ $(head -1 "$CONFIG") == "current_profile: local" ]] || fail "current_profile not written: $(head -3 "$CONFIG")"
diff <(tail -n +2 "$CONFIG") "$SCRATCH/before.yaml" >/dev/null || fail "use changed other lines"
[[ $(stat -c %a "$CONFIG") == 600 ]] || fail "mode not kept: $(stat -c %a "$CONFIG")"
[[ $(ls "$XDG_CONFIG_HOME/kepoch") == config.yaml ]] || fail "left behind: $(ls "$XDG_CONFIG_HOME/kepoch")"
# A second use replaces the line, never adds another.
expect_exit 0 "$KEPOCH" profile use prod
[[ $(grep -c '^current_profile:' "$CONFIG") == 1 && $(head -1 "$CONFIG") == "current_profile: prod" ]] ||
  fail "use twice: $(grep '^current_profile' "$CONFIG")"
expect_exit 0 "$KEPOCH" profile list -o json
[[ $(json "$SCRATCH/out" "(d['current_profile'], [p['name'] for p in d['profiles'] if p['current']])") == "('prod', ['prod'])" ]] ||
  fail "list: current"
expect_exit 0 "$KEPOCH" profile list --names
[[ $(cat "$SCRATCH/out") == $'prod\nlocal' ]] || fail "--names: $(cat "$SCRATCH/out")"

# show: the current profile without a name; secrets as ***, in every format.
for o in table json yaml; do
  expect_exit 0 "$KEPOCH" profile show -o $o
  expect_in "$SCRATCH/out" "127.0.0.1:1"
  expect_in "$SCRATCH/out" "***"
  expect_not_in "$SCRATCH/out" "hunter2"
done
expect_exit 0 "$KEPOCH" profile show local -o json
[[ $(json "$SCRATCH/out" "(d['name'], d['current'], d['bootstrap'])") == "('local', False, '127.0.0.2:1')" ]] || fail "show local"

# Precedence, from -v's sources (each run fails to connect: exit 4).
settings() {
  local got=0
  "$KEPOCH" cluster describe -v --timeout 2 "$@" >"$SCRATCH/out" 2>"$SCRATCH/err" || got=$?
  [[ $got == 4 ]] || { cat "$SCRATCH/err"; fail "cluster describe $*: exit $got, expected 4"; }
  grep 'setting bootstrap.servers=' "$SCRATCH/err"
}
[[ $(settings) == *"127.0.0.1:1 (profile prod ("* ]] || fail "current profile not used: $(settings)"
expect_not_in "$SCRATCH/err" "hunter2"
[[ $(KEPOCH_CLUSTER=local settings) == *"127.0.0.2:1 (profile local"* ]] || fail "KEPOCH_CLUSTER below the current profile"
[[ $(KEPOCH_CLUSTER=prod settings --cluster local) == *"127.0.0.2:1 (profile local"* ]] || fail "--cluster below KEPOCH_CLUSTER"
[[ $(settings --cluster prod -b 127.0.0.3:1) == *"127.0.0.3:1 (--bootstrap)"* ]] || fail "-b below --cluster"
# -b alone: the current profile is not applied at all (its SASL settings neither).
settings -b 127.0.0.3:1 >/dev/null
expect_not_in "$SCRATCH/err" "profile prod"
expect_in "$SCRATCH/err" "setting security.protocol=PLAINTEXT"
# A current profile that names no profile is an error with the file's line.
sed -i 's/^current_profile: prod/current_profile: gone/' "$CONFIG"
expect_exit 3 "$KEPOCH" cluster describe --timeout 2
expect_in "$SCRATCH/err" "config.yaml:1"
expect_in "$SCRATCH/err" "current_profile gone names no profile"

# -q: nothing on stdout, no findings on stderr; errors stay one line.
expect_exit 0 "$KEPOCH" -q checkpoint validate "$DATA/divergence/before/broker-1/d-0"
[[ ! -s $SCRATCH/out && ! -s $SCRATCH/err ]] || fail "-q printed something"
printf '0\n2\n0 0\n1 x\n' >"$SCRATCH/leader-epoch-checkpoint"
expect_exit 1 "$KEPOCH" checkpoint validate "$SCRATCH/leader-epoch-checkpoint"
[[ -s $SCRATCH/out ]] || fail "without -q the findings print"
expect_exit 1 "$KEPOCH" checkpoint validate -q "$SCRATCH/leader-epoch-checkpoint"
[[ ! -s $SCRATCH/out && ! -s $SCRATCH/err ]] || fail "-q with findings printed something"
expect_exit 3 "$KEPOCH" -q segment dump "$SCRATCH/missing.log"
[[ ! -s $SCRATCH/out ]] || fail "-q: stdout on an error"
(($(wc -l <"$SCRATCH/err") == 1)) || fail "-q: the error is not one line"
expect_exit 0 "$KEPOCH" -q completion bash
[[ ! -s $SCRATCH/out ]] || fail "-q: completion printed"

# --version: the version, the commit (hex, or unknown outside a git work tree), and the
# Kafka of tests/kafka/kafka-version and of the fixtures.
expect_exit 0 "$KEPOCH" --version
kafka=$(sed -nE 's/^KEPOCH_KAFKA_VERSION="\$\{KEPOCH_KAFKA_VERSION:-([^}]+)\}"/\1/p' "$KEPOCH_SOURCE_DIR/tests/kafka/kafka-version")
fixtures=$(sed -n 's/^kafka_version=//p' "$KEPOCH_SOURCE_DIR/tests/data/GENERATED")
expect_in "$SCRATCH/out" "kepoch 0."
expect_in "$SCRATCH/out" "tested against Apache Kafka $kafka "
expect_in "$SCRATCH/out" "fixtures written by Kafka $fixtures"
grep -qE '^commit ([0-9a-f]{12}(-dirty)?|unknown)$' "$SCRATCH/out" || fail "no commit line: $(cat "$SCRATCH/out")"
# In a git work tree: a commit of this repository (the one the binary was built at).
commit=$(sed -nE 's/^commit ([0-9a-f]{12})(-dirty)?$/\1/p' "$SCRATCH/out")
if git -C "$KEPOCH_SOURCE_DIR" rev-parse HEAD >/dev/null 2>&1; then
  [[ -n $commit ]] && git -C "$KEPOCH_SOURCE_DIR" cat-file -e "$commit^{commit}" ||
    fail "--version names no commit of this repository: $(cat "$SCRATCH/out")"
fi
# Outside a git work tree (a release tarball) the commit is unknown: the build script alone.
mkdir -p "$SCRATCH/tarball/tests/kafka" "$SCRATCH/tarball/tests/data"
cp "$KEPOCH_SOURCE_DIR/tests/kafka/kafka-version" "$SCRATCH/tarball/tests/kafka/"
cp "$KEPOCH_SOURCE_DIR/tests/data/GENERATED" "$SCRATCH/tarball/tests/data/"
(cd "$SCRATCH" && cmake -DSOURCE_DIR="$SCRATCH/tarball" -DOUTPUT="$SCRATCH/info.hpp" \
  -P "$KEPOCH_SOURCE_DIR/cmake/BuildInfo.cmake")
expect_in "$SCRATCH/info.hpp" '#define KEPOCH_GIT_COMMIT "unknown"'
expect_in "$SCRATCH/info.hpp" "#define KEPOCH_TESTED_KAFKA \"$kafka\""
echo ok
