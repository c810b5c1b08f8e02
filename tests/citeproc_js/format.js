#!/usr/bin/env node
// Test-only oracle: format CSL-JSON items with citeproc-js (npm `citeproc`,
// CPAL-1.0 OR AGPL-1.0 — never shipped with icml2026).
//
// Reads one JSON request on stdin:
//   {"style": "/path/style.csl", "locales": "/dir/with/locales-xx-XX.xml",
//    "lang": null, "items": [CSL-JSON items], "formats": ["text", "html"],
//    "citations": true, "repeat": 1, "documents": [[id, ...], ...]}
// `lang` null (or absent): the style's default-locale, as Zotero does; a
// string forces that locale.  `documents` (optional): several documents, each
// a list of item ids formatted by its own engine (one process, many sets).
// Writes one JSON answer on stdout:
//   {"text": {"ids": [...], "entries": [...], "citations": [...]}, "html": {...},
//    "seconds": {"text": 0.12, ...}}
// (with `documents`: "text"/"html" hold one such object per document).
// Entries come in bibliography order; `ids` names the item of each entry.
// `citations` holds one in-text citation per item, in input order.
"use strict";

const fs = require("fs");
const CSL = require("citeproc");

function readStdin() {
  return fs.readFileSync(0, "utf8");
}

const { makeSys } = require("./sys");

function makeEngine(request, styleXml, format) {
  const sys = makeSys(request.items, request.locales);
  const engine = request.lang
    ? new CSL.Engine(sys, styleXml, request.lang, true)
    : new CSL.Engine(sys, styleXml);
  engine.setOutputFormat(format);
  return engine;
}

function formatOnce(request, styleXml, format, ids, reused) {
  const engine = reused || makeEngine(request, styleXml, format);
  ids = ids || request.items.map((item) => String(item.id));
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
  let shared = null;
  for (const format of request.formats || ["text", "html"]) {
    const started = process.hrtime.bigint();
    let result;
    for (let n = 0; n < (request.repeat || 1); n++) {
      if (request.documents) {
        // Building an engine takes ~2 s for APA: with "reuse", one engine formats every document in
        // turn (updateItems replaces the previous document's items, as in a word processor).
        if (request.reuse && !shared) {
          shared = makeEngine(request, styleXml, format);
        } else if (shared) {
          shared.setOutputFormat(format);
        }
        result = request.documents.map((ids) => formatOnce(request, styleXml, format, ids.map(String), shared));
      } else {
        result = formatOnce(request, styleXml, format);
      }
    }
    answer.seconds[format] = Number(process.hrtime.bigint() - started) / 1e9;
    answer[format] = result;
  }
  process.stdout.write(JSON.stringify(answer));
}

main();
