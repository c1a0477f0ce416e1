# ci/gate.jq: the nightly's gate over compare's JSON (compare --json-out):
# which slower cells fail the night, and which are left to the history.
# A cell compare found slower fails it, except the same program in two runs
# when the runs recorded no change of the system (no host fact, no library
# it loads): nothing but the machine's state differs between two runs, and
# two runs cannot tell that from a step (on the 2-vCPU VM here the same
# yes/buf binary was 1.18x [1.06x, 1.24x] slower one run to the next with
# nothing changed).  The history, which knows how far this machine's
# nights move, judges those (docs/history.md); a slower same binary whose
# libraries or host facts changed, or whose runs did not list them, fails.
def the_machines: .same_program == true and .system_changed == false;
[.cells[] | select(.verdict == "slower")] as $slower
| {fails: [$slower[] | select(the_machines | not) | .id], machine: [$slower[] | select(the_machines) | .id]}
