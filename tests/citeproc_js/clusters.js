#!/usr/bin/env node
// Test-only oracle: citation clusters with citeproc-js (npm `citeproc`, CPAL-1.0 OR AGPL-1.0 —
// never shipped with icml2026), used as a black box through its documented API.
//
// Reads one JSON request on stdin:
//   {"style": "/path/style.csl", "locales": "/dir/with/locales-xx-XX.xml", "lang": null,
//    "items": [CSL-JSON items], "formats": ["text", "html"],
//    "documents": [[[{"id": "k1"}, {"id": "k2", "locator": "4", "label": "page"}], [{"id": "k3"}]], ...]}
// Each document is a list of clusters in document order; its cited items are all its
// items (registered with one updateItems call), then its citations are processed in
// order by rebuildProcessorState, which gives every citation its final form (the
// disambiguation of the whole document).  In a note style, cluster n is note n; in an
// in-text style the note index is 0.
// Writes one JSON answer on stdout: {"text": [{"clusters": [citation, ...], "singles": {id: citation}}
// per document], "html": [...]}; "singles" is each item's citation alone (makeCitationCluster),
// the form the single-cite comparison (format.js) checks, so that a cluster can be told apart
// from a difference of disambiguation.
"use strict";

const fs = require("fs");
const CSL = require("citeproc");

const { makeSys } = require("./sys");

function main() {
  const request = JSON.parse(fs.readFileSync(0, "utf8"));
  const styleXml = fs.readFileSync(request.style, "utf8");
  const sys = makeSys(request.items, request.locales);
  const engine = request.lang ? new CSL.Engine(sys, styleXml, request.lang, true) : new CSL.Engine(sys, styleXml);
  const note = engine.opt.xclass === "note";
  const answer = {};
  for (const format of request.formats || ["text", "html"]) {
    engine.setOutputFormat(format);
    answer[format] = request.documents.map((clusters, d) => {
      const ids = [];
      for (const cluster of clusters) {
        for (const cite of cluster) {
          if (!ids.includes(String(cite.id))) ids.push(String(cite.id));
        }
      }
      engine.updateItems(ids);
      const citations = clusters.map((cluster, n) => [
        `d${d}c${n}`,
        note ? n + 1 : 0,
      ]);
      const objects = clusters.map((cluster, n) => ({
        citationID: citations[n][0],
        citationItems: cluster.map((cite) => {
          const item = { id: String(cite.id) };
          if (cite.locator !== undefined && cite.locator !== null) {
            item.locator = cite.locator;
            item.label = cite.label || "page";
          }
          return item;
        }),
        properties: { noteIndex: citations[n][1] },
      }));
      const rebuilt = engine.rebuildProcessorState(objects, format, []);
      const byId = new Map(rebuilt.map((row) => [row[0], row[2]]));
      const singles = {};
      for (const id of ids) singles[id] = engine.makeCitationCluster([{ id }]);
      return { clusters: objects.map((citation) => byId.get(citation.citationID)), singles };
    });
  }
  process.stdout.write(JSON.stringify(answer));
}

main();
