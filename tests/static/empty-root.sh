#!/usr/bin/env bash
# The static build's proof (issue 42). The release artifact (build/static/kepoch) alone in an
# empty root - a private mount namespace (unshare --mount) and a chroot holding nothing but the
# binary, the fixtures bind-mounted read-only and an empty out/ - runs every offline command
# (checkpoint, segment, partition, logdir scan and snapshot, diff, predict, plan, simulate,
# metadata; over directories, snapshots and standard input; bad input too) and each run's
# stdout, stderr, exit status and the files it wrote equal, byte for byte, the dynamic build's
# run of the same command line on the same files (outside the chroot, from the root's top, so
# the relative paths are the same). Then what only the static build shows: `file` says
# statically linked, no program interpreter and no NEEDED library; --version says what the
# build leaves out; a broker name in -b resolves with no NSS module in the root, through the
# root's /etc/hosts and through DNS (a local name server, tests/static/dns_responder.py, named
# by the root's /etc/resolv.conf).
#
# Env (ctest --preset static sets them): KEPOCH_STATIC_BIN (the artifact), KEPOCH (the dynamic
# build, the dev preset's unless KEPOCH_DYNAMIC_KEPOCH says), KEPOCH_SOURCE_DIR.
# Needs root (a mount namespace, bind mounts, chroot): `./dev test` runs as root.
set -euo pipefail
: "${KEPOCH_STATIC_BIN:?set by ctest}" "${KEPOCH:?set by ctest}" "${KEPOCH_SOURCE_DIR:?set by ctest}"
fail() { echo "FAIL: $*" >&2; exit 1; }
[[ -x $KEPOCH_STATIC_BIN ]] || fail "no static kepoch at $KEPOCH_STATIC_BIN (./dev build static)"
[[ -x $KEPOCH ]] || fail "no dynamic kepoch at $KEPOCH to compare with (./dev build dev)"
[[ $(id -u) -eq 0 ]] || fail "needs root for a mount namespace and chroot (./dev test runs as root)"

# Into a private mount namespace: the bind mounts below are seen by this script alone and
# vanish with it.
if [[ -z ${KEPOCH_EMPTY_ROOT_NS:-} ]]; then
  exec unshare --mount --propagation private env KEPOCH_EMPTY_ROOT_NS=1 bash "$0" "$@"
fi

SCRATCH="$(mktemp -d "${TMPDIR:-/tmp}/kepoch-static.XXXXXX")"
ROOT="$SCRATCH/root"
DNS_PID=""
TLS_PID=""
MOUNTS=()
# bind_ro SOURCE TARGET: SOURCE read-only at TARGET, unmounted on the way out.
bind_ro() {
  mount --bind -o ro "$1" "$2"
  MOUNTS+=("$2")
  ! touch "$2/.kepoch-write-probe" 2>/dev/null || fail "the bind mount at $2 is writable"
}
cleanup() {
  local rc=$?
  [[ -z $DNS_PID ]] || kill "$DNS_PID" 2>/dev/null || true
  [[ -z $TLS_PID ]] || kill "$TLS_PID" 2>/dev/null || true
  # Never remove through a mount: the fixtures are bind-mounted into the roots.
  local m still=0
  for m in "${MOUNTS[@]}"; do
    umount "$m" 2>/dev/null || true
    if grep -qF " $m " /proc/self/mountinfo; then still=1; fi
  done
  if ((rc != 0)); then
    echo "FAILED: $0 (scratch kept: $SCRATCH)" >&2
  elif ((still == 0)); then
    rm -rf "$SCRATCH"
  fi
}
trap cleanup EXIT

# --- The file itself ------------------------------------------------------------------------
what=$(file -b "$KEPOCH_STATIC_BIN")
[[ $what == *"statically linked"* ]] || fail "file does not say statically linked: $what"
! readelf -lW "$KEPOCH_STATIC_BIN" | grep -q 'INTERP' || fail "it names a program interpreter"
! readelf -dW "$KEPOCH_STATIC_BIN" | grep -q 'NEEDED' || fail "it needs a shared library"
echo "ok: $(basename "$KEPOCH_STATIC_BIN"): $what"

