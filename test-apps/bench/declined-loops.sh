#!/usr/bin/env bash
# Measures what loops the agent rewrites but does not offload cost, with JMH: DeclinedLoopsBench in forks
# without and with -javaagent:looplift-agent.jar (default options), then a table of both and their ratio
# (plain / agent: 1 means free). Run from the project root; builds the tree first if needed.
#   test-apps/bench/declined-loops.sh [--sizes 4,4096] [--forks 1 --warmups 3 --iterations 5]
set -euo pipefail
exec "$(dirname "$0")/dispatch-overhead.sh" --include 'io.looplift.bench.DeclinedLoopsBench' --defaults "$@"
