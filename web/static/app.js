// errkb's only script, loaded from the site itself so a strict
// Content-Security-Policy holds. Every page works without it; it adds:
// copy buttons on code and link boxes, "/" to focus the search box, and
// centring the line named by a #L<n> fragment (or marking a #L<a>-L<b>
// range), and filter boxes on list pages that narrow the list as you type
// (without the script the same boxes filter on the server, through ?q=).
(function () {
  "use strict";

  // copyText copies with the Clipboard API, or with a hidden textarea where
  // that API is missing (plain http on a non-local host).
  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text);
    }
    return new Promise(function (resolve, reject) {
      var ta = document.createElement("textarea");
      ta.value = text;
      ta.setAttribute("readonly", "");
      ta.className = "offscreen";
      document.body.appendChild(ta);
      ta.select();
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      document.body.removeChild(ta);
      if (ok) { resolve(); } else { reject(new Error("copy failed")); }
    });
  }

  // textOf is what a copy button copies: the code lines without their line
  // numbers for a source snippet, the plain text otherwise.
  function textOf(box) {
    var lines = box.querySelectorAll(".lc");
    if (lines.length) {
      return Array.prototype.map.call(lines, function (l) {
        return l.textContent.replace(/\n$/, "");
      }).join("\n");
    }
    var code = box.querySelector("pre, code");
    return (code || box).textContent.replace(/^\n+|\s+$/g, "");
  }

  function addCopyButton(box) {
    var btn = document.createElement("button");
    btn.type = "button";
    btn.className = "copy";
    btn.textContent = "Copy";
    btn.setAttribute("aria-label", "Copy " + box.getAttribute("data-copy"));
    var status = document.createElement("span");
    status.className = "copy-status";
    status.setAttribute("role", "status");
    btn.addEventListener("click", function () {
      copyText(textOf(box)).then(function () {
        btn.textContent = "Copied";
        status.textContent = "Copied to the clipboard";
      }, function () {
        btn.textContent = "Copy failed";
        status.textContent = "Could not copy; select the text instead";
      }).then(function () {
        setTimeout(function () { btn.textContent = "Copy"; status.textContent = ""; }, 2000);
      });
    });
    var bar = box.querySelector(".codebar") || box;
    bar.appendChild(btn);
    bar.appendChild(status);
  }

  // focusSearch makes "/" jump to the search box, as on GitHub and MDN,
  // unless the reader is typing somewhere.
  function focusSearch(ev) {
    if (ev.key !== "/" || ev.ctrlKey || ev.metaKey || ev.altKey) { return; }
    var t = ev.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) { return; }
    var q = document.getElementById("q");
    if (!q) { return; }
    ev.preventDefault();
    q.focus();
    q.select();
  }

  // showLine centres the line of a #L<n> fragment, which CSS :target
  // marks, and marks every line of a #L<a>-L<b> range, GitHub's form.
  function showLine() {
    Array.prototype.forEach.call(document.querySelectorAll(".in-range"), function (el) {
      el.classList.remove("in-range");
    });
    var m = /^#L(\d+)(?:-L?(\d+))?$/.exec(location.hash);
    if (!m) { return; }
    var from = parseInt(m[1], 10), to = m[2] ? parseInt(m[2], 10) : from;
    if (to < from) { var t = from; from = to; to = t; }
    to = Math.min(to, from + 5000);
    var first = null;
    for (var n = from; n <= to; n++) {
      var el = document.getElementById("L" + n);
      if (!el) { continue; }
      if (m[2]) { el.classList.add("in-range"); }
      first = first || el;
    }
    if (first) { first.scrollIntoView({ block: "center" }); }
  }

  // itemText is what a filter looks in: an item's cells (or children),
  // counts left out, joined by spaces and lower-cased, as the server's
  // filter reads them (web/browse.go, rowText).
  function itemText(item) {
    var parts = [];
    Array.prototype.forEach.call(item.children, function (c) {
      if (!c.classList.contains("count")) { parts.push(c.textContent); }
    });
    return parts.join(" ").toLowerCase();
  }

  function thousands(n) { return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ","); }

  // filterStatus is the sentence the server writes for a filter
  // (templates/browse.go, filterStatus).
  function filterStatus(shown, total, one, many, q) {
    if (shown === 0) { return "No " + many + " match \u201c" + q + "\u201d."; }
    var all = total === 1 ? "1 " + one : thousands(total) + " " + many;
    return "Showing " + thousands(shown) + " of " + all + " matching \u201c" + q + "\u201d.";
  }

  // setupFilter makes a filter form narrow its list as the reader types:
  // every item holding all the words stays, groups left empty hide, counts
  // follow, and the address keeps ?q= so the view can be shared.
  function setupFilter(form) {
    var list = document.getElementById(form.getAttribute("data-filter"));
    var input = form.querySelector("input[name=q]");
    var status = form.querySelector(".filter-status");
    if (!list || !input || !status) { return; }
    var groups = Array.prototype.map.call(list.querySelectorAll("[data-group]"), function (g) {
      return {
        el: g,
        count: g.querySelector("[data-group-count]"),
        link: g.id ? list.querySelector("[data-group-link=\"" + g.id + "\"]") : null,
        items: Array.prototype.map.call(g.querySelectorAll("[data-item]"), function (it) {
          return { el: it, text: itemText(it) };
        })
      };
    });
    var noMatch = list.querySelector(".no-match");
    var total = parseInt(status.getAttribute("data-total"), 10);
    function apply() {
      var q = input.value.trim();
      var words = q.toLowerCase().split(/\s+/).filter(Boolean);
      var shown = 0;
      groups.forEach(function (g) {
        var n = 0;
        g.items.forEach(function (it) {
          var ok = words.every(function (w) { return it.text.indexOf(w) >= 0; });
          it.el.hidden = !ok;
          if (ok) { n++; }
        });
        shown += n;
        g.el.hidden = n === 0;
        if (g.link) { g.link.hidden = n === 0; }
        if (g.count) { g.count.textContent = words.length ? thousands(n) + " of " + thousands(g.items.length) : thousands(g.items.length); }
      });
      if (noMatch) { noMatch.hidden = shown > 0; }
      status.textContent = words.length ? filterStatus(shown, total, status.getAttribute("data-noun"), status.getAttribute("data-nouns"), q) : "";
      var url = new URL(location.href);
      if (q) { url.searchParams.set("q", q); } else { url.searchParams.delete("q"); }
      history.replaceState(null, "", url.pathname + url.search + url.hash);
      // The sort links keep the filter, as the server writes them.
      Array.prototype.forEach.call(document.querySelectorAll("p.sort a"), function (a) {
        var u = new URL(a.href);
        if (q) { u.searchParams.set("q", q); } else { u.searchParams.delete("q"); }
        a.href = u.pathname + u.search;
      });
    }
    input.addEventListener("input", apply);
    form.addEventListener("submit", function (ev) { ev.preventDefault(); apply(); });
  }

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll("form[data-filter]"), setupFilter);
    Array.prototype.forEach.call(document.querySelectorAll("[data-copy]"), addCopyButton);
    document.addEventListener("keydown", focusSearch);
    // The footer's "/" hint is only true with this script running.
    var hint = document.querySelector(".hint");
    if (hint) { hint.hidden = false; }
    window.addEventListener("hashchange", showLine);
    // The browser scrolls to the fragment itself, as late as the load
    // event; centre the line after that too, so lines above it show.
    window.addEventListener("load", showLine);
    showLine();
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", init);
  } else {
    init();
  }
})();
