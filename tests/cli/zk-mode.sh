#!/usr/bin/env bash
# A ZooKeeper-mode broker's log dir (tests/data/zk-mode/broker-3: Kafka 3.9.1 in ZooKeeper mode,
# broker 3 after a controlled shutdown) offline, and `-b` given a ZooKeeper port:
#   - checkpoint validate --strict: meta.properties version 0 with broker.id is what such a
#     broker writes, a note (severity info), not a warning: exit 0; with a
#     __cluster_metadata-0 directory beside it (KRaft) the same file is a warning: exit 1;
#   - metadata history|dump: no __cluster_metadata-0 log, and the error (exit 3) says that
#     such a broker keeps its metadata in ZooKeeper;
#   - logdir scan: clean;
#   - -b at a port that does what a ZooKeeper server does to a Kafka request (reads the
#     length-prefixed frame, closes without a byte: NIOServerCnxn; checked on a real
#     ZooKeeper by tests/oracle/cluster-zk-mode-vs-kafka.sh): exit 4, "it may be a ZooKeeper
#     port".
. "$(dirname "$0")/common.sh"
ZKDIR="$DATA/zk-mode/broker-3"

expect_exit 0 "$KEPOCH" checkpoint validate --strict "$ZKDIR"
expect_in "$SCRATCH/err" "meta.properties: info: version 0 with broker.id: the format a ZooKeeper-mode broker writes (a KRaft node writes version 1)"
expect_in "$SCRATCH/out" "0 errors, 0 warnings, 1 note (on stderr)"
expect_exit 0 "$KEPOCH" checkpoint validate --strict -o json "$ZKDIR/meta.properties"
[[ $(json "$SCRATCH/out" "[p['severity'] for p in d[0]['problems']]") == "['info']" ]] ||
  fail "meta.properties problems: $(cat "$SCRATCH/out")"

# The same file in a log dir that holds the KRaft metadata log: a warning, --strict fails.
mkdir -p "$SCRATCH/kraft/__cluster_metadata-0"
cp "$ZKDIR/meta.properties" "$SCRATCH/kraft/"
expect_exit 1 "$KEPOCH" checkpoint validate --strict "$SCRATCH/kraft/meta.properties"
expect_in "$SCRATCH/err" "warning: version 0 is the ZooKeeper-mode format (broker.id), but this log dir holds a __cluster_metadata-0 directory (KRaft)"
expect_exit 0 "$KEPOCH" checkpoint validate "$SCRATCH/kraft/meta.properties"

for sub in history dump; do
  expect_exit 3 "$KEPOCH" metadata "$sub" "$ZKDIR"
  expect_in "$SCRATCH/err" "this is a ZooKeeper-mode broker's log dir (meta.properties version 0, broker.id 3), and such a broker keeps its metadata in ZooKeeper, not in a __cluster_metadata-0 log"
  [[ $(wc -l < "$SCRATCH/err") -eq 1 ]] || fail "metadata $sub: not one line"
done
# A KRaft-shaped dir without a metadata log gets no such sentence.
expect_exit 3 "$KEPOCH" metadata history "$SCRATCH/kraft"
grep -qF "ZooKeeper" "$SCRATCH/err" && fail "metadata history on a KRaft dir: $(cat "$SCRATCH/err")"

expect_exit 0 "$KEPOCH" logdir scan "$ZKDIR"

# -b at a port that reads one length-prefixed frame and closes, as ZooKeeper does.
python3 - "$SCRATCH/port" <<'PY' &
import socket, struct, sys
s = socket.socket()
s.bind(("127.0.0.1", 0))
s.listen(1)
open(sys.argv[1], "w").write(str(s.getsockname()[1]))
s.settimeout(20)
c, _ = s.accept()
n = struct.unpack(">i", c.recv(4, socket.MSG_WAITALL))[0]
c.recv(n, socket.MSG_WAITALL)
c.close()
PY
server=$!
for _ in $(seq 50); do [[ -s $SCRATCH/port ]] && break; sleep 0.1; done
expect_exit 4 "$KEPOCH" cluster describe -b "127.0.0.1:$(cat "$SCRATCH/port")" --timeout 5
wait "$server"
expect_in "$SCRATCH/err" "closed the connection without answering ApiVersions, as a ZooKeeper server does to a Kafka request: it may be a ZooKeeper port"
[[ $(wc -l < "$SCRATCH/err") -eq 1 ]] || fail "-b at a ZooKeeper port: not one line"
echo "ok: $(cat "$SCRATCH/err")"
