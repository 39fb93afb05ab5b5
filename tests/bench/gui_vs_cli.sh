#!/usr/bin/env bash
# Simulation throughput with the desktop app open and drawing, against the headless engine on the
# same scene and interval, alternating runs (target: at least 80%). Run under a display,
# e.g. `xvfb-run -a -s "-screen 0 1600x1000x24" tests/bench/gui_vs_cli.sh`.
# usage: gui_vs_cli.sh [SCENE] [SIMULATED_SECONDS] [RUNS]
set -euo pipefail
cd "$(dirname "$0")/../.."
scene=${1:-resources/scenes/tbar-bulk.json}
seconds=${2:-0.2}
runs=${3:-3}
cli=build/release/app/cli/clumplab-cli
gui=build/release/app/gui/clumplab
dt=$(python3 -c "import json,sys; print(json.load(open('$scene'))['time_step'])")
steps=$(python3 -c "print(round($seconds / $dt))")
for ((i = 1; i <= runs; ++i)); do
  c=$($cli bench "$scene" --steps "$steps" --threads 1)
  g=$($gui --scene "$scene" --run-for "$seconds" --speed max --quit --report --size 1280x720 2>/dev/null | tail -1)
  python3 - "$c" "$g" <<'PY'
import json, sys
c, g = json.loads(sys.argv[1]), json.loads(sys.argv[2])
print(json.dumps({"cli_pebble_steps_per_second": c["pebble_steps_per_second"],
                  "gui_pebble_steps_per_second": g["pebble_steps_per_second"],
                  "ratio": round(g["pebble_steps_per_second"] / c["pebble_steps_per_second"], 3),
                  "gui_frames_per_second": g["frames_per_second"],
                  "event_latency_ms_p50": g["event_latency_ms_p50"],
                  "event_latency_ms_p95": g["event_latency_ms_p95"]}))
PY
done
