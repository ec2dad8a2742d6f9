# Phase timing for scripts/test.sh and .ci/run (issue 54 item 7): `phase NAME` starts a phase (ending
# the one before), `phase_end` ends it, `phase_report` ends the last one and prints each phase's
# seconds. Phases of a child script land in the same list (PHASE_TIMES_FILE is exported). Source it.
PHASE_TIMES_FILE="${PHASE_TIMES_FILE:-$(mktemp)}"
export PHASE_TIMES_FILE
_phase_name=''
_phase_start=0

phase() {
  phase_end
  _phase_name="$1"
  _phase_start=$(date +%s)
  echo "== $1"
}

phase_end() {
  if [ -n "$_phase_name" ]; then
    printf '%s\t%s\n' "$_phase_name" "$(($(date +%s) - _phase_start))" >> "$PHASE_TIMES_FILE"
    _phase_name=''
  fi
}

phase_report() {
  phase_end
  echo "== time per phase (seconds)"
  awk -F '\t' '{ printf "  %-58s %6d\n", $1, $2; total += $2 } END { printf "  %-58s %6d\n", "total", total }' "$PHASE_TIMES_FILE"
}
