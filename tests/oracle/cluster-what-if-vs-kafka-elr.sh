#!/usr/bin/env bash
# The what-if scenario again on a cluster formatted with eligible leader replicas on
# (eligible.leader.replicas.version=1): stopped ISR members become eligible, the ISR may
# empty, and a killed broker leaves the ELR when it returns (step 3 restarts it and reads
# Kafka's metadata log for that).
KEPOCH_ELR=1 exec bash "$(dirname "$0")/cluster-what-if-vs-kafka.sh"
