/*
 * The live view of a match being recorded (templates/live/_follow.html): follows the live API
 * (GET …/live/next with the ETag it has), which answers the moment an entry is written and
 * otherwise waits (a 304 after 25 s), and draws each state with the board viewer. A server that
 * answers a follow at once (gunicorn without the follow server) is asked again a second later;
 * a hidden tab asks nothing. When the match gets its result, the page is loaded again to show
 * the replay.
 *
 * Spectators see the points numbered from White's side all game long (the side the board is
 * drawn from): numbers that followed the mover flipped every turn. The match's status in the
 * page's header says "Being played" while the recording is live. A timed match shows both
 * clocks (static/nardy/clocks.js), read by the server at each answer and ticked down between.
 */
(function () {
  "use strict";

  var root = document.querySelector('[data-role="live-follow"]');
  if (!root || !window.NardyBoard) return;
  var viewer = null;
  var etag = null;
  var seen = false;
  var badge = document.querySelector('[data-role="match-status"]');
  var clocks = window.NardyClocks ? new window.NardyClocks(root.querySelector('[data-role="clocks"]')) : null;

  function showStatus(recording) {
    if (!badge) return;
    badge.textContent = recording ? root.dataset.textBeingPlayed : root.dataset.textScheduled;
    badge.className = "badge " + (recording ? "live" : "scheduled");
  }

  function update(state) {
    if (state.match_status !== "scheduled") {
      if (seen) window.location.reload();
      return;
    }
    root.hidden = !state.recording;
    showStatus(state.recording);
    if (!state.recording) return;
    seen = true;
    if (clocks) clocks.load(state);
    state.board.numbering = "white";
    if (viewer) viewer.load(state.board);
    else viewer = new window.NardyBoard.Viewer(root, state.board);
  }

  var following = false;

  function follow() {
    if (following || document.hidden) return;
    following = true;
    var asked = Date.now();
    var headers = { Accept: "application/json" };
    if (etag) headers["If-None-Match"] = etag;
    fetch(root.dataset.follow, { credentials: "same-origin", headers: headers })
      .then(function (response) {
        if (response.status === 304) return null;
        if (response.status !== 200) throw new Error(String(response.status));
        etag = response.headers.get("ETag");
        return response.json();
      })
      .then(function (state) {
        if (state) update(state);
        // At once after a change; an unchanged answer that came back early, a second after asking.
        again(state ? 0 : 1000 - (Date.now() - asked));
      })
      .catch(function () {
        again(3000);
      });
  }

  function again(delay) {
    following = false;
    window.setTimeout(follow, Math.max(0, delay));
  }

  root.querySelector('[data-action="fullscreen"]').addEventListener("click", function () {
    if (root.requestFullscreen) root.requestFullscreen();
  });

  document.addEventListener("visibilitychange", follow);
  follow();
})();
