// deckcheck: an error answer to a live update (a decklist over the size limit, a request the server refused)
// is shown where the update would have gone. htmx leaves every 4xx and 5xx answer unshown, so the page looked
// as if nothing happened; the server marks the answers meant to be shown with the header HX-Retarget.
document.addEventListener("htmx:beforeSwap", function (event) {
  var xhr = event.detail.xhr;
  if (xhr.status >= 400 && xhr.getResponseHeader("HX-Retarget")) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});
