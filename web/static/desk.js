// Tournament desk: small helpers for pages that work without them (no inline scripts: the CSP forbids them).
(function () {
  "use strict";
  // A deadline is typed in local time: tell the server how many minutes east of UTC that is, on the
  // deadline's own date (a July deadline typed in December is in summer time).
  function zones(root) {
    root.querySelectorAll("input.desk-tz").forEach(function (el) {
      var typed = el.form && el.form.querySelector("input[name=deadline]");
      var when = typed && typed.value ? new Date(typed.value) : new Date();
      el.value = String(-(isNaN(when) ? new Date() : when).getTimezoneOffset());
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
  // Forms that ask first (closing an event); the deadline's zone as it is when the form leaves.
  document.addEventListener("submit", function (e) {
    var question = e.target.getAttribute("data-confirm");
    if (question && !window.confirm(question)) { e.preventDefault(); return; }
    zones(e.target);
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
