#!/usr/bin/env bash
# The real-client test that .ci/run executes: 20 games at 2 s + 0.05 s with python-chess,
# 10 Horizon against itself and 10 Horizon against Debian's stockfish (1 thread, 16 MiB hash,
# full strength), openings from ../shared/openings/noob-3moves-sample.epd.
# Fails (exit 1) on any illegal move, time forfeit, crash, hang or missing result by Horizon (or
# the runner); the last line is "N passed, M failed" over all 20 games. Stockfish's own faults
# (it has overrun its clock at 0 ms tolerance on a loaded 2-core CI machine) are reported under
# "Not judged" and do not fail the run (match.py --judge 1).
#
#   tests/python/ci_games.sh [path/to/horizon]      (default: target/release/horizon)
#
# Environment: STOCKFISH (default /usr/games/stockfish), GAMES (per match, default 10),
# TC (default 2+0.05), OUT (folder for the PGN files and the logs of failed games,
# default a new temporary folder).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
horizon="${1:-$root/target/release/horizon}"
stockfish="${STOCKFISH:-/usr/games/stockfish}"
openings="$root/../shared/openings/noob-3moves-sample.epd"
games="${GAMES:-10}"
tc="${TC:-2+0.05}"
out="${OUT:-$(mktemp -d -t horizon-ci-games.XXXXXX)}"
mkdir -p "$out"

for f in "$horizon" "$stockfish"; do
    [ -x "$f" ] || { echo "ci_games.sh: $f is missing or not executable" >&2; echo "0 passed, 1 failed"; exit 1; }
done
[ -f "$openings" ] || { echo "ci_games.sh: $openings is missing" >&2; echo "0 passed, 1 failed"; exit 1; }

# A copy, so that a rebuild during the games cannot change the binary under the runner.
cp "$horizon" "$out/horizon-under-test"

passed=0 failed=0 status=0
run() {  # name, extra match.py arguments...
    local name="$1"; shift
    echo "=== $name ==="
    python3 "$here/match.py" --engine1 "$out/horizon-under-test" --tc "$tc" --games "$games" \
        --openings "$openings" --pgn "$out/$name.pgn" --log-dir "$out/$name-failed" "$@" \
        | tee "$out/$name.txt"
    local rc=${PIPESTATUS[0]}
    [ "$rc" -eq 0 ] || status=1
    local line p f
    line="$(tail -n 1 "$out/$name.txt")"
    if [[ "$line" =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]]; then
        p="${BASH_REMATCH[1]}" f="${BASH_REMATCH[2]}"
    else
        p=0 f=1 status=1
    fi
    passed=$((passed + p)) failed=$((failed + f))
}

start=$SECONDS
run horizon-vs-horizon --engine2 "$out/horizon-under-test"
run horizon-vs-stockfish --engine2 "$stockfish" --option2 Threads=1 --option2 Hash=16 --judge 1
rm -f "$out/horizon-under-test"  # the PGNs and logs stay; the 19 MB copy need not
echo "=== games: PGN and logs in $out, $((SECONDS - start)) s ==="
echo "$passed passed, $failed failed"
exit $status
