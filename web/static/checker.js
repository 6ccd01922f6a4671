// The check page shows the answer to the reader's last action, never an older one that arrives later (issue 28).
// Every request of the form is synced on it (hx-sync="this:replace": a newer one aborts the one on its way); this
// adds what htmx cannot know: whether the box or another field (the file, the format, a button) was touched last.
(function () {
  "use strict";
  var typedLast = false;  // the last action on the form was typing in the box
  function checker(el) { return el && el.closest ? el.closest("#checker form") : null; }
  function acted(e) {
    var form = checker(e.target);
    if (!form) { return; }
    var t = e.target;
    if (e.type === "input" && t.name === "decklist") {
      // typing makes the box the deck again: the file chosen before would be checked in its place, and an
      // answer on its way (the file's, which rewrites the box) is to an older question
      var file = form.querySelector("input[type=file]");
      if (file && file.value) {
        file.value = "";
        var read = form.querySelector("#file-read");
        if (read) { read.remove(); }
      }
      htmx.trigger(form, "htmx:abort");
      typedLast = true;
    } else if (e.type === "change" ? t.matches("select, input[type=file]") : e.type === "click" && t.closest("button")) {
      typedLast = false;  // (a box's change on leaving it, or a click beside the buttons, asks nothing)
    }
  }
  // capture: before htmx's own listener on the field sends (or schedules) the request of this action
  ["input", "change", "click"].forEach(function (type) { document.addEventListener(type, acted, true); });
  // The box's check waits for a pause in the typing: by then the reader may have chosen a file or pressed Check,
  // whose answer is the one to show. htmx:confirm comes before hx-sync aborts the request on its way.
  document.addEventListener("htmx:confirm", function (e) {
    var cause = e.detail.triggeringEvent;
    if (cause && cause.type === "input" && checker(e.detail.elt) && !typedLast) { e.preventDefault(); }
  });
  // On a phone the report is below the form: the answer to Check, a file or a format is brought into view (the
  // answer to typing is not: the typist is still in the box). On a wide screen it is beside the form, in view.
  document.addEventListener("htmx:afterSettle", function (e) {
    if (typedLast || e.detail.pathInfo.requestPath !== "/check") { return; }
    var reports = document.getElementById("reports");
    if (reports && reports.getBoundingClientRect().top > window.innerHeight * 0.6) {
      reports.scrollIntoView({block: "start"});
    }
  });
})();
