#!/usr/bin/env bash
# The what-if scenario again on a cluster formatted with eligible leader replicas off
# (eligible.leader.replicas.version=0: clusters made before 4.1, or formatted so): the
# default scenario runs with ELR on, as a new cluster of the default release gets it; this
# keeps the classic rules covered (stopped ISR members stay in the ISR until fenced, no ELR).
KEPOCH_ELR=0 exec bash "$(dirname "$0")/cluster-what-if-vs-kafka.sh"
