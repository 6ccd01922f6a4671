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
  // Times are written by the server in the event's time zone (the organiser's), the same on every screen and on
  // paper: no rewriting into each reader's own zone.
  // A suggestion under a line that could not be read becomes a button that writes it on that line of the
  // decklist in the form below (the server sent each line as written and as it reads with the suggestion).
  function fixes(root) {
    var list = root.querySelector("#desk-fixes");
    if (!list || !root.querySelector("#submit-form textarea[name=decklist]")) { return; }
    list.querySelectorAll("li").forEach(function (fix) {
      root.querySelectorAll(".report .problem").forEach(function (item) {
        var where = item.querySelector(".line");
        if (!where || where.textContent.trim() !== "line " + fix.dataset.line) { return; }
        item.querySelectorAll(".suggest span.chip").forEach(function (chip) {
          if (chip.textContent !== fix.dataset.name) { return; }
          var button = document.createElement("button");
          button.type = "button";
          button.className = "chip";
          // the title's suggestion ("Name: ...") says what it does
          button.textContent = fix.dataset.name.indexOf("Name: ") === 0 ? "use as the deck's title" : chip.textContent;
          ["line", "from", "to"].forEach(function (k) { button.dataset[k] = fix.dataset[k]; });
          button.title = "Write it on line " + fix.dataset.line + " of your decklist below";
          chip.replaceWith(button);
        });
      });
    });
  }
  function say(item, text) {
    var note = item.querySelector(".desk-fixed");
    if (!note) {  // above the suggestions, which may be a long list
      note = document.createElement("p");
      item.insertBefore(note, item.querySelector(".suggest"));
    }
    note.className = "desk-fixed";
    note.setAttribute("role", "status");
    note.textContent = text;
  }
  document.addEventListener("click", function (e) {
    var button = e.target.closest("button.chip[data-to]");
    if (!button) { return; }
    var box = document.querySelector("#submit-form textarea[name=decklist]");
    var item = button.closest(".problem");
    var n = parseInt(button.dataset.line, 10);
    var lines = box.value.split("\n");
    var now = (lines[n - 1] || "").replace(/\r$/, "");
    var mine = [button.dataset.from];  // the line as sent, or as another suggestion of this line wrote it
    item.querySelectorAll("button.chip[data-to]").forEach(function (b) { mine.push(b.dataset.to); });
    if (mine.indexOf(now) < 0) {
      say(item, "Line " + n + " of your decklist below has been changed since: fix it there.");
      return;
    }
    lines[n - 1] = button.dataset.to;
    box.value = lines.join("\n");
    item.querySelectorAll("button.chip[data-to]").forEach(function (b) {
      b.setAttribute("aria-pressed", b === button ? "true" : "false");
    });
    say(item, "Line " + n + " now reads \u201c" + button.dataset.to + "\u201d. Submit again below.");
  });
  function setUp(root) { zones(root); fixes(root); }
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
  // The deck check's counting sheet: − and + count on the phone (without JavaScript they send the form), and the
  // differences show as the judge counts. Saving sends the counts; the server's result is the one kept.
  function counted(input) {
    var n = parseInt(input.value, 10);
    return isNaN(n) ? null : n;
  }
  function recount(form) {
    var lines = [], totals = {}, order = [];
    var problem = form.dataset.problem ? " — " + form.dataset.problem : "";  // the list's state decides the kind
    form.querySelectorAll(".count-row").forEach(function (row) {
      var input = row.querySelector("input[type=number]");
      var registered = parseInt(row.dataset.registered, 10), n = counted(input), section = row.dataset.section;
      if (!(section in totals)) { totals[section] = 0; order.push(section); }
      totals[section] += n === null ? 0 : n;
      row.classList.toggle("differs", n !== registered);
      if (n !== registered) {
        lines.push(row.dataset.card + ": registered " + registered + ", counted " + (n === null ? "?" : n) + problem);
      }
    });
    form.querySelectorAll(".count-extra").forEach(function (row) {
      var name = row.querySelector("input[type=text]").value.trim(), n = counted(row.querySelector("input[type=number]"));
      if (name && n !== 0) { lines.push(name + ": not registered, counted " + (n === null ? 1 : n) + problem); }
    });
    var differing = lines.length;  // the cards that differ: the one count of differences (totals are listed after)
    order.forEach(function (section) {
      var total = form.querySelector(".count-total[data-section='" + section.replace(/'/g, "\\'") + "']");
      var registered = total ? parseInt(total.dataset.registered, 10) : totals[section];
      if (totals[section] !== registered) {
        lines.push(section + " " + totals[section] + " counted, " + registered + " registered");
      }
    });
    var box = form.querySelector("#count-result");
    box.textContent = "";
    var head = document.createElement("p");
    head.className = lines.length ? "check-differs" : "check-matches";
    head.textContent = lines.length ? differing + " difference" + (differing === 1 ? "" : "s") + ":"
      : "Matches the registered list.";
    box.appendChild(head);
    if (lines.length) {
      var list = document.createElement("ul");
      list.id = "count-lines";
      lines.forEach(function (text) {
        var item = document.createElement("li");
        item.textContent = text;
        list.appendChild(item);
      });
      box.appendChild(list);
    }
  }
  document.addEventListener("click", function (e) {
    var button = e.target.closest("#count-form button[name=step]");
    if (!button) { return; }
    e.preventDefault();
    var input = button.parentNode.querySelector("input[type=number]");
    var delta = button.value.slice(button.value.lastIndexOf("|") + 1) === "+1" ? 1 : -1;
    input.value = String(Math.min(999, Math.max(0, (counted(input) || 0) + delta)));
    recount(button.form);
  });
  document.addEventListener("input", function (e) {
    var form = e.target.closest && e.target.closest("#count-form");
    if (form) { recount(form); }
  });
})();
