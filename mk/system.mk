# System facts for trustworthy measurement: topology (placement classes),
# thermal (sensors, throttling, cooldown) and the doctor (system checks).
HARNESS_SRCS += harness/topology.c harness/thermal.c harness/doctor.c
UNIT_TESTS += tests/unit/test_topology.c tests/unit/test_thermal.c tests/unit/test_doctor.c
