// The search of a static errkb export. It reads search/index.json, written
// at export time, and answers ?q=&repo=&tag=&severity=&page= in the page the
// server would have answered. In lookup mode it goes straight to the error
// that q names exactly (code, class, id or message), as /lookup does, and
// to the search otherwise.
(function () {
  "use strict";
  var script = document.currentScript;
  var mode = script.getAttribute("data-mode") || "search";
  var root = new URL("../", script.src).href;
  var params = new URLSearchParams(location.search);
  var q = (params.get("q") || "").trim();
  var filters = { repo: params.get("repo") || "", tag: params.get("tag") || "", severity: params.get("severity") || "" };
  var page = Math.max(1, parseInt(params.get("page") || "1", 10) || 1);
  var pageSize = 20;
  // The page as exported already lists the first errors.
  if (mode === "search" && !q && !filters.repo && !filters.tag && !filters.severity && page === 1) { return; }

  function words(s) { return (s || "").toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean); }
  function norm(s) { return (s || "").trim().toLowerCase().replace(/[-. \t]/g, "_"); }

  fetch(new URL("search/index.json", root)).then(function (r) {
    if (!r.ok) { throw new Error("search index: " + r.status); }
    return r.json();
  }).then(function (idx) {
    var f = {};
    idx.fields.forEach(function (name, i) { f[name] = i; });
    var recs = idx.records;
    if (mode === "lookup") { return lookup(recs, f); }
    show(rank(recs, f), f);
    // Marks the page as answered, for tests and for scripts around it.
    document.documentElement.setAttribute("data-search", "done");
  }).catch(function (err) {
    var main = document.getElementById("main");
    var p = document.createElement("p");
    p.className = "export-error";
    p.textContent = "Search is unavailable: " + err.message;
    main.appendChild(p);
  });

  function lookup(recs, f) {
    var key = norm(q), text = q.toLowerCase(), hits = [];
    recs.forEach(function (r) {
      if (norm(r[f.code]) === key || (r[f["class"]] || "").toLowerCase() === text || r[f.id] === q ||
          r[f.message].toLowerCase() === text) { hits.push(r); }
    });
    if (hits.length === 1) { location.replace(new URL(hits[0][f.path], root)); return; }
    location.replace(new URL("search/?q=" + encodeURIComponent(q), root));
  }

  // rank keeps the errors that hold every word of q (as a word or the
  // start of one) and pass the filters: exact codes first, then the
  // errors whose code holds the most words, then the shorter messages.
  function rank(recs, f) {
    var qw = words(q), key = norm(q), out = [];
    recs.forEach(function (r) {
      if (filters.repo && r[f.repo] !== filters.repo) { return; }
      if (filters.severity && r[f.severity] !== filters.severity) { return; }
      if (filters.tag && r[f.tags].indexOf(filters.tag) < 0) { return; }
      var codeWords = words(r[f.code] + " " + r[f["class"]]);
      var all = codeWords.concat(words(r[f.message]), words(r[f.repo]), r[f.tags].map(function (t) { return t.toLowerCase(); }));
      var inCode = 0;
      for (var i = 0; i < qw.length; i++) {
        var w = qw[i];
        var has = function (x) { return x.indexOf(w) === 0; };
        if (!all.some(has)) { return; }
        if (codeWords.some(has)) { inCode++; }
      }
      var score = (norm(r[f.code]) === key && key ? 1000 : 0) + inCode * 10 - r[f.message].length / 1000;
      out.push({ r: r, score: score });
    });
    out.sort(function (a, b) { return b.score - a.score; });
    return out.map(function (x) { return x.r; });
  }

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  function pageLink(rel, label, n) {
    var p = new URLSearchParams(location.search);
    p.set("page", String(n));
    var a = el("a", "", label);
    a.rel = rel;
    a.href = "?" + p.toString();
    return a;
  }

  // show writes the hits in the markup of the server's search page, so
  // the site's stylesheet applies.
  function show(hits, f) {
    var main = document.getElementById("main");
    var h1 = main.querySelector("h1");
    if (h1) {
      h1.textContent = q ? "Results for " : "Errors";
      if (q) { var qe = el("q", "", q); h1.appendChild(qe); }
    }
    var dym = main.querySelector(".did-you-mean");
    if (dym) { dym.remove(); }
    var total = main.querySelector(".total");
    if (total) { total.textContent = hits.length + " matching errors"; }
    var input = document.getElementById("q");
    if (input) { input.value = q; }
    var results = main.querySelector(".results");
    if (!results) { return; }
    results.textContent = "";
    var section = el("section", "hits");
    section.setAttribute("aria-label", "Results");
    var first = (page - 1) * pageSize;
    var ol = el("ol", "records");
    ol.setAttribute("start", String(first + 1));
    hits.slice(first, first + pageSize).forEach(function (r) {
      var li = el("li");
      var a = el("a", "code", r[f.code] || r[f["class"]] || r[f.message]);
      a.href = new URL(r[f.path], root).href;
      li.appendChild(a);
      li.appendChild(document.createTextNode(" "));
      li.appendChild(el("span", "severity sev-" + r[f.severity], r[f.severity]));
      li.appendChild(document.createTextNode(" "));
      li.appendChild(el("span", "repo", r[f.repo]));
      li.appendChild(el("p", "message", r[f.message]));
      ol.appendChild(li);
    });
    section.appendChild(ol);
    if (!hits.length) { section.appendChild(el("p", "none", "No error matches. Try fewer words, or a code.")); }
    var nav = el("nav", "pages");
    nav.setAttribute("aria-label", "Pages");
    if (page > 1) { nav.appendChild(pageLink("prev", "Previous", page - 1)); }
    if (first + pageSize < hits.length) { nav.appendChild(pageLink("next", "Next", page + 1)); }
    section.appendChild(nav);
    results.appendChild(section);
  }
})();
