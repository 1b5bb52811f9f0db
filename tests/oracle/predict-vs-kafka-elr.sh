#!/usr/bin/env bash
# The predict scenarios again on a cluster formatted with eligible leader replicas on
# (eligible.leader.replicas.version=1, the default for clusters created by Kafka 4.1+), since
# ELR changes who may lead after the ISR shrinks.
KEPOCH_ELR=1 exec bash "$(dirname "$0")/predict-vs-kafka.sh"
