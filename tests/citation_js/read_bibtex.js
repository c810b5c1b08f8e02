// Test-only: read BibTeX from stdin with citation-js (core + plugin-bibtex) and print, per entry,
// its citation key, title and authors as citation-js decodes them. Used by tests/test_readers.py.
"use strict";
const { Cite } = require("@citation-js/core");
require("@citation-js/plugin-bibtex");

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const items = new Cite(input, { forceType: "@biblatex/text" }).data.map((item) => ({
    key: item["citation-key"] || item.id,
    title: item.title,
    authors: (item.author || []).map((a) => a.literal || [a.given, a["non-dropping-particle"], a.family].filter(Boolean).join(" ")),
  }));
  process.stdout.write(JSON.stringify(items));
});
