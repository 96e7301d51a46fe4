// The header's bell, live: its unread count follows the account stream (/api/v1/stream)
// and, while that stream is not open, polling (every INBOX_POLL_SECONDS, 15 s). One stream per browser: the
// tab holding a Web Lock opens it and tells the other tabs (BroadcastChannel); when that
// tab closes, another takes the lock. Every change fetches the bell from the server
// (/notifications/bell, swapped in by hand rather than by htmx, so that the table's own
// htmx swap handlers never see it), which also names the newest unread notification:
// when it is a turn, this tab is in the background and the player allowed it (a button,
// never on load), it is shown as a desktop notification (Notifications API).
(function () {
  "use strict";
  var REOPEN_MS = 30000;
  var OFF_KEY = "indulgence-desktop-off";
  var channel = window.BroadcastChannel ? new BroadcastChannel("indulgence-account") : null;
  var streamOpen = false;
  var holder = false;
  var seen = null;
  var openedBefore = false;

  function bell() { return document.getElementById("bell"); }
  var fetching = false, again = false;
  function refresh() {
    var b = bell();
    if (!b || !window.fetch) { return; }
    if (fetching) { again = true; return; } // one at a time; the last change wins
    fetching = true;
    fetch(b.getAttribute("data-url"), { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.status === 200 ? r.text() : null; })
      .then(function (html) {
        var old = bell();
        if (!html || !old) { return; }
        var holder = document.createElement("template");
        holder.innerHTML = html.trim();
        var fresh = holder.content.firstElementChild;
        if (!fresh || fresh.id !== "bell") { return; }
        var focused = document.activeElement === old;
        old.replaceWith(fresh);
        if (focused) { fresh.focus(); }
        newest();
      })
      .catch(function () { /* offline: the next change or poll tries again */ })
      .then(function () {
        fetching = false;
        if (again) { again = false; refresh(); }
      });
  }
  function tell(message) { if (channel) { channel.postMessage(message); } }
  // Something happened to the account: the bell, and any list that listens (the lobby's
  // "My games": hx-trigger "indulgence:account from:body"), are fetched again.
  function changed() {
    refresh();
    document.body.dispatchEvent(new CustomEvent("indulgence:account"));
  }

  var first = bell();
  var pollMs = Math.max(1, Number(first && first.getAttribute("data-poll")) || 15) * 1000;
  setInterval(function () { if (!streamOpen) { refresh(); } }, pollMs);

  function open() {
    var b = bell();
    if (!b || !window.EventSource) { return; }
    var source = new EventSource(b.getAttribute("data-stream"));
    source.onopen = function () {
      streamOpen = true;
      tell({ open: true });
      if (openedBefore) { refresh(); } // whatever happened while it was closed
      openedBefore = true;
    };
    source.onerror = function () {
      streamOpen = false;
      tell({ open: false });
      if (source.readyState === EventSource.CLOSED) { setTimeout(open, REOPEN_MS); }
    };
    source.onmessage = function () { changed(); tell({ event: true }); };
  }
  function hold() {
    holder = true;
    open();
    return new Promise(function () {}); // the lock is kept while this page lives
  }
  if (channel) {
    channel.onmessage = function (m) {
      var data = m.data || {};
      if (data.event) { changed(); }
      if (!holder && "open" in data) { streamOpen = data.open; }
      if (holder && data.hello) { tell({ open: streamOpen }); }
    };
  }
  if (navigator.locks && channel) {
    navigator.locks.request("indulgence-account-stream", hold);
    tell({ hello: true });
  } else {
    hold();
  }

  // Desktop notifications.
  function supported() { return "Notification" in window; }
  function off() { try { return localStorage.getItem(OFF_KEY) === "1"; } catch (e) { return false; } }
  function setOff(value) {
    try { if (value) { localStorage.setItem(OFF_KEY, "1"); } else { localStorage.removeItem(OFF_KEY); } } catch (e) { /* private mode */ }
  }
  function state() {
    if (!supported()) { return "unsupported"; }
    if (Notification.permission === "granted") { return off() ? "off" : "granted"; }
    return Notification.permission; // "default" or "denied"
  }
  function showState() {
    var now = state();
    document.querySelectorAll("[data-desktop-notifications]").forEach(function (box) {
      box.hidden = false;
      box.querySelectorAll("[data-state]").forEach(function (p) { p.hidden = p.getAttribute("data-state") !== now; });
    });
  }
  document.addEventListener("click", function (evt) {
    var target = evt.target instanceof Element ? evt.target : null;
    if (!target || !supported()) { return; }
    if (target.closest("[data-desktop-on]")) {
      setOff(false);
      // Asked only here, on the player's click (granted already: answered at once).
      Notification.requestPermission().then(showState, showState);
    } else if (target.closest("[data-desktop-off]")) {
      setOff(true);
      showState();
    }
  });
  function newest() {
    var b = bell();
    if (!b) { return; }
    var latest = Number(b.getAttribute("data-latest") || 0);
    if (seen === null || latest <= seen) { seen = Math.max(seen || 0, latest); return; }
    seen = latest;
    if (!b.hasAttribute("data-latest-turn") || !document.hidden || state() !== "granted") { return; }
    var note = new Notification(b.getAttribute("data-latest-text") || "", {
      tag: "indulgence-" + latest, // one per notification, however many tabs show it
      lang: document.documentElement.lang,
      icon: b.getAttribute("data-icon") || undefined
    });
    var url = b.getAttribute("data-latest-url");
    note.onclick = function () { window.focus(); if (url) { window.location.href = url; } note.close(); };
  }
  newest();
  showState();
  // The notifications page swaps the bell in out of band (htmx) after "Mark read".
  document.addEventListener("htmx:afterSettle", function () { newest(); showState(); });
})();
