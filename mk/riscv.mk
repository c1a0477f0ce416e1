# mk/riscv.mk: RISC-V cells under qemu-user (issue 15).  Emulated cells are
# counted, not timed: harness/system/qemucount.c traces the guest's
# instructions (counters.c hands it every cross cell).
HARNESS_SRCS += harness/system/qemucount.c
UNIT_TESTS += tests/unit/test_qemucount.c
