// The live table: deadline countdowns, keyboard focus and the ring choice kept across
// htmx swaps, and polling only while the live stream is not connected.
(function () {
  "use strict";
  var lastFocusId = null;
  var ringChosen = false;
  window.indulgenceStreamOpen = false;
  // A stream (re)opens at the game's latest event: whatever was announced between the
  // page's render (or the last connection's end) and now never comes as a message, so
  // fetch the table once (a 304 when nothing changed).
  document.addEventListener("htmx:sseOpen", function () {
    window.indulgenceStreamOpen = true;
    poll(function () { return true; });
  });
  document.addEventListener("htmx:sseError", function () { window.indulgenceStreamOpen = false; });
  document.addEventListener("htmx:sseClose", function () { window.indulgenceStreamOpen = false; });
  // The table's own fetches never wait in htmx's queue (queue:none in its hx-trigger): a
  // move aborts the fetch in flight (hx-sync="#table:replace"), which would start the
  // queued fetch and queue the move behind it, and htmx drops a queued move whose form a
  // swap removed: the click was lost. So a fetch asked for while a request is in flight
  // is dropped, and made here once that request is over: when one was asked for and no
  // request that brings the table (a fetch, or a move answered with the table) was sent
  // since, or when the game's stream announced a newer version than the table shows.
  var announced = 0;
  var wanted = false;
  document.addEventListener("htmx:sseMessage", function (evt) {
    if (!evt.target || evt.target.id !== "table" || !evt.detail || !evt.detail.data) { return; }
    try {
      var version = JSON.parse(evt.detail.data).version;
      if (typeof version === "number" && version > announced) { announced = version; }
    } catch (e) { /* not a game event */ }
  });
  document.addEventListener("htmx:beforeRequest", function (evt) {
    if (evt.detail && evt.detail.target && evt.detail.target.id === "table") { wanted = false; }
  });
  // Fetch the live table again (a 304 when nothing changed) if it is live and ``when``
  // says so for it.
  function poll(when) {
    var table = document.getElementById("table");
    if (table && table.hasAttribute("hx-get") && window.htmx && when(table)) {
      wanted = true;
      window.htmx.trigger(table, "indulgence:poll");
    }
  }
  function catchUp() {
    poll(function (table) { return wanted || Number(table.dataset.version) < announced; });
  }
  // Once htmx has let go of the request (right after this event): a request that swaps
  // is caught up after its swap settles (the new table listens for its triggers only
  // then); one answered without a swap (a 304), here. Not after an error: a failing
  // server is not asked again at once (the stream's reconnection, or the 4 s fallback
  // poll while it is closed, asks again).
  document.addEventListener("htmx:afterRequest", function (evt) {
    if (evt.detail && evt.detail.successful && !evt.detail.shouldSwap) { setTimeout(catchUp, 0); }
  });
  function tick() {
    document.querySelectorAll("time[data-deadline]").forEach(function (el) {
      var left = Math.max(0, Math.round((Date.parse(el.getAttribute("datetime")) - Date.now()) / 1000));
      var h = Math.floor(left / 3600), m = Math.floor(left % 3600 / 60), s = left % 60;
      el.textContent = (h ? h + ":" : "") + String(m).padStart(h ? 2 : 1, "0") + ":" + String(s).padStart(2, "0");
    });
  }
  setInterval(tick, 1000);
  // Poll every 4 s while the stream is not open: the table listens for indulgence:poll
  // (an hx-trigger filter would need eval, which the Content-Security-Policy forbids).
  setInterval(function () {
    poll(function () { return !window.indulgenceStreamOpen; });
  }, 4000);
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:beforeSwap", function (evt) {
    var ring = document.getElementById("ring-choice");
    // A live redraw must not untick the ring; a move just sent uses it up.
    ringChosen = !!ring && ring.checked && evt.detail.requestConfig.verb === "get";
    var active = document.activeElement;
    lastFocusId = active && evt.detail.target && evt.detail.target.contains(active) ? (active.id || "table-h") : null;
  });
  document.addEventListener("htmx:afterSettle", function (evt) {
    tick();
    catchUp();
    var ring = document.getElementById("ring-choice");
    if (ring && ringChosen) { ring.checked = true; }
    ringChosen = false;
    if (lastFocusId === null || !document.getElementById("table")) { return; }
    // Focus was inside the region that was replaced: put it on the next thing to do
    // (after a hand ends: the heading of its summary, so it is read from the top; the
    // next Tab reaches "Continue").
    var next = document.querySelector("#hand-over-h, #hand button:not(:disabled), #table .controls button, #edicts button") ||
      document.getElementById(lastFocusId) || document.getElementById("table-h");
    if (next) { next.focus(); }
    lastFocusId = null;
  });
})();
