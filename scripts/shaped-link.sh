#!/usr/bin/env bash
# Puts a bandwidth-limited link between this machine's workers and servers, for benchmarks that ask
# "what if the network, not loopback, carried this": traffic to and from 127.0.0.2 (a loopback address
# the servers advertise with --ps.node.host=127.0.0.2) is shaped by an HTB class of RATE in each
# direction (full duplex); every other loopback packet, 127.0.0.1 included, is not touched.
#
#   scripts/shaped-link.sh on 1gbit     # or 100mbit, 10gbit: any tc rate
#   scripts/shaped-link.sh status       # the classes and their byte counters
#   scripts/shaped-link.sh off
#
# Needs root (or CAP_NET_ADMIN) and the kernel's htb qdisc. Only bandwidth: this kernel has no netem, so no
# added latency. Used by CtrBenchmark with -Dctr.server-host=127.0.0.2 (docs/benchmarks.md).
set -euo pipefail

ADDRESS=127.0.0.2
case "${1:-}" in
    on)
        rate="${2:?usage: $0 on RATE (e.g. 1gbit)}"
        tc qdisc del dev lo root 2>/dev/null || true
        # default 0: packets no filter matches leave unshaped, as without this qdisc
        tc qdisc add dev lo root handle 1: htb default 0 r2q 1000
        tc class add dev lo parent 1: classid 1:20 htb rate "$rate" ceil "$rate"
        tc class add dev lo parent 1: classid 1:30 htb rate "$rate" ceil "$rate"
        tc filter add dev lo parent 1: protocol ip prio 1 u32 match ip dst "$ADDRESS/32" flowid 1:20
        tc filter add dev lo parent 1: protocol ip prio 2 u32 match ip src "$ADDRESS/32" flowid 1:30
        echo "shaped-link: $ADDRESS <-> loopback limited to $rate each way"
        ;;
    off)
        tc qdisc del dev lo root 2>/dev/null || true
        echo "shaped-link: off"
        ;;
    status)
        tc -s class show dev lo
        ;;
    *)
        echo "usage: $0 on RATE | off | status" >&2
        exit 2
        ;;
esac
