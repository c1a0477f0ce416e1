# families.jq: one line per family of the run: its index and its file-name slug (unique).
#   jq -r -L plots -f plots/families.jq results.json
include "common";

family_slugs | to_entries[] | "\(.key)\t\(.value)"
