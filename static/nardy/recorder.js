/*
 * The recorder page: a phone board next to the real one.
 *
 * The page trusts nothing of its own: the state comes from the live API (the engine's legal
 * plays and the single steps that make them, games/rules/steps.py), and every entry is posted
 * there at once with the ply it was made at. Only the checker steps of the play being entered
 * stay on the page until the play is complete (then it is sent as one turn). A stale page is
 * told so by the server (409, with the current state), and follows the other device's entries.
 *
 * It forgives a slip: a resignation names the player and what the opponent wins and asks to
 * confirm; the entry that decided the match can be taken back for a while (the server's rule
 * and clock: state.take_back_until); who moves first is one tap on the player's name (or, where
 * the tournament plays Long Nardy's opening roll, the two dice of the opening throw); and every
 * tap zone on the board is at least MIN_TAP_PX wide (a tap that could mean two points asks).
 *
 * With no network it goes on (static/nardy/offline.js): an entry that cannot reach the server
 * is kept on the phone and applied at once by the server's own rules engine running in the page
 * (from the kit the server last gave), so only an entry the server will take is offered; the
 * clocks run on from the server's last reading. The waiting entries are synced in one batch
 * (POST …/live/sync) as soon as the server answers. When another phone recorded meanwhile, or
 * the server refuses one, nothing is merged: the phone shows both sides, entry by entry, and
 * its entries are discarded or handed to the judge, as the players choose.
 */