# --- The empty root -------------------------------------------------------------------------
CHROOT=$(command -v chroot)
mkdir -p "$ROOT"/{data,scenarios,out,snaps}
cp "$KEPOCH_STATIC_BIN" "$ROOT/kepoch"
bind_ro "$KEPOCH_SOURCE_DIR/tests/data" "$ROOT/data"
bind_ro "$KEPOCH_SOURCE_DIR/examples/scenarios" "$ROOT/scenarios"
# Damaged copies (bad input must fail the same way in both builds): a segment cut inside its
# last batch (t-0), and a leader-epoch checkpoint with a line that is not "epoch offset" (t-1).
mkdir -p "$ROOT/damaged"
cp -r "$KEPOCH_SOURCE_DIR/tests/data/logdir/t-0" "$ROOT/damaged/t-0"
cp -r "$KEPOCH_SOURCE_DIR/tests/data/logdir/t-0" "$ROOT/damaged/t-1"
log=$(find "$ROOT/damaged/t-0" -name '0*.log' | LC_ALL=C sort | head -n 1)
truncate -s -7 "$log"
printf '0\n2\n0 0\nnot-a-number 12\n' >"$ROOT/damaged/t-1/leader-epoch-checkpoint"
# Nothing else: no /lib, /usr, /etc, /proc, /dev.
listing=$(cd "$ROOT" && find . -maxdepth 1 -mindepth 1 -printf '%f\n' | LC_ALL=C sort | tr '\n' ' ')
[[ $listing == "damaged data kepoch out scenarios snaps " ]] || fail "the root holds more: $listing"

# Snapshots for the commands that read them, written by the static kepoch in the root.
for b in 1 2 3; do
  env -i "$CHROOT" "$ROOT" /kepoch logdir snapshot "data/divergence/before/broker-$b" \
    --file "snaps/div-b$b.snap" >/dev/null
done
env -i "$CHROOT" "$ROOT" /kepoch logdir snapshot data/logdir --file snaps/logdir.snap >/dev/null

# --- Byte for byte --------------------------------------------------------------------------
runs=0
differs=0
# run_both EXPECT NAME [--stdin FILE] ARGS...: kepoch ARGS, static in the chroot and dynamic
# outside it, both from the root's top with an empty out/ and the same standard input; then
# stdout, stderr, exit status and out/ compared. EXPECT: "ok" (exit 0 or 1 with something on
# stdout: a command that did its work) or an exit code (bad input).
run_both() {
  local expect=$1 name=$2 stdin=/dev/null
  shift 2
  if [[ $1 == --stdin ]]; then
    stdin=$2
    shift 2
  fi
  local s="$SCRATCH/static" d="$SCRATCH/dynamic" rc
  rm -rf "$s" "$d"
  mkdir -p "$s" "$d"
  rc=0
  env -i timeout 120 "$CHROOT" "$ROOT" /kepoch "$@" <"$stdin" >"$s/stdout" 2>"$s/stderr" || rc=$?
  echo "$rc" >"$s/exit"
  mv "$ROOT/out" "$s/out" && mkdir "$ROOT/out"
  rc=0
  (cd "$ROOT" && env -i timeout 120 "$KEPOCH" "$@") <"$stdin" >"$d/stdout" 2>"$d/stderr" || rc=$?
  echo "$rc" >"$d/exit"
  mv "$ROOT/out" "$d/out" && mkdir "$ROOT/out"
  runs=$((runs + 1))
  if [[ $expect == ok ]]; then
    [[ $rc -le 1 && -s $d/stdout ]] || {
      cat "$d/stderr" >&2
      fail "$name: the dynamic kepoch did not do its work (exit $rc): kepoch $*"
    }
  elif [[ $rc != "$expect" ]]; then
    cat "$d/stderr" >&2
    fail "$name: the dynamic kepoch exited $rc, not $expect: kepoch $*"
  fi
  if ! diff -r "$d" "$s" >"$SCRATCH/diff"; then
    differs=$((differs + 1))
    echo "DIFFERS: $name: kepoch $*"
    head -n 30 "$SCRATCH/diff"
  fi
}
# each_format NAME ARGS...: run_both ok in the formats people and programs read.
each_format() {
  local name=$1 f
  shift
  for f in table json yaml; do run_both ok "$name -o $f" --no-color -o "$f" "$@"; done
}

