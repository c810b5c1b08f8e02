#!/usr/bin/env node
// Test-only oracle: format CSL-JSON items with citeproc-js (npm `citeproc`,
// CPAL-1.0 OR AGPL-1.0 — never shipped with icml2026).
//
// Reads one JSON request on stdin:
//   {"style": "/path/style.csl", "locales": "/dir/with/locales-xx-XX.xml",
//    "lang": "en-US", "items": [CSL-JSON items], "formats": ["text", "html"],
//    "citations": true, "repeat": 1}
// Writes one JSON answer on stdout:
//   {"text": {"ids": [...], "entries": [...], "citations": [...]}, "html": {...},
//    "seconds": {"text": 0.12, ...}}
// Entries come in bibliography order; `ids` names the item of each entry.
// `citations` holds one in-text citation per item, in input order.
"use strict";

const fs = require("fs");
const path = require("path");
const CSL = require("citeproc");

function readStdin() {
  return fs.readFileSync(0, "utf8");
}

function makeSys(items, localesDir) {
  const byId = new Map(items.map((item) => [String(item.id), item]));
  return {
    retrieveLocale(lang) {
      const file = path.join(localesDir, `locales-${lang}.xml`);
      return fs.existsSync(file) ? fs.readFileSync(file, "utf8") : false;
    },
    retrieveItem(id) {
      return byId.get(String(id));
    },
  };
}

function formatOnce(request, styleXml, format) {
  const sys = makeSys(request.items, request.locales);
  const engine = new CSL.Engine(sys, styleXml, request.lang, true);
  engine.setOutputFormat(format);
  const ids = request.items.map((item) => String(item.id));
  engine.updateItems(ids);
  const out = { ids: [], entries: [], citations: [] };
  const bib = engine.makeBibliography();
  if (bib) {
    const [meta, entries] = bib;
    out.ids = meta.entry_ids.map((group) => String(group[0]));
    out.entries = entries;
  }
  if (request.citations) {
    for (const id of ids) {
      out.citations.push(engine.makeCitationCluster([{ id }]));
    }
  }
  return out;
}

function main() {
  const request = JSON.parse(readStdin());
  const styleXml = fs.readFileSync(request.style, "utf8");
  const answer = { seconds: {} };
  for (const format of request.formats || ["text", "html"]) {
    const started = process.hrtime.bigint();
    let result;
    for (let n = 0; n < (request.repeat || 1); n++) {
      result = formatOnce(request, styleXml, format);
    }
    answer.seconds[format] = Number(process.hrtime.bigint() - started) / 1e9;
    answer[format] = result;
  }
  process.stdout.write(JSON.stringify(answer));
}

main();
