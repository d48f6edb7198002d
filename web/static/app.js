// errkb's only script, loaded from the site itself so a strict
// Content-Security-Policy holds. Every page works without it; it adds:
// copy buttons on code and link boxes, "/" to focus the search box, and
// centring the line named by a #L<n> fragment (or marking a #L<a>-L<b>
// range).
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

  function init() {
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
