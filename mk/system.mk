# System facts for trustworthy measurement: topology (placement classes),
# thermal (sensors, throttling, cooldown) and the doctor (system checks).
HARNESS_SRCS += harness/system/topology.c harness/system/thermal.c harness/system/doctor.c
UNIT_TESTS += tests/unit/test_topology.c tests/unit/test_thermal.c tests/unit/test_doctor.c
