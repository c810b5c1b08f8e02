// Test-only: read RIS from stdin with citation-js (core + plugin-ris) and print the CSL-JSON it makes.
// Used by tests/test_ris.py as an independent RIS reader.
"use strict";
const { Cite } = require("@citation-js/core");
require("@citation-js/plugin-ris");

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const items = new Cite(input, { forceType: "@ris/file" }).data.map((item) => {
    const { _graph, id, ...rest } = item;  // citation-js bookkeeping, not read from the RIS
    return rest;
  });
  process.stdout.write(JSON.stringify(items));
});
