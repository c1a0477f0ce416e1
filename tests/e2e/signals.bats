#!/usr/bin/env bats
# SIGINT, SIGTERM and SIGHUP during a run, then --resume: each signal and
# each phase (build, verify, measure, cooldown) once here; every pair in
# make test-slow (tests/slow/signals.bats).  The scenario: signals.bash.

load helpers
load signals

@test "fault: SIGINT while building, then --resume runs only the rest" { signal_in_phase build INT; }
@test "fault: SIGTERM while verifying, then --resume runs only the rest" { signal_in_phase verify TERM; }
@test "fault: SIGHUP while measuring, then --resume runs only the rest" { signal_in_phase measure HUP; }
@test "fault: SIGINT in a cooldown, then --resume runs only the rest" { signal_in_phase cooldown INT; }
