# mk/families.mk: families from any folder and checks declared in JSON (issue 14).
# harness/checks/check_json.c runs the same_as, sha256, command and none checks;
# harness/newfamily.c writes a family skeleton (`flagbench new family NAME [DIR]`).

HARNESS_SRCS += harness/checks/check_json.c harness/newfamily.c harness/family_dir/inputs.c harness/try.c
