// Test-only: read BibTeX from stdin with Better BibTeX's parser, using the options BBT's
// import passes with its default preferences (importSentenceCase "on+guess",
// importSentenceCaseQuoted on, importCaseProtection "as-needed", importUnknownTexCommand
// "ignore"), and print {entries, errors} as JSON.  Used by tests/test_bbt.py.

import * as bibtex from "@retorquere/bibtex-parser";

const OPTIONS = {
  english: true,
  sentenceCase: { guess: true, preserveQuoted: false },
  caseProtection: "as-needed",
  unsupported: () => "",
};

let input = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", () => {
  const library = bibtex.parse(input, OPTIONS);
  const entries = library.entries.map(({ type, key, fields }) => ({ type, key, fields }));
  process.stdout.write(JSON.stringify({ entries, errors: library.errors }));
});
