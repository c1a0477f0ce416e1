#!/usr/bin/env bats
# The slow tier of the fault suite: SIGINT, SIGTERM and SIGHUP in each
# phase (build, verify, measure, cooldown), each followed by --resume that
# runs only the rest (tests/e2e/signals.bats runs each signal and phase once).

load ../e2e/helpers
load ../e2e/signals

@test "SIGINT while in build, then --resume runs only the rest" { signal_in_phase build INT; }
@test "SIGTERM while in build, then --resume runs only the rest" { signal_in_phase build TERM; }
@test "SIGHUP while in build, then --resume runs only the rest" { signal_in_phase build HUP; }
@test "SIGINT while in verify, then --resume runs only the rest" { signal_in_phase verify INT; }
@test "SIGTERM while in verify, then --resume runs only the rest" { signal_in_phase verify TERM; }
@test "SIGHUP while in verify, then --resume runs only the rest" { signal_in_phase verify HUP; }
@test "SIGINT while in measure, then --resume runs only the rest" { signal_in_phase measure INT; }
@test "SIGTERM while in measure, then --resume runs only the rest" { signal_in_phase measure TERM; }
@test "SIGHUP while in measure, then --resume runs only the rest" { signal_in_phase measure HUP; }
@test "SIGINT while in cooldown, then --resume runs only the rest" { signal_in_phase cooldown INT; }
@test "SIGTERM while in cooldown, then --resume runs only the rest" { signal_in_phase cooldown TERM; }
@test "SIGHUP while in cooldown, then --resume runs only the rest" { signal_in_phase cooldown HUP; }