(function () {
  "use strict";

  // The narrowest tap zone on the board, in CSS pixels (the usual 44–48 px minimum).
  var MIN_TAP_PX = 46;

  var root = document.querySelector('[data-role="recorder"]');
  if (!root || !window.NardyBoard) return;
  var Board = window.NardyBoard;
  var words = root.dataset;
  var state = JSON.parse(document.getElementById("live-state").textContent);
  var svgBoard = root.querySelector('[data-role="board"]');
  var statusLine = root.querySelector('[data-role="status"]');
  var messageBox = root.querySelector('[data-role="message"]');
  var hintLine = root.querySelector('[data-role="hint"]');
  var choices = root.querySelector('[data-role="choices"]');
  var onlyPlay = root.querySelector('[data-role="only-play"]');
  var passButton = root.querySelector('[data-role="pass"]');
  var csrf = root.querySelector("input[name=csrfmiddlewaretoken]").value;
  var undoButton = root.querySelector('[data-action="undo"]');
  var undoLabel = undoButton.textContent;
  var organizer = root.hasAttribute("data-organizer");
  var Offline = window.NardyOffline;
  var offlineBox = root.querySelector('[data-role="offline"]');
  var conflictPanel = root.querySelector('[data-panel="conflict"]');
  // The phone's record of this match (offline.js: the last server state and kit, the entries
  // waiting, the server's clock offset, a conflict shown), once read from the store.
  var record = null;
  var engine = Offline ? new Offline.Engine(words.offlineWorker, words.pyodide, words.offlineCode) : null;
  var syncing = false;
  var viewer = new Board.Viewer(root, state.board);
  // The match clocks of a timed match: when the running side's time runs out, the page offers
  // the flag fall (the server checks it by its own clock).
  var clocks = window.NardyClocks ? new window.NardyClocks(root.querySelector('[data-role="clocks"]'), function () {
    if (fallenShown !== clocks.fallen()) render();
  }) : null;
  var fallenShown = null;
  var etag = null;
  var busy = false;
  // The server's clock as this page reckons it (the page's render, then each answer's Date).
  var clockOffset = Number(words.serverNow) * 1000 - Date.now();
  // The tap zones drawn on the board, and the points a tap between two of them could mean.
  var zones = [];
  var asking = null;
  // A resignation waiting for its confirmation: {side, value}.
  var resigning = null;
  // The player tapped as moving first, while that entry is on its way.
  var choosingFirst = null;
  // A play typed as made that the rules refused, waiting for the opponent's word: {play, reason}.
  var accepting = null;
  // Raised by every write: a poll answer that set out before a write is older than it, however
  // late it arrives, and is dropped.
  var writes = 0;
  var firstDie = null;
  // The opening throw being entered (state.opening_roll): White's die and Black's, as tapped.
  var opening = { white: null, black: null };
  // The play being entered: the steps made so far (own numbering), the step-graph nodes they
  // may stand at, the board as it looks now, and the checker selected.
  var partial = null;

  function resetPartial() {
    var frame = state.board.frames[0];
    partial = {
      steps: [],
      nodes: [0],
      board: JSON.parse(JSON.stringify(frame.board)),
      selected: null,
    };
  }

  // --- Numbering: the board is drawn in White's numbering, plays are in the mover's ---------

  function ownPoint(tap) {
    if (tap === "bar") return 25;
    if (tap === "off") return 0;
    var point = Number(tap);
    return state.on_roll === "white" ? point : state.board.layout.black_numbers[point - 1];
  }

  function displayPoint(own) {
    if (own === 25) return "bar";
    if (own === 0) return "off";
    if (state.on_roll === "white") return own;
    return state.board.layout.black_numbers.indexOf(own) + 1;
  }

  function pointName(own) {
    if (own === 25) return words.textBar;
    if (own === 0) return words.textOff;
    return String(own);
  }

  // --- The step graph -------------------------------------------------------------------------

  function edges() {
    var found = [];
    partial.nodes.forEach(function (index) {
      state.steps[index].steps.forEach(function (step) {
        found.push(step);
      });
    });
    return found;
  }

  function sources() {
    var seen = {};
    edges().forEach(function (step) {
      seen[step[0]] = true;
    });
    return Object.keys(seen).map(Number).sort(function (a, b) { return b - a; });
  }

  function targets(source) {
    var seen = {};
    edges().forEach(function (step) {
      if (step[0] === source) seen[step[1]] = true;
    });
    return Object.keys(seen).map(Number).sort(function (a, b) { return b - a; });
  }

  function completePlay() {
    for (var i = 0; i < partial.nodes.length; i++) {
      var play = state.steps[partial.nodes[i]].play;
      if (play !== null && play !== undefined) return play;
    }
    return null;
  }

  // Move one checker on the drawn board (the hit, if any, as the graph says).
  function applyStep(source, target, hit) {
    var board = partial.board;
    var colour = state.on_roll;
    var sign = colour === "white" ? 1 : -1;
    var from = displayPoint(source);
    var to = displayPoint(target);
    if (from === "bar") board.bar[colour] -= 1;
    else board.points[from - 1] -= sign;
    if (to === "off") {
      board.off[colour] += 1;
      return;
    }
    if (hit) {
      board.points[to - 1] = 0;
      board.bar[colour === "white" ? "black" : "white"] += 1;
    }
    board.points[to - 1] += sign;
  }

  function step(source, target) {
    var next = [];
    var hit = false;
    partial.nodes.forEach(function (index) {
      state.steps[index].steps.forEach(function (edge) {
        if (edge[0] === source && edge[1] === target && next.indexOf(edge[3]) < 0) {
          next.push(edge[3]);
          hit = hit || edge[2];
        }
      });
    });
    if (!next.length) return;
    applyStep(source, target, hit);
    partial.steps.push([source, target]);
    partial.nodes = next;
    var play = completePlay();
    if (play !== null) {
      send({ dice: state.dice, play: state.legal_plays[play].play });
      return;
    }
    // When the moved checker is the only one that can go on, it stays selected: one tap for its
    // next step. (Were others movable too, a tap on one of them could mean either.)
    var movable = sources();
    partial.selected = movable.length === 1 && movable[0] === target ? target : null;
    render();
  }

  // --- Drawing --------------------------------------------------------------------------------

  function fmt(template, values) {
    return Board.format(template || "", values);
  }

  function name(side) {
    var player = side === "white" ? state.white : 3 - state.white;
    return state.names[player - 1];
  }

  function sideWord(side) {
    return side === "white" ? words.white : words.black;
  }

  function show(panel, visible) {
    root.querySelector('[data-panel="' + panel + '"]').hidden = !visible;
  }

  function button(label, handler, extra) {
    var element = document.createElement("button");
    element.type = "button";
    element.className = "big" + (extra ? " " + extra : "");
    element.textContent = label;
    element.addEventListener("click", handler);
    return element;
  }

  function drawBoard() {
    var frame = JSON.parse(JSON.stringify(state.board.frames[0]));
    var marks = {};
    var entering = state.dice && !state.finished && state.steps;
    if (entering) {
      frame.board = partial.board;
      if (partial.steps.length) frame.moved = [];
      if (partial.selected !== null) {
        marks[displayPoint(partial.selected)] = "selected";
        targets(partial.selected).forEach(function (target) {
          marks[displayPoint(target)] = "target";
        });
      } else {
        sources().forEach(function (source) {
          marks[displayPoint(source)] = "source";
        });
      }
    }
    if (asking) {
      asking.forEach(function (own) {
        marks[displayPoint(own)] = "selected";
      });
    }
    var taps = entering ? { marks: marks, minPx: MIN_TAP_PX } : null;
    zones = Board.drawFrame(svgBoard, state.board, frame, svgBoard.getAttribute("aria-label"), taps);
  }

  // The opening throw is asked for (one die each), not who moves first nor a roll.
  function throwing() {
    return !!state.opening_roll && state.may.opening && !state.dice;
  }

  function sideName(side) {
    return state.names[side === "home" ? 0 : 1];
  }

  function status() {
    var on = state.on_roll;
    var values = { name: name(on), side: sideWord(on), dice: state.dice || "", game: state.game, stake: state.offered };
    if (state.finished && state.lost_on_time) {
      var lost = state.lost_on_time;
      var text = fmt(words.textLostOnTime, { name: sideName(lost), winner: sideName(lost === "home" ? "away" : "home") });
      if (takeBackSeconds() > 0) text += " " + fmt(words.textFinishedUndo, { seconds: words.undoWindow });
      return text;
    }
    if (state.finished && state.offline) return words.textFinishedOffline;
    if (state.finished) {
      if (state.recording === false && state.ply === 0) return words.textReported;
      if (takeBackSeconds() > 0) return words.textFinished + " " + fmt(words.textFinishedUndo, { seconds: words.undoWindow });
      return words.textFinished;
    }
    if (state.offered) return fmt(words.textAnswer, { name: name(on === "white" ? "black" : "white"), side: sideWord(on === "white" ? "black" : "white"), stake: state.offered });
    if (state.dice) {
      if (accepting) return fmt(words.textAcceptWaits, { opponent: name(on === "white" ? "black" : "white") });
      if (!state.legal_plays.length) return words.textNone;
      if (asking) return words.textWhich;
      return partial.selected !== null ? words.textTarget : fmt(words.textPick, values);
    }
    if (throwing()) return fmt(words.textOpening, { game: state.game, white: name("white"), black: name("black") });
    if (state.may.first) return fmt(words.textFirst, values);
    if (firstDie !== null) return fmt(words.textSecondDie, { die: firstDie });
    var text = fmt(words.textRollNow, values);
    if (state.last_turn) text = words.textLastTurn + " " + text;
    return text;
  }

  // --- Taking back the entry that decided the match ---------------------------------------------

  function serverNow() {
    return Date.now() + clockOffset;
  }

  function noteServerClock(response) {
    var date = Date.parse(response.headers.get("Date") || "");
    if (!isNaN(date)) clockOffset = date - Date.now();
  }

  // Whole seconds left for the players to take the deciding entry back (0: none, or over).
  function takeBackSeconds() {
    if (!state.take_back_until) return 0;
    return Math.max(0, Math.floor((Date.parse(state.take_back_until) - serverNow()) / 1000));
  }

  function showUndo(live) {
    var left = takeBackSeconds();
    if (conflicted()) {
      undoButton.hidden = true; // the conflict is answered first
    } else if (live || (state.offline && waiting() > 0)) {
      undoButton.hidden = false;
      undoButton.textContent = undoLabel;
      var thrown = opening.white !== null || opening.black !== null;
      undoButton.disabled = !(partial.steps.length || firstDie !== null || thrown || state.ply > 0);
    } else if (state.take_back_until && (left > 0 || organizer)) {
      undoButton.hidden = false;
      undoButton.disabled = false;
      undoButton.textContent = left > 0 ? fmt(words.textTakeBack, { seconds: left }) : words.textTakeBackOrganizer;
    } else {
      undoButton.hidden = true; // a reported match is changed through the result flow
    }
  }

  // --- Resigning: the player, the value, what the opponent wins, and a confirmation ------------

  function other(side) {
    return side === "white" ? "black" : "white";
  }

  function valueWord(value) {
    return words["value" + value] || String(value);
  }

  function resignValues(side, value) {
    return {
      name: name(side),
      side: sideWord(side),
      game: state.game,
      value: valueWord(value),
      winner: name(other(side)),
      points: value * state.stake,
    };
  }

  // Whether a resignation giving the opponent ``points`` ends the match.
  function endsMatch(side, points) {
    var winner = side === "white" ? 3 - state.white : state.white;
    var score = state.score;
    if (score.length) return (winner === 1 ? score.home : score.away) + points >= score.length;
    if (score.games) return state.games.length + 1 >= score.games;
    return false;
  }

  function drawResign(live) {
    root.querySelectorAll("[data-resign-side]").forEach(function (group) {
      var side = group.dataset.resignSide;
      group.querySelector('[data-role="resigner"]').textContent = fmt(words.textResignButton, { name: name(side), side: sideWord(side) });
      group.querySelectorAll("[data-resign]").forEach(function (element) {
        element.textContent = fmt(words.textResignValue, resignValues(side, Number(element.dataset.value)));
      });
    });
    root.querySelector('[data-role="resign"]').hidden = !live || resigning !== null || conflicted();
    show("confirm-resign", live && resigning !== null);
    if (!resigning) return;
    var values = resignValues(resigning.side, resigning.value);
    var question = fmt(words.textResignConfirm, values);
    if (endsMatch(resigning.side, values.points)) question += " " + fmt(words.textResignEnds, values);
    root.querySelector('[data-role="resign-question"]').textContent = question;
    root.querySelector('[data-action="resign-confirm"]').textContent = fmt(words.textResignYes, values);
  }

  function lastGameText() {
    var games = state.games;
    if (!games.length || state.ply === 0) return "";
    var game = games[games.length - 1];
    if (game.winner_player === null) return fmt(words.textGameDrawn, { game: game.number });
    return fmt(words.textGameResult, {
      game: game.number,
      winner: state.names[game.winner_player - 1],
      points: game.value * game.stake,
      value: words["value" + game.value] || game.value,
    });
  }

  function render() {
    root.dataset.ply = String(state.ply);
    root.dataset.revision = String(state.revision);
    viewer.load(state.board);
    drawBoard();
    var text = status();
    var finished = lastGameText();
    if (finished && state.board.frames[0].kind === "start") text = finished + ". " + text;
    statusLine.textContent = text;
    var live = !state.finished && state.match_status === "scheduled";
    // A flag fell: the only entry left is the flag fall (or an undo, or a judge's time).
    fallenShown = clocks && live ? clocks.fallen() : null;
    show("flag", fallenShown !== null);
    if (fallenShown !== null) {
      root.querySelector('[data-role="flag-text"]').textContent = fmt(words.textFlag, { name: sideName(fallenShown) });
      root.querySelector('[data-action="flag"]').textContent = fmt(words.textFlagButton, { name: sideName(fallenShown) });
    }
    // One question at a time: who moves first, else the dice (or dave's answer), else the play;
    // a resignation being confirmed or a fallen flag hides them all.
    var open = live && resigning === null && fallenShown === null && !conflicted();
    var opens = open && throwing();
    show("opening", opens);
    root.querySelectorAll("[data-opening-side]").forEach(function (group) {
      var side = group.dataset.openingSide;
      group.querySelector('[data-role="opening-name"]').textContent = fmt(words.textOpeningSide, { name: name(side), side: sideWord(side) });
    });
    root.querySelectorAll("[data-opening]").forEach(function (element) {
      element.setAttribute("aria-pressed", String(Number(element.dataset.face) === opening[element.dataset.opening]));
    });
    var swap = root.querySelector('[data-action="swap-colours"]');
    swap.hidden = !(opens && state.may.first);
    swap.textContent = fmt(words.textOpeningSwap, { name: name("black") });
    var choosing = open && state.may.first && !state.dice && !opens;
    show("first", choosing);
    root.querySelectorAll("[data-first]").forEach(function (element) {
      var player = Number(element.dataset.first);
      element.textContent = fmt(words.textFirstButton, { name: state.names[player - 1] });
      element.setAttribute("aria-pressed", String(player === choosingFirst));
    });
    show("dice", open && !choosing && !opens && state.may.roll);
    root.querySelectorAll("[data-die]").forEach(function (element) {
      element.setAttribute("aria-pressed", String(Number(element.dataset.die) === firstDie));
    });
    show("answer", open && state.may.answer);
    show("accept", open && accepting !== null);
    if (accepting) {
      var opponent = name(state.on_roll === "white" ? "black" : "white");
      var question = { play: accepting.play, reason: accepting.reason, opponent: opponent };
      root.querySelector('[data-role="accept-question"]').textContent = fmt(words.textAcceptQuestion, question);
      root.querySelector('[data-action="accept-yes"]').textContent = fmt(words.textAcceptYes, question);
    }
    var entering = open && !!state.dice && accepting === null;
    show("moves", entering);
    while (choices.firstChild) choices.removeChild(choices.firstChild);
    onlyPlay.hidden = true;
    passButton.hidden = true;
    if (entering) {
      if (!state.legal_plays.length) {
        passButton.hidden = false;
      } else if (state.legal_plays.length === 1 && !partial.steps.length) {
        onlyPlay.hidden = false;
        onlyPlay.textContent = state.legal_plays[0].play;
      }
      if (asking) {
        asking.forEach(function (own) {
          choices.appendChild(button(pointName(own), function () {
            asking = null;
            tapPoint(own);
          }, "target"));
        });
      } else if (partial.selected !== null) {
        targets(partial.selected).forEach(function (target) {
          choices.appendChild(button(pointName(partial.selected) + " → " + pointName(target), function () {
            step(partial.selected, target);
          }, "target"));
        });
      } else if (state.legal_plays.length) {
        sources().forEach(function (source) {
          choices.appendChild(button(fmt(words.textFrom, { point: pointName(source) }), function () {
            partial.selected = source;
            render();
          }));
        });
      }
    }
    root.querySelector('[data-action="double"]').hidden = !(open && !choosing && !opens && state.may.double);
    showUndo(live);
    drawResign(live);
    root.querySelector('[data-role="to-match"]').hidden = live || !!state.offline;
    drawOffline();
  }

  function say(text) {
    messageBox.textContent = text || "";
    messageBox.hidden = !text;
  }

  // --- Talking to the server ------------------------------------------------------------------

  // After a play in a casual Long Nardy match the answer carries the engine's play (practice);
  // the hint stays until the next entry.
  function showHint(hint) {
    hintLine.hidden = !hint;
    hintLine.textContent = hint ? fmt(words.textHint, { best: hint.best, loss: hint.loss.toFixed(3) }) : "";
  }

  function take(next, message) {
    showHint(next.hint);
    state = next;
    if (!next.offline) remember(next);
    accepting = null;
    if (clocks) clocks.load(state);
    firstDie = null;
    opening = { white: null, black: null };
    asking = null;
    resigning = null;
    choosingFirst = null;
    resetPartial();
    say(message || "");
    render();
  }

  // A play typed as made: sent as it is; when the rules refuse it and the tournament lets the
  // opponent accept it, the refusal is shown with the rule and the opponent is asked.
  function sendAsMade(play) {
    var dice = state.dice;
    return request(root.dataset.api, "POST", { ply: state.ply, revision: state.revision, action: { dice: dice, play: play } }, function (error) {
      if (!state.accepted_moves || error.code !== "illegal_record" || !error.details) return false;
      accepting = { play: play, dice: dice, reason: error.details.reason };
      return true;
    });
  }

  // A write to the live API, with the page's session and CSRF token.
  function apiWrite(url, method, body) {
    return fetch(url, {
      method: method,
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf, Accept: "application/json" },
      body: body ? JSON.stringify(body) : undefined,
    });
  }

  // The server's state as it stands, shown (after a write that answers with none).
  function takeFresh(message) {
    return fetch(root.dataset.api, { credentials: "same-origin" })
      .then(function (response) { return response.json(); })
      .then(function (fresh) { take(fresh, message); });
  }

  function request(url, method, body, refused, entry) {
    if (busy) return Promise.resolve();
    busy = true;
    writes += 1;
    root.setAttribute("aria-busy", "true");
    return apiWrite(url, method, body)
      .then(function (response) {
        noteServerClock(response);
        if (response.status === 204) return takeFresh();
        return response.json().then(function (data) {
          if (response.ok) {
            take(data);
          } else if (response.status === 409 && data.error.details && data.error.details.state) {
            take(data.error.details.state, data.error.message);
          } else {
            resetPartial();
            asking = null;
            choosingFirst = null;
            opening = { white: null, black: null };
            var handled = refused && data.error && refused(data.error);
            render();
            say(handled ? "" : data.error ? data.error.message : response.statusText);
          }
        });
      })
      .catch(function () {
        if (!entry || !mayKeep()) say(words.textOffline);
        return entry && mayKeep() ? "keep" : null;
      })
      .then(function (then) {
        busy = false;
        root.removeAttribute("aria-busy");
        if (then === "keep") return keep(entry);
      });
  }

  // An entry: to the server, or kept on the phone behind the entries already waiting there.
  function send(action) {
    if (waiting() > 0) return keep(action);
    return request(root.dataset.api, "POST", { ply: state.ply, revision: state.revision, action: action }, null, action);
  }

  function judge(body) {
    body.revision = state.revision;
    return request(root.dataset.clock, "POST", body);
  }

  function undo(to) {
    if (waiting() > 0) return to === undefined ? keep(null) : Promise.resolve(say(words.textOffline));
    var body = { ply: state.ply, revision: state.revision };
    if (to !== undefined) body.to = to;
    return request(root.dataset.undo, "POST", body);
  }

  // Another device's entries: the page follows the live API as the spectators' pages do
  // (GET …/live/next with the ETag it has, answered the moment an entry is written; a server
  // that answers at once is asked again a second later). An answer that set out before this
  // page's own write is older than it, however late it arrives, and is dropped.
  var following = false;

  function follow() {
    if (following || document.hidden) return;
    following = true;
    var asked = Date.now();
    var headers = { Accept: "application/json" };
    if (etag) headers["If-None-Match"] = etag;
    var startedAfter = writes;
    fetch(root.dataset.follow, { credentials: "same-origin", headers: headers })
      .then(function (response) {
        noteServerClock(response);
        if (response.status === 304) return null;
        if (response.status !== 200) throw new Error(String(response.status));
        etag = response.headers.get("ETag");
        return response.json();
      })
      .then(function (fresh) {
        var changed = fresh && !(fresh.draft === state.draft && fresh.revision === state.revision);
        if (changed && !busy && startedAfter === writes && !waiting()) take(fresh, words.textUpdated);
        if (fresh && waiting()) trySync(); // the server answers again: catch up
        followAgain(fresh ? 0 : 1000 - (Date.now() - asked));
      })
      .catch(function () {
        followAgain(3000);
      });
  }

  function followAgain(delay) {
    following = false;
    window.setTimeout(follow, Math.max(0, delay));
  }

  // --- With no network -------------------------------------------------------------------------

  // A play, a roll or an opening throw half entered: the sync waits for it, not to undo taps.
  function midEntry() {
    return partial.steps.length > 0 || partial.selected !== null || firstDie !== null ||
      opening.white !== null || opening.black !== null || resigning !== null || accepting !== null;
  }

  function waiting() {
    return record ? record.pending.length : 0;
  }

  function conflicted() {
    return !!(record && record.conflict);
  }

  function sameDraft(kit, server) {
    return !!kit && !!server && kit.draft === server.draft && kit.revision === server.revision;
  }

  // Whether an entry can be kept on the phone: the engine and the kit of the state it follows.
  function mayKeep() {
    return !!(engine && record && record.state && sameDraft(record.kit, record.state) && !record.conflict);
  }

  function save() {
    record.offset = clockOffset;
    return Offline.store.write(record);
  }

  // A state the server gave: the phone's new starting point (and its kit, fetched when it
  // changed), unless entries wait on the phone (then the server's state is theirs to meet).
  function remember(server) {
    if (!record || waiting()) return;
    var fresh = Offline.store.blank(record.match);
    fresh.state = server;
    fresh.kit = record.kit;
    delete server.hint;
    record = fresh;
    save();
    if (!sameDraft(record.kit, server)) refreshKit();
  }

  function refreshKit() {
    var asked = record.state;
    fetch(root.dataset.kit, { credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        return response.ok ? response.json() : null;
      })
      .then(function (kit) {
        if (kit && record && record.state === asked && !waiting()) {
          record.kit = kit;
          save().then(markReady);
        }
      })
      .catch(function () {});
  }

  // The phone's entries applied by the engine in the page: the state shown while they wait.
  function viewOf(computed) {
    var server = record.state;
    return Object.assign(computed, {
      draft: server.draft,
      revision: server.revision,
      recording: true,
      take_back_until: null,
      match: server.match,
      match_status: server.match_status,
      names: server.names,
      hint: null,
      offline: true,
    });
  }

  // Keep ``action`` on the phone after the entries waiting there (null: take the last back).
  function keep(action) {
    if (!mayKeep()) {
      say(words.textOffline);
      render();
      return Promise.resolve();
    }
    var entries = record.pending.slice(0, action === null ? -1 : undefined);
    if (action !== null) entries.push({ action: action, at: new Date(serverNow()).toISOString() });
    return hold(entries);
  }

  // The phone holds ``entries``: the engine's state after them is written, then shown.
  function hold(entries) {
    busy = true;
    root.setAttribute("aria-busy", "true");
    if (!engine.started) statusLine.textContent = words.textPreparing;
    var computing = entries.length
      ? engine.after(record.kit, record.state.names, entries, serverNow() / 1000)
      : Promise.resolve(null);
    return computing
      .then(function (computed) {
        if (computed && computed.refused) {
          resetPartial();
          render();
          say(computed.refused.reason);
          return null;
        }
        record.pending = entries;
        record.view = computed ? viewOf(computed) : null;
        return save().then(function () {
          take(record.view || record.state);
          drawOffline();
        });
      })
      .catch(function (error) {
        resetPartial();
        render();
        say(words.textOffline + (error && error.message ? " (" + error.message + ")" : ""));
      })
      .then(function () {
        busy = false;
        root.removeAttribute("aria-busy");
      });
  }

  // The waiting entries to the server in one batch, from the ply the kit was given at.
  function trySync() {
    if (syncing || busy || !waiting() || record.conflict || midEntry()) return;
    syncing = true;
    busy = true;
    var sent = record.pending.slice();
    apiWrite(root.dataset.sync, "POST", { ply: record.kit.ply, entries: sent })
      .then(function (response) {
        noteServerClock(response);
        return response.json().then(function (data) {
          var error = data.error || {};
          var details = error.details || {};
          if (response.ok) {
            record.pending = [];
            record.view = null;
            busy = false;
            take(data, words.textSynced);
            return;
          }
          if (response.status === 409 && details.entries) {
            record.conflict = { theirs: details.entries, message: words.textConflict, state: details.state || null, refused: null };
          } else if (details.index !== undefined) {
            record.conflict = { theirs: [], message: fmt(words.textRefusedBatch, { reason: error.message }), state: null, refused: details.index };
          } else {
            say(error.message || response.statusText); // not signed in, say: the entries stay
            return;
          }
          return save().then(function () {
            // The board shows the server's record (the phone's entries are listed beside it).
            if (record.conflict.state) take(record.conflict.state);
            else render();
          });
        });
      })
      .catch(function () {}) // still no network: the entries wait
      .then(function () {
        syncing = false;
        busy = false;
        drawOffline();
      });
  }

  // A text with a count in the form the page's language gives it (the template's three).
  function counted(prefix, count) {
    var form = new Intl.PluralRules(document.documentElement.lang || "en").select(count);
    return fmt(words[prefix + (form === "one" ? "One" : form === "few" ? "Few" : "Many")], { count: count });
  }

  function sideOfPlayer(player) {
    return state.names[player - 1];
  }

  // An entry in words, for the conflict's two lists.
  function describe(action) {
    if (action.play !== undefined) return action.dice + ": " + (action.play || words.textEntryPass);
    if (action.dice) return fmt(words.textEntryRoll, { dice: action.dice });
    if (action.first) return fmt(words.textFirstButton, { name: sideOfPlayer(action.first) });
    if (action.opening) return fmt(words.textEntryOpening, action.opening);
    if (action.double) return words.textEntryDouble;
    if (action.take) return words.textEntryTake;
    if (action.drop) return words.textEntryDrop;
    if (action.resign) return fmt(words.textEntryResign, { side: sideWord(action.resign), value: valueWord(action.value) });
    if (action.flag) return fmt(words.textEntryFlag, { name: sideName(action.flag) });
    return JSON.stringify(action);
  }

  function listOf(role, entries, firstPly, marked) {
    var list = conflictPanel.querySelector('[data-role="' + role + '"]');
    while (list.firstChild) list.removeChild(list.firstChild);
    entries.forEach(function (entry, index) {
      var item = document.createElement("li");
      var ply = entry.ply !== undefined ? entry.ply : firstPly + index;
      item.textContent = fmt(words.textEntryAt, { ply: ply + 1, entry: describe(entry.action) });
      if (index === marked) item.className = "is-refused";
      list.appendChild(item);
    });
    list.closest("[data-role='side']").hidden = !entries.length;
  }

  // The banner of the waiting entries, and the conflict with both sides entry by entry.
  function drawOffline() {
    markReady();
    var count = waiting();
    offlineBox.hidden = !count;
    if (count) offlineBox.textContent = counted("textWaiting", count);
    var conflict = record && record.conflict;
    conflictPanel.hidden = !conflict;
    if (!conflict) return;
    conflictPanel.querySelector('[data-role="conflict-message"]').textContent = conflict.message;
    listOf("theirs", conflict.theirs, 0, -1);
    listOf("mine", record.pending, record.kit.ply, conflict.refused === null ? -1 : conflict.refused);
  }

  // The players' answer to a conflict: the phone's entries go (to the judge first, if asked).
  function settle(toJudge) {
    if (!record || !record.conflict || busy) return;
    var handed = toJudge
      ? apiWrite(root.dataset.aside, "POST", { ply: record.kit.ply, entries: record.pending, reason: record.conflict.message }).then(function (response) {
          if (!response.ok) return response.json().then(function (data) { throw new Error(data.error ? data.error.message : response.statusText); });
        })
      : Promise.resolve();
    busy = true;
    handed
      .then(function () {
        var count = record.pending.length;
        var server = record.conflict.state;
        record.pending = [];
        record.view = null;
        record.conflict = null;
        return save().then(function () {
          busy = false;
          var message = toJudge ? counted("textHanded", count) : "";
          if (server) take(server, message);
          else return takeFresh(message);
        });
      })
      .catch(function (error) {
        say(error.message || words.textOffline);
      })
      .then(function () {
        busy = false;
        drawOffline();
      });
  }

  conflictPanel.querySelector('[data-action="conflict-discard"]').addEventListener("click", function () {
    settle(false);
  });
  conflictPanel.querySelector('[data-action="conflict-judge"]').addEventListener("click", function () {
    settle(true);
  });

  // The page could go on with no network from here: the kit of the state shown is on the phone
  // and the service worker keeps the page (data-offline-ready, which the browser tests wait for).
  function markReady() {
    var controlled = "serviceWorker" in navigator && !!navigator.serviceWorker.controller;
    root.toggleAttribute("data-offline-ready", controlled && mayKeep());
  }

  // The phone's record: a page that came back from the service worker's cache (or was left
  // with entries waiting) shows what the phone holds; the service worker is registered.
  function startOffline() {
    if (!Offline) return;
    // Keep this page's own copy for a reload with no network (the worker's page route).
    function keepThisPage() {
      fetch(window.location.pathname, { credentials: "same-origin" })
        .catch(function () {})
        .then(markReady);
    }
    Offline.register(root.dataset.serviceWorker).then(function (controlled) {
      if (controlled) keepThisPage();
      else if ("serviceWorker" in navigator) navigator.serviceWorker.addEventListener("controllerchange", keepThisPage);
    });
    Offline.store.read(state.match).then(function (found) {
      record = found;
      var kept = found.state;
      var newer = kept && kept.draft === state.draft && kept.revision > state.revision;
      if (found.pending.length || newer || (kept && !navigator.onLine)) {
        clockOffset = found.offset;
        if (found.conflict && found.conflict.state) take(found.conflict.state);
        else if (found.pending.length && found.view) take(found.view);
        else if (kept) take(kept);
        // The clocks as they stand now (the engine reads them again), then the catch-up.
        if (found.pending.length && !found.conflict) hold(found.pending.slice()).then(trySync);
      } else {
        remember(state);
      }
      drawOffline();
    });
    window.addEventListener("online", trySync);
    window.setInterval(trySync, 5000);
  }

  // --- Taps -----------------------------------------------------------------------------------

  // A tap on a point (own numbering): pick its checker, send the selected one there, or put
  // the selected one down.
  function tapPoint(own) {
    if (partial.selected !== null && targets(partial.selected).indexOf(own) >= 0) {
      step(partial.selected, own);
    } else if (own === partial.selected) {
      partial.selected = null; // a second tap puts the checker down
      render();
    } else if (sources().indexOf(own) >= 0) {
      partial.selected = own;
      render();
    } else {
      partial.selected = null;
      render();
    }
  }

  svgBoard.addEventListener("click", function (event) {
    if (!state.dice || !state.steps || busy) return;
    var matrix = svgBoard.getScreenCTM();
    if (!matrix) return;
    var point = svgBoard.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    var at = point.matrixTransform(matrix.inverse());
    var hit = Board.zonesAt(zones, at.x, at.y);
    asking = null;
    if (hit.length > 1) {
      // Between two lit points, closer than a finger: ask which one (the choices below).
      asking = hit.map(function (zone) { return ownPoint(zone.tap); });
      render();
    } else if (hit.length === 1) {
      tapPoint(ownPoint(hit[0].tap));
    } else {
      partial.selected = null;
      render();
    }
  });

  // The zones are as wide as the board is drawn now: drawn again when that changes (a phone
  // turned to landscape).
  var drawnWidth = svgBoard.getBoundingClientRect().width;
  window.addEventListener("resize", function () {
    var width = svgBoard.getBoundingClientRect().width;
    if (width === drawnWidth) return;
    drawnWidth = width;
    drawBoard();
  });

  root.querySelectorAll("[data-die]").forEach(function (element) {
    element.addEventListener("click", function () {
      var die = Number(element.dataset.die);
      if (firstDie === null) {
        firstDie = die;
        render();
        return;
      }
      var dice = String(firstDie) + String(die);
      firstDie = null;
      send({ dice: dice });
    });
  });

  // The opening throw: one die each; once both are tapped they are sent (the server says which
  // side moves first, or that a tie is thrown again).
  root.querySelectorAll("[data-opening]").forEach(function (element) {
    element.addEventListener("click", function () {
      if (busy) return;
      opening[element.dataset.opening] = Number(element.dataset.face);
      render();
      if (opening.white !== null && opening.black !== null) {
        send({ opening: { white: opening.white, black: opening.black } });
      }
    });
  });

  // Who moves first is one explicit tap on the player's name, stored as an entry (also when it
  // is the player the rule would start with), so every phone and a reload agree.
  root.querySelectorAll("[data-first]").forEach(function (element) {
    element.addEventListener("click", function () {
      if (busy) return;
      choosingFirst = Number(element.dataset.first);
      render();
      send({ first: choosingFirst });
    });
  });

  onlyPlay.addEventListener("click", function () {
    send({ dice: state.dice, play: state.legal_plays[0].play });
  });
  passButton.addEventListener("click", function () {
    send({ dice: state.dice, play: "" });
  });

  root.querySelectorAll("[data-action]").forEach(function (element) {
    element.addEventListener("click", function () {
      var action = element.dataset.action;
      if (action === "double") send({ double: true });
      else if (action === "swap-colours") send({ first: 3 - state.white });
      else if (action === "take") send({ take: true });
      else if (action === "drop") send({ drop: true });
      else if (action === "as-made") {
        var typed = root.querySelector('[data-role="as-made-play"]').value.trim();
        if (typed && state.dice) sendAsMade(typed);
      } else if (action === "accept-yes") {
        if (!accepting) return;
        var made = accepting;
        send({ dice: made.dice, play: made.play, accepted: true });
      } else if (action === "accept-no") {
        accepting = null;
        render();
      }
      else if (action === "flag") {
        if (fallenShown) send({ flag: fallenShown });
      } else if (action === "clock-pause") judge({ action: "pause" });
      else if (action === "clock-resume") judge({ action: "resume" });
      else if (action === "clock-adjust") {
        var seconds = Number(root.querySelector('[data-role="adjust-seconds"]').value);
        judge({ action: "adjust", side: root.querySelector('[data-role="adjust-side"]').value, seconds: seconds });
      }
      else if (action === "resign-confirm") {
        if (!resigning) return;
        var resignation = resigning;
        resigning = null;
        send({ resign: resignation.side, value: resignation.value });
      } else if (action === "resign-cancel") {
        resigning = null;
        render();
      } else if (action === "undo") {
        if (state.finished) {
          undo(); // the entry that decided the match: the server says whether it still may
        } else if (asking) {
          asking = null;
          render();
        } else if (firstDie !== null) {
          firstDie = null;
          render();
        } else if (opening.white !== null || opening.black !== null) {
          opening = { white: null, black: null };
          render();
        } else if (partial.steps.length) {
          var steps = partial.steps.slice(0, -1);
          resetPartial();
          steps.forEach(function (made) { step(made[0], made[1]); });
          partial.selected = null;
          render();
        } else {
          undo();
        }
      } else if (action === "undo-to") {
        var to = Number(root.querySelector('[data-role="undo-to"]').value);
        if (!isNaN(to)) undo(to);
      } else if (action === "discard") {
        if (window.confirm(words.textDiscard)) request(root.dataset.api, "DELETE");
      }
    });
  });

  // A resignation is asked for first: who resigns, as what, and what the opponent wins.
  root.querySelectorAll("[data-resign]").forEach(function (element) {
    element.addEventListener("click", function () {
      resigning = { side: element.dataset.resign, value: Number(element.dataset.value) };
      root.querySelector('[data-role="resign"]').open = false;
      render();
      root.querySelector('[data-action="resign-confirm"]').focus();
    });
  });

  resetPartial();
  if (clocks) clocks.load(state);
  render();
  startOffline();
  document.addEventListener("visibilitychange", follow);
  follow();
  // The take-back countdown on the Undo button.
  window.setInterval(function () {
    if (state.take_back_until) showUndo(!state.finished && state.match_status === "scheduled");
  }, 1000);
})();
