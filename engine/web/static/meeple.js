// meeple serve: the page reloads when the game moves on, and a few keys.
// Everything works without this script too (links and forms); it fetches nothing
// but this server's own addresses.
(function () {
  "use strict";
  // a link to a card in the drawer opens that card (its summary is the link's target)
  var target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (target && target.parentElement.tagName === "DETAILS") { target.parentElement.open = true; target.focus(); }
  var body = document.body;
  var token = body.dataset.token;
  if (!token) { return; }
  var base = "/s/" + token;
  var version = body.dataset.version;
  var leaving = false;      // a form sent or a link followed: the page is on its way out
  addEventListener("submit", function () { leaving = true; }, true);
  addEventListener("beforeunload", function () { leaving = true; });

  // a page showing the game now waits for it to move on, then shows it again
  function wait() {
    fetch(base + "/wait?after=" + version, {cache: "no-store"})
      .then(function (r) { return r.json(); })
      .then(function (d) { if (leaving) { return; } if (d.changed) { location.reload(); } else { wait(); } })
      .catch(function () { setTimeout(wait, 2000); });
  }
  if (body.dataset.live === "1") { wait(); }

  // the step slider goes there as soon as it is let go
  var scrub = document.getElementById("scrub");
  if (scrub) { scrub.addEventListener("change", function () { scrub.form.submit(); }); }

  // keys: [ and ] step back and forth, a digit puts the focus on that option (Enter chooses it)
  document.addEventListener("keydown", function (e) {
    var t = e.target.tagName;
    if (t === "INPUT" || t === "SELECT" || t === "TEXTAREA" || e.ctrlKey || e.metaKey || e.altKey) { return; }
    if (e.key === "[" || e.key === "]") {
      var link = document.getElementById(e.key === "[" ? "back" : "forward");
      if (link) { location.href = link.href; }
    } else if (/^[0-9]$/.test(e.key)) {
      var n = e.key === "0" ? 10 : Number(e.key);
      var button = document.getElementById("option-" + n);
      if (button) { button.focus(); e.preventDefault(); }
    }
  });
  var first = document.getElementById("option-1");
  if (first && body.dataset.live === "1") { first.focus(); }
})();