cd "$ROOT"
mapfile -t parts < <(find data/ -name '[0-9]*.log' -printf '%h\n' | LC_ALL=C sort -u)
((${#parts[@]} >= 20)) || fail "only ${#parts[@]} partition dirs among the fixtures"
for p in "${parts[@]}"; do
  mapfile -t logs < <(find "$p" -maxdepth 1 -name '[0-9]*.log' | LC_ALL=C sort)
  mapfile -t idx < <(find "$p" -maxdepth 1 \( -name '*.index' -o -name '*.timeindex' \
    -o -name '*.txnindex' -o -name '*.snapshot' \) | LC_ALL=C sort)
  each_format "segment dump $p" segment dump "${logs[@]}"
  run_both ok "segment dump --data $p" -o json segment dump --data "${logs[@]}"
  ((${#idx[@]} == 0)) || each_format "segment dump indexes $p" segment dump "${idx[@]}"
  each_format "partition inspect $p" partition inspect "$p"
  each_format "partition verify $p" partition verify "$p"
  # Fixtures copied as segments alone (the coordinator and tiered-storage logs) hold no
  # checkpoint file for checkpoint dump to read (it exits 3 on them, by design).
  if [[ -e $p/leader-epoch-checkpoint || -e $p/partition.metadata ]]; then
    each_format "checkpoint dump $p" checkpoint dump "$p"
  fi
done
mapfile -t logdirs < <(find data/ -name '*offset-checkpoint' -printf '%h\n' | LC_ALL=C sort -u)
for d in "${logdirs[@]}"; do
  each_format "logdir scan $d" logdir scan "$d"
  each_format "checkpoint validate $d" checkpoint validate "$d"
  run_both ok "logdir snapshot $d" logdir snapshot "$d" --file out/broker.snap
done
run_both ok "logdir snapshot to stdout" logdir snapshot data/logdir --file -
# (kraft-standalone's holds its bootstrap snapshot only: no log to read, exit 3 in both.)
run_both 3 "metadata dump, no log" metadata dump data/kraft-standalone/__cluster_metadata-0
for m in data/metadata/__cluster_metadata-0 data/metadata-snapshot/__cluster_metadata-0; do
  each_format "metadata dump $m" metadata dump "$m"
  each_format "metadata history $m" metadata history "$m"
done
each_format "metadata history --topic" metadata history data/metadata --topic lc --partition 0
for s in before after; do
  r=(data/divergence/$s/broker-{1,2,3}/d-0)
  each_format "diff divergence/$s" diff "${r[@]}"
  each_format "predict divergence/$s" predict --leader "${r[0]}" "${r[1]}" "${r[2]}"
done
r=(data/leader-changes/broker-{1,2,3}/lc-0)
each_format "diff leader-changes" diff "${r[@]}"
each_format "diff --metadata" diff --metadata data/metadata "${r[@]}"
each_format "predict leader-changes" predict --leader "${r[0]}" "${r[1]}" "${r[2]}"
each_format "diff clean-3replica" diff data/clean-3replica/broker-{1,2,3}/t-0
r=(data/divergence/before/broker-{1,2,3}/d-0)
each_format "predict --elect" predict --elect --unclean --ids 1,2,3 --isr 1 --alive 2,3 "${r[@]}"
# Snapshots: whole, one partition of one, and standard input.
each_format "diff snapshots" diff snaps/div-b1.snap snaps/div-b2.snap snaps/div-b3.snap
each_format "predict snapshots" predict --leader snaps/div-b2.snap snaps/div-b1.snap snaps/div-b3.snap
each_format "plan directories" plan --ids 1,2,3 --replicas 1,2,3 --isr 1 --alive 2,3 "${r[@]}"
each_format "plan snapshots" plan --ids 1,2,3 --replicas 1,2,3 --isr 1 --alive 2,3 \
  snaps/div-b1.snap:d-0 snaps/div-b2.snap:d-0 snaps/div-b3.snap:d-0
run_both ok "plan stdin" --stdin "$ROOT/snaps/div-b1.snap" -o json plan --ids 1,2,3 \
  --replicas 1,2,3 --isr 1 --alive 2,3 -- -:d-0 snaps/div-b2.snap:d-0 snaps/div-b3.snap:d-0
run_both ok "plan --out-dir" plan --ids 1,2,3 --replicas 1,2,3 --isr 1 --alive 2,3 \
  --out-dir out/plan "${r[@]}"
each_format "plan --metadata" plan --all --metadata data/metadata --ids 1 data/logdir
each_format "plan --metadata snapshot" plan --all --metadata data/metadata --ids 1 snaps/logdir.snap
for y in scenarios/*.yaml; do
  each_format "simulate $y" simulate "$y"
done
run_both ok "simulate --rule hw" -o json simulate --rule hw scenarios/divergent-offset.yaml
for sh in bash zsh fish; do run_both ok "completion $sh" completion "$sh"; done
# Help of every command: what an operator reads first on a host with no man pages.
run_both ok "help" --help
for c in checkpoint segment partition logdir metadata cluster profile; do
  run_both ok "help $c" "$c" --help
done
for c in "checkpoint dump" "checkpoint validate" "segment dump" "partition inspect" \
  "partition verify" "logdir scan" "logdir snapshot" diff predict plan simulate \
  "metadata dump" "metadata history" "cluster describe" "cluster predict"; do
  read -ra words <<<"$c"
  run_both ok "help $c" "${words[@]}" --help
done
# Bad input: the same one-line errors and exit codes.
run_both 3 "missing file" checkpoint validate data/no-such-dir
run_both 3 "not a segment" segment dump data/logdir/meta.properties
each_format "cut segment" partition verify damaged/t-0
run_both ok "cut segment, dump" -o json segment dump damaged/t-0/00000000000000000000.log
run_both 1 "damaged checkpoint" checkpoint validate damaged/t-1
run_both 3 "damaged checkpoint, verify" partition verify damaged/t-1
run_both 2 "usage" simulate
run_both 2 "typo" checkpiont dump data/logdir
# Live commands up to the network: librdkafka's check of -X and kepoch's own SASL settings are
# in the static build too.
run_both 2 "-X checked by librdkafka" cluster describe -b 127.0.0.1:1 -X security.protocol=bogus
run_both 2 "GSSAPI" cluster describe -b 127.0.0.1:1 -X security.protocol=SASL_PLAINTEXT \
  -X sasl.mechanisms=GSSAPI
run_both 4 "refused" cluster describe -b 127.0.0.1:1 --timeout 5
cd "$SCRATCH"
((differs == 0)) || fail "$differs of $runs runs differ between the static and the dynamic kepoch"
echo "ok: $runs runs in the empty root, each byte for byte the dynamic kepoch's"

# --- The docs' snapshot commands, as written, on a host made like a broker host -----------
# docs/broker-hosts.md "On a broker host": the file copied to /tmp/kepoch (scp and kubectl cp keep its mode),
# a broker's log dir where Kafka keeps it, nothing else. Its two commands run here as they are
# written there; the snapshots they print feed `diff` wherever they were gathered.
readme="$KEPOCH_SOURCE_DIR/docs/broker-hosts.md"
ssh_cmd='/tmp/kepoch logdir snapshot /var/lib/kafka/data --file -'
grep -qF "ssh \"\$b\" $ssh_cmd >\"\$b.snap\"" "$readme" ||
  fail "docs/broker-hosts.md's ssh example is not '$ssh_cmd': keep this test and the docs together"
grep -qF 'kubectl exec "$p" -c kafka -- /tmp/kepoch logdir snapshot \' "$readme" &&
  grep -qF '/var/lib/kafka/data-0/kafka-log"${p##*-}" --file - >"${p#pod/}.snap"' "$readme" ||
  fail "docs/broker-hosts.md's kubectl example changed: keep this test and the docs together"
HOST="$SCRATCH/host"
mkdir -p "$HOST/tmp" "$HOST/var/lib/kafka/data" "$HOST/var/lib/kafka/data-0/kafka-log2"
cp -p "$KEPOCH_STATIC_BIN" "$HOST/tmp/kepoch"
bind_ro "$KEPOCH_SOURCE_DIR/tests/data/divergence/before/broker-1" "$HOST/var/lib/kafka/data"
bind_ro "$KEPOCH_SOURCE_DIR/tests/data/divergence/before/broker-2" \
  "$HOST/var/lib/kafka/data-0/kafka-log2"
read -ra argv <<<"$ssh_cmd"
b=kafka-1
env -i "$CHROOT" "$HOST" "${argv[@]}" >"$SCRATCH/$b.snap" || fail "the docs' ssh command failed"
p=pod/my-cluster-kafka-2
env -i "$CHROOT" "$HOST" /tmp/kepoch logdir snapshot \
  /var/lib/kafka/data-0/kafka-log"${p##*-}" --file - >"$SCRATCH/${p#pod/}.snap" ||
  fail "the docs' kubectl exec command failed"
rc=0
(cd "$SCRATCH" && "$KEPOCH" diff kafka-1.snap my-cluster-kafka-2.snap) >"$SCRATCH/out" || rc=$?
[[ $rc == 1 && $(head -n 1 "$SCRATCH/out") == "1 partition compared. Diverged in 1 of 1 (d-0)." ]] ||
  { cat "$SCRATCH/out"; fail "diff of the snapshots from the host: exit $rc"; }
echo "ok: docs/broker-hosts.md's ssh and kubectl snapshot commands run on a host holding only the file"

# --- What only the static build shows -------------------------------------------------------
static_version=$(env -i "$CHROOT" "$ROOT" /kepoch --version)
dynamic_version=$("$KEPOCH" --version)
# The static build's own line, wherever --version puts it (the version matrix line follows it).
static_line=$(grep '^static build' <<<"$static_version" || true)
[[ $static_line == "static build (no shared libraries): "*"not NSS"*"libsasl2"* ]] ||
  fail "--version does not say what the static build leaves out: $static_version"
[[ $dynamic_version != *"static build"* ]] || fail "the dynamic build calls itself static"
[[ $(grep -v '^commit \|^static build' <<<"$static_version") == \
  "$(grep -v '^commit ' <<<"$dynamic_version")" ]] ||
  fail "--version differs beyond the static line: $static_version / $dynamic_version"
echo "ok: --version says: $(cut -c1-80 <<<"$static_line")..."

# expect_static EXIT TEXT ARGS...: the static kepoch in the root exits EXIT, stderr has TEXT.
expect_static() {
  local want=$1 text=$2 rc=0
  shift 2
  env -i timeout 60 "$CHROOT" "$ROOT" /kepoch "$@" >"$SCRATCH/out" 2>"$SCRATCH/err" || rc=$?
  [[ $rc == "$want" ]] || { cat "$SCRATCH/err" >&2; fail "exit $rc, not $want: kepoch $*"; }
  grep -qF -- "$text" "$SCRATCH/err" || { cat "$SCRATCH/err" >&2; fail "no \"$text\": kepoch $*"; }
}
# "connection refused" from 127.0.0.1:1 shows the name resolved to 127.0.0.1 and was dialled.
mkdir "$ROOT/etc"
printf '# a broker host'"'"'s /etc/hosts\n127.0.0.1 localhost\n127.0.0.1 kafka-hosts.kepoch.test kafka-hosts\n' \
  >"$ROOT/etc/hosts"
# The name server on an address of the loopback net no one else uses; one try, two seconds.
printf 'nameserver 127.42.0.53\noptions timeout:2 attempts:1\n' >"$ROOT/etc/resolv.conf"
python3 "$KEPOCH_SOURCE_DIR/tests/static/dns_responder.py" 127.42.0.53 53 "$SCRATCH/dns-ready" \
  kafka-dns.kepoch.test=127.0.0.1 &
DNS_PID=$!
for _ in $(seq 100); do [[ -e $SCRATCH/dns-ready ]] && break; sleep 0.1; done
[[ -e $SCRATCH/dns-ready ]] || fail "the DNS responder did not start"
expect_static 4 "cannot connect to 127.0.0.1:1: connection refused" \
  cluster describe -b 127.0.0.1:1 --timeout 5
expect_static 4 "cannot connect to kafka-hosts:1: connection refused" \
  cluster describe -b kafka-hosts:1 --timeout 5
expect_static 4 "cannot connect to KAFKA-HOSTS.kepoch.test:1: connection refused" \
  cluster describe -b KAFKA-HOSTS.kepoch.test:1 --timeout 5
expect_static 4 "cannot connect to kafka-dns.kepoch.test:1: connection refused" \
  cluster describe -b kafka-dns.kepoch.test:1 --timeout 5
expect_static 4 "cannot resolve nowhere.kepoch.test:1: not in /etc/hosts; DNS: no such name (kepoch's static build resolves names through /etc/hosts and the DNS servers of /etc/resolv.conf only, not NSS)" \
  cluster describe -b nowhere.kepoch.test:1 --timeout 5
# Every bootstrap address is tried: an unknown name, then one DNS knows.
expect_static 4 "cannot connect to kafka-dns.kepoch.test:1: connection refused" \
  cluster describe -b nowhere.kepoch.test:1,kafka-dns.kepoch.test:1 --timeout 5
echo "ok: -b resolves numeric addresses, /etc/hosts names and DNS names with no NSS in the root"

# TLS with no ssl.ca.location: OpenSSL's default CA paths are Debian's (/usr/lib/ssl), absent
# on other distributions and here; the static build then trusts the first bundle of the places
# distributions keep one (tls_stream.cpp). A TLS server on 127.0.0.1 whose certificate (for
# kafka-hosts) a test CA signed: with that CA in the root's /etc/ssl/certs/ca-certificates.crt
# the handshake passes (the server then answers no Kafka request: a timeout, not a verify
# error); without it, the certificate is refused.
tls="$SCRATCH/tls"
mkdir -p "$tls"
openssl req -x509 -newkey rsa:2048 -nodes -keyout "$tls/ca.key" -out "$tls/ca.pem" -days 2 \
  -subj /CN=kepoch-test-ca 2>/dev/null
openssl req -newkey rsa:2048 -nodes -keyout "$tls/srv.key" -out "$tls/srv.csr" \
  -subj /CN=kafka-hosts 2>/dev/null
printf 'subjectAltName=DNS:kafka-hosts\n' >"$tls/ext"
openssl x509 -req -in "$tls/srv.csr" -CA "$tls/ca.pem" -CAkey "$tls/ca.key" -CAcreateserial \
  -out "$tls/srv.pem" -days 2 -extfile "$tls/ext" 2>/dev/null
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
openssl s_server -accept "127.0.0.1:$port" -cert "$tls/srv.pem" -key "$tls/srv.key" -quiet \
  </dev/null >/dev/null 2>&1 &
TLS_PID=$!
for _ in $(seq 50); do (echo >"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
mkdir -p "$ROOT/etc/ssl/certs"
cp "$tls/ca.pem" "$ROOT/etc/ssl/certs/ca-certificates.crt"
rc=0
env -i timeout 60 "$CHROOT" "$ROOT" /kepoch cluster describe -b "kafka-hosts:$port" \
  -X security.protocol=SSL --timeout 3 >"$SCRATCH/out" 2>"$SCRATCH/err" || rc=$?
[[ $rc == 4 ]] && ! grep -q 'certificate verify failed\|TLS handshake' "$SCRATCH/err" ||
  { cat "$SCRATCH/err"; fail "TLS with the distribution's CA bundle: exit $rc"; }
tls_with=$(head -n 1 "$SCRATCH/err")
rm "$ROOT/etc/ssl/certs/ca-certificates.crt"
expect_static 4 "TLS handshake with kafka-hosts:$port failed: certificate verify failed (unable to get local issuer certificate)" \
  cluster describe -b "kafka-hosts:$port" -X security.protocol=SSL --timeout 3
echo "ok: TLS trusts the CA bundle where the host keeps it, and only that (with it: $tls_with)"
