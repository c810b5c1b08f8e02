// Search of the proceedings website: the rules of icml2026.search (icml2026 list), over
// the library's own folded index (search-index.js, search-abstracts.js).  The records
// are folded by Python when the site is built; here only the query is folded.
"use strict";
(function () {
  var PAPER = "\u0000", PERSON = "\u0001";
  var form = document.getElementById("search");
  if (!form) return;
  var input = document.getElementById("q");
  var status = document.getElementById("search-status");
  var results = document.getElementById("results");
  var everything = document.getElementById("all-papers");
  var root = form.getAttribute("data-root") || "";
  var SHOWN = 100;
  var index = null, abstracts = null, loading = false;

  function load(src, done) {
    var script = document.createElement("script");
    script.src = root + "assets/" + src;
    script.onload = done;
    script.onerror = function () { status.textContent = "The search index could not be loaded."; };
    document.head.appendChild(script);
  }

  function field(text) {
    var starts = [], people = null, at = text.indexOf(PAPER);
    while (at >= 0) { starts.push(at); at = text.indexOf(PAPER, at + 1); }
    return { text: text, starts: starts, people: people };
  }

  function paperAt(f, at) {  // the paper whose span holds offset *at* (bisect)
    var lo = 0, hi = f.starts.length - 1;
    while (lo < hi) { var mid = (lo + hi + 1) >> 1; if (f.starts[mid] <= at) lo = mid; else hi = mid - 1; }
    return lo;
  }

  function papers(f, needle) {  // positions of the papers whose field holds *needle*
    var found = new Set(), at = hit(f, needle, 0);
    while (at >= 0) {
      var k = paperAt(f, at);
      found.add(k);
      at = hit(f, needle, f.starts[k + 1]);
    }
    return found;
  }

  function hit(f, needle, start) {
    if (typeof needle === "string") return f.text.indexOf(needle, start);
    needle.lastIndex = start;
    var m = needle.exec(f.text);
    return m ? m.index : -1;
  }

  // Folding, as icml2026.search.words: NFKD, marks dropped, case folded, the extra
  // letters (ø → o …), anything but a letter or digit a word break.
  var MARKS = /[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+/g;
  var LETTER = /[\p{L}\p{N}]/u;
  function words(text) {
    var folded = text.normalize("NFKD").replace(MARKS, "").toLowerCase(), out = "";
    for (var ch of folded) {
      var extra = index.letters[ch];
      out += extra !== undefined ? extra : (LETTER.test(ch) ? ch : " ");
    }
    return out.split(/\s+/).filter(Boolean);
  }

  var GERMAN = { "ä": "ae", "ö": "oe", "ü": "ue", "Ä": "Ae", "Ö": "Oe", "Ü": "Ue" };
  function spellings(word, tokens) {  // a reader who types Müller may mean Mueller
    var german = words(word.normalize("NFC").replace(/[äöüÄÖÜ]/g, function (c) { return GERMAN[c]; }));
    return german.join(" ") !== tokens.join(" ") ? [tokens, german] : [tokens];
  }

  function escapeRe(s) { return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); }
  function phrase(tokens, whole) {
    if (tokens.length === 1) return whole ? " " + tokens[0] + " " : " " + tokens[0];
    return new RegExp(" " + tokens.map(escapeRe).join(" +") + (whole ? " " : ""), "g");
  }

  function union(a, b) { var out = new Set(a); b.forEach(function (x) { out.add(x); }); return out; }
  function inter(a, b) { var out = new Set(); a.forEach(function (x) { if (b.has(x)) out.add(x); }); return out; }
  function minus(a, b) { var out = new Set(); a.forEach(function (x) { if (!b.has(x)) out.add(x); }); return out; }

  function rank(text) {  // icml2026.search.Index.rank
    var tiers = null;
    text.split(/\s+/).forEach(function (word) {
      var tokens = words(word);
      if (!tokens.length) return;
      var prefix = phrase(tokens, false);
      var title = papers(index.title, prefix);
      var authors = new Set(title);
      spellings(word, tokens).forEach(function (t) {
        var whole = phrase(t, true);
        authors = union(authors, union(papers(index.authors, whole), papers(index.authors_joined, whole)));
      });
      var abs = abstracts ? union(authors, papers(abstracts, prefix)) : authors;
      var other = union(abs, papers(index.other, prefix));
      var found = [title, authors, abs, other];
      tiers = tiers === null ? found : tiers.map(function (t, i) { return inter(t, found[i]); });
    });
    if (tiers === null) return null;
    return [tiers[0], minus(tiers[1], tiers[0]), minus(tiers[2], tiers[1]), minus(tiers[3], tiers[2])];
  }

  // One identifier or URL names one paper (icml2026.search.identifier_candidates).
  var ARXIV = /^(?:arxiv:)?(\d{4}\.\d{4,5})(v\d+)?(?:\.pdf)?$/i;
  var PMLR = /^\/v(\d+)\/([a-z0-9-]+?)(?:\.html|\.pdf|\/\2\.pdf)?\/?$/;
  function candidates(q) {
    var out = [[q, null], [q.toLowerCase(), null]], m = ARXIV.exec(q);
    if (m) { out.push([m[1], null]); out.push([m[1] + (m[2] || ""), null]); }
    if (/^doi:/i.test(q)) out.push([q.slice(4), null]);
    if (q.indexOf("/") < 0) return out;
    var url;
    try { url = new URL(q.indexOf("//") >= 0 ? q : "https://" + q); } catch (e) { return out; }
    var host = url.hostname.replace(/^www\./, "");
    if (host === "openreview.net") {
      url.searchParams.getAll("id").forEach(function (v) { out.push([v, null]); });
    } else if (host === "proceedings.mlr.press") {
      m = PMLR.exec(url.pathname);
      if (m) out.push([m[2], Number(m[1])]);
    } else if (host === "arxiv.org" || host === "export.arxiv.org") {
      m = ARXIV.exec(url.pathname.replace(/\/+$/, "").split("/").pop());
      if (m) out.push([m[1], null]);
    } else if (host === "doi.org" || host === "dx.doi.org") {
      out.push([decodeURIComponent(url.pathname.replace(/^\/+/, "")), null]);
    }
    out.push(["url:" + host + (url.pathname.replace(/\/+$/, "") + url.search).toLowerCase(), null]);
    return out;
  }

  function find(q) {
    q = q.trim();
    if (!q || /\s/.test(q)) return null;
    var c = candidates(q);
    for (var i = 0; i < c.length; i++) {
      var k = index.ids[c[i][0]];
      if (k !== undefined && (c[i][1] === null || c[i][1] === index.volume)) return k;
    }
    return null;
  }

  function search(q) {  // positions of the matching papers, best first; null: no words
    var exact = find(q);
    if (exact !== null) return [exact];
    var tiers = rank(q);
    if (tiers === null) return null;
    var out = [];
    tiers.forEach(function (t) { out = out.concat(Array.from(t).sort(function (a, b) { return a - b; })); });
    return out;
  }

  function show() {
    var q = input.value;
    var found = search(q);
    results.textContent = "";
    if (found === null) {
      status.textContent = "";
      everything.hidden = false;
      return;
    }
    everything.hidden = true;
    var n = found.length;
    status.textContent = n === 0 ? "No paper matches." :
      (n === 1 ? "1 paper matches." : n.toLocaleString("en") + " papers match" +
       (n > SHOWN ? "; the first " + SHOWN + " are shown." : ".")) +
      (abstracts ? "" : " (Searching titles, authors and ids; abstracts are loading.)");
    found.slice(0, SHOWN).forEach(function (k) {
      var p = index.papers[k], li = document.createElement("li"), a = document.createElement("a");
      a.href = root + p[0];
      a.textContent = p[1];
      li.appendChild(a);
      var by = document.createElement("span");
      by.className = "byline";
      by.textContent = p[2];
      li.appendChild(document.createTextNode(" "));
      li.appendChild(by);
      results.appendChild(li);
    });
  }

  function ready() {
    var raw = window.ICML2026_INDEX;
    index = { title: field(raw.title), authors: field(raw.authors), authors_joined: field(raw.authors_joined),
              other: field(raw.other), papers: raw.papers, ids: raw.ids, letters: raw.letters, volume: raw.volume };
    form.setAttribute("data-ready", "index");
    if (input.value) show();
    load("search-abstracts.js", function () {
      abstracts = field(window.ICML2026_ABSTRACTS);
      form.setAttribute("data-ready", "all");
      if (input.value) show();
    });
  }

  function start() {
    if (loading) return;
    loading = true;
    status.textContent = "Loading the search index…";
    load("search-index.js", ready);
  }

  form.hidden = false;
  form.addEventListener("submit", function (e) { e.preventDefault(); if (index) show(); else start(); });
  input.addEventListener("focus", start);
  input.addEventListener("input", function () { if (index) show(); else start(); });
  var given = new URLSearchParams(location.search).get("q");
  if (given) { input.value = given; start(); }
})();
