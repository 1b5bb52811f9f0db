#!/usr/bin/env bash
# The predict scenarios again on a cluster formatted with eligible leader replicas off
# (eligible.leader.replicas.version=0, clusters made before 4.1 or formatted so): the default
# scenario runs with ELR on (a new cluster of the default release), and ELR changes who may
# lead after the ISR shrinks, so both rule sets stay covered.
KEPOCH_ELR=0 exec bash "$(dirname "$0")/predict-vs-kafka.sh"
