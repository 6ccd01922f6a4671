// Tournament desk: small helpers for pages that work without them (no inline scripts: the CSP forbids them).
(function () {
  "use strict";
  // A deadline is typed in local time: tell the server how many minutes east of UTC that is.
  function zones(root) {
    root.querySelectorAll("input.desk-tz").forEach(function (el) {
      el.value = String(-new Date().getTimezoneOffset());
    });
  }
  // Times are sent in UTC; show them in the reader's own time.
  function localTimes(root) {
    root.querySelectorAll("time[data-local]").forEach(function (el) {
      var when = new Date(el.getAttribute("datetime"));
      if (isNaN(when)) { return; }
      var opts = el.getAttribute("data-local") === "time"
        ? { hour: "2-digit", minute: "2-digit" }
        : { dateStyle: "medium", timeStyle: "short" };
      el.textContent = when.toLocaleString([], opts);
    });
  }
  function setUp(root) { zones(root); localTimes(root); }
  document.addEventListener("DOMContentLoaded", function () { setUp(document); });
  document.addEventListener("htmx:afterSwap", function (e) { setUp(e.target.parentNode || document); });
  // Forms that ask first (closing an event).
  document.addEventListener("submit", function (e) {
    var question = e.target.getAttribute("data-confirm");
    if (question && !window.confirm(question)) { e.preventDefault(); }
  });
  // Copy a link to the clipboard.
  document.addEventListener("click", function (e) {
    var button = e.target.closest("button[data-copy]");
    if (!button) { return; }
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (field && navigator.clipboard) {
      navigator.clipboard.writeText(field.value).then(function () { button.textContent = "Copied"; });
    }
  });
})();
