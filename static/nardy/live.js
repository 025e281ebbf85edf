/*
 * The live view of a match being recorded (templates/live/_follow.html): polls the live API
 * every second with If-None-Match (a 304 while nothing changed; the server computes a state
 * once per write for every spectator) and draws it with the board viewer. When the match gets
 * its result, the page is loaded again to show the replay.
 *
 * Spectators see the points numbered from White's side all game long (the side the board is
 * drawn from): numbers that followed the mover flipped every turn. The match's status in the
 * page's header says "Being played" while the recording is live.
 */
(function () {
  "use strict";

  var root = document.querySelector('[data-role="live-follow"]');
  if (!root || !window.NardyBoard) return;
  var viewer = null;
  var etag = null;
  var seen = false;
  var badge = document.querySelector('[data-role="match-status"]');

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
    state.board.numbering = "white";
    if (viewer) viewer.load(state.board);
    else viewer = new window.NardyBoard.Viewer(root, state.board);
  }

  function poll() {
    if (document.hidden) return;
    var headers = { Accept: "application/json" };
    if (etag) headers["If-None-Match"] = etag;
    fetch(root.dataset.api, { credentials: "same-origin", headers: headers })
      .then(function (response) {
        if (response.status !== 200) return null;
        etag = response.headers.get("ETag");
        return response.json();
      })
      .then(function (state) {
        if (state) update(state);
      })
      .catch(function () {});
  }

  root.querySelector('[data-action="fullscreen"]').addEventListener("click", function () {
    if (root.requestFullscreen) root.requestFullscreen();
  });

  poll();
  window.setInterval(poll, 1000);
})();
